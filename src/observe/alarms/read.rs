//! Reading every queue's alarm conditions: short locks per queue to copy a few numbers,
//! the conditions worked out with no lock held.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::{Kind, Reading};
use crate::clock::Millis;
use crate::observe::alarms::AlarmConfig;
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;

/// What an evaluation copies out of one queue under its lock.
struct Numbers {
    depth: usize,
    /// Visible plus in flight.
    work: usize,
    oldest: Option<Millis>,
    last_delete: Option<Millis>,
    max_receives: Option<u32>,
}

fn numbers(q: &Queue, now: Millis) -> Numbers {
    let o = q.observe(now);
    let d = o.depth;
    Numbers {
        depth: d.visible + d.in_flight + d.delayed,
        work: d.visible + d.in_flight,
        oldest: d.oldest_enqueued_at,
        last_delete: o.stats.last_delete_at,
        max_receives: o.max_receive_count,
    }
}

/// Reads queues one at a time, knowing which are dead-letter queues.
pub(super) struct Reader<'a> {
    cfg: &'a AlarmConfig,
    now: Millis,
    /// The uids of the queues some RedrivePolicy names.
    targets: &'a FxHashSet<u64>,
    next: Option<Millis>,
}

impl<'a> Reader<'a> {
    /// A reader of `queues`; `targets` is a set to fill (kept from round to round).
    pub(super) fn new(
        registry: &Registry,
        cfg: &'a AlarmConfig,
        queues: &[Arc<Queue>],
        now: Millis,
        targets: &'a mut FxHashSet<u64>,
    ) -> Self {
        targets.clear();
        targets.extend(
            queues
                .iter()
                .filter_map(|q| registry.dead_letter_queue_of(q, now))
                .map(|target| target.uid),
        );
        Reader {
            cfg,
            now,
            targets,
            next: None,
        }
    }

    /// Every alarm condition of `q`, in [`Kind`] order, to `emit`.
    pub(super) fn read(&mut self, q: &Queue, mut emit: impl FnMut(Reading)) {
        let (cfg, now) = (self.cfg, self.now);
        let n = numbers(q, now);
        if self.targets.contains(&q.uid) {
            emit(dlq_depth(&n));
            return;
        }
        emit(receive_count(q, n.max_receives, cfg, now));
        let (stall, due) = stall(&n, cfg, now);
        emit(stall);
        let (age, age_due) = oldest_message_age(&n, cfg, now);
        if let Some(age) = age {
            emit(age);
        }
        for t in [due, age_due].into_iter().flatten() {
            self.next = Some(self.next.map_or(t, |n| n.min(t)));
        }
    }

    /// The earliest instant a condition read so far could start firing.
    pub(super) fn next_due(&self) -> Option<Millis> {
        self.next
    }
}

fn dlq_depth(n: &Numbers) -> Reading {
    Reading {
        kind: Kind::DlqDepth,
        firing: n.depth > 0,
        value: n.depth as u64,
        threshold: 0,
        work: 0,
    }
}

/// Work waiting and no DeleteMessage for `stall_seconds`; and when it would start firing.
fn stall(n: &Numbers, cfg: &AlarmConfig, now: Millis) -> (Reading, Option<Millis>) {
    let stall_ms = cfg.stall_seconds.saturating_mul(1000);
    let since = n.last_delete.unwrap_or(0).max(n.oldest.unwrap_or(now));
    let idle = if n.work > 0 {
        now.saturating_sub(since)
    } else {
        0
    };
    let due = (n.work > 0 && idle < stall_ms).then(|| since.saturating_add(stall_ms));
    let reading = Reading {
        kind: Kind::Stall,
        firing: n.work > 0 && idle >= stall_ms,
        value: idle / 1000,
        threshold: cfg.stall_seconds,
        work: n.work as u64,
    };
    (reading, due)
}

/// The oldest message older than `max_age_seconds` (no alarm when that is 0); and when it
/// would start firing.
fn oldest_message_age(
    n: &Numbers,
    cfg: &AlarmConfig,
    now: Millis,
) -> (Option<Reading>, Option<Millis>) {
    let age_ms = cfg.max_age_seconds.saturating_mul(1000);
    if age_ms == 0 {
        return (None, None);
    }
    let age = n.oldest.map_or(0, |t| now.saturating_sub(t));
    let due = n
        .oldest
        .filter(|_| age < age_ms)
        .map(|t| t.saturating_add(age_ms));
    let reading = Reading {
        kind: Kind::OldestMessageAge,
        firing: n.oldest.is_some() && age >= age_ms,
        value: age / 1000,
        threshold: cfg.max_age_seconds,
        work: 0,
    };
    (Some(reading), due)
}

/// A message received N times: paged before it is dead-lettered (N defaults to the queue's
/// maxReceiveCount - 1), or while it loops on a queue without a dead-letter queue (N = 5).
fn receive_count(q: &Queue, max_receives: Option<u32>, cfg: &AlarmConfig, now: Millis) -> Reading {
    let threshold = cfg
        .receive_count
        .or(max_receives.map(|m| m.saturating_sub(1)))
        .unwrap_or(5)
        .max(1);
    let most = q.receive_count_reaching(threshold, now);
    Reading {
        kind: Kind::ReceiveCount,
        firing: most.is_some(),
        value: u64::from(most.unwrap_or(0)),
        threshold: u64::from(threshold),
        work: 0,
    }
}
