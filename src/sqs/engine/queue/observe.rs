//! The read interface observers use (metrics, alarms): a few numbers copied out of a queue
//! under one short hold of its lock, so no observer sees the state, the store or the lock.

use super::{Depth, Queue, Stats};
use crate::clock::Millis;
use crate::sqs::engine::processing::Processing;

/// One queue as an observer sees it at an instant.
#[derive(Debug, Clone)]
pub struct Observation {
    /// Its message counts and the oldest message's enqueue time.
    pub depth: Depth,
    /// Its counters since it was created (or since the server started).
    pub stats: Stats,
    /// The RedrivePolicy's maxReceiveCount, when the queue has one.
    pub max_receive_count: Option<u32>,
}

impl Queue {
    /// Counts, counters and redrive limit, copied under one hold of the lock.
    pub fn observe(&self, now: Millis) -> Observation {
        let state = self.lock_settled_mut(now);
        let store = state.store();
        Observation {
            depth: Depth {
                visible: store.visible(),
                in_flight: store.in_flight(),
                delayed: store.delayed(),
                oldest_enqueued_at: store.oldest_enqueued_at(),
            },
            stats: state.stats.clone(),
            max_receive_count: state
                .attributes
                .redrive_policy
                .as_ref()
                .map(|p| p.max_receive_count),
        }
    }

    /// What `f` reads of the consumers' processing times, under the lock (`f` must be short).
    pub fn read_processing<R>(&self, now: Millis, f: impl FnOnce(&Processing) -> R) -> R {
        f(self.lock_settled_mut(now).processing())
    }
}
