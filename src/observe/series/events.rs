//! What a chart marks: alarm state changes and injected faults, kept for the window in one
//! bounded list. A fault rule hitting a burst of calls (every call 2 s slower) is one mark per
//! slot with a hit count, not one per call.

use std::collections::VecDeque;

use serde::Serialize;

use super::ring::slot;
use super::WINDOW_MS;
use crate::clock::Millis;

/// Marks kept at most, over all queues.
const MAX_EVENTS: usize = 1_000;

/// How far back a fault hit looks for a mark to add itself to.
const COALESCE_LOOKBACK: usize = 16;

/// One mark, serialized for the admin API with `kind` (`alarm` or `fault`).
#[derive(Debug, Clone, Serialize)]
pub struct Event {
    /// When it happened, on the server clock (ms).
    pub t: Millis,
    /// The queue's name, when the event is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue: Option<String>,
    /// The queue's uid, when known exactly (alarms); faults name a queue as the call did.
    #[serde(skip)]
    pub uid: Option<u64>,
    #[serde(flatten)]
    pub what: What,
}

/// What an event was.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum What {
    /// An alarm entered `state` (`ALARM` when it fired, `OK` when it cleared).
    Alarm {
        alarm: &'static str,
        state: &'static str,
    },
    /// A fault rule hit `hits` calls of `action` in this slot.
    Fault {
        rule: u64,
        action: String,
        /// The error code, `latency <n> ms` and/or `dropped connection`.
        effect: String,
        hits: u64,
    },
}

/// The marks, oldest first.
#[derive(Debug, Default)]
pub(crate) struct Events {
    list: VecDeque<Event>,
}

impl Events {
    pub(crate) fn push(&mut self, event: Event) {
        if self.coalesce(&event) {
            return;
        }
        if self.list.len() == MAX_EVENTS {
            self.list.pop_front();
        }
        let from = event.t.saturating_sub(WINDOW_MS);
        self.list.push_back(event);
        while self.list.front().is_some_and(|e| e.t < from) {
            self.list.pop_front();
        }
    }

    /// Adds a fault hit to a recent mark of the same rule, call and queue in its slot.
    fn coalesce(&mut self, event: &Event) -> bool {
        let What::Fault { rule, action, .. } = &event.what else {
            return false;
        };
        let same = self
            .list
            .iter_mut()
            .rev()
            .take(COALESCE_LOOKBACK)
            .find(|e| match &e.what {
                What::Fault {
                    rule: r, action: a, ..
                } => r == rule && a == action && e.queue == event.queue,
                What::Alarm { .. } => false,
            });
        match same {
            Some(Event {
                t,
                what: What::Fault { hits, .. },
                ..
            }) if slot(*t) == slot(event.t) => {
                *hits += 1;
                true
            }
            _ => false,
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Event> {
        self.list.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(t: Millis, rule: u64) -> Event {
        Event {
            t,
            queue: Some("orders".into()),
            uid: None,
            what: What::Fault {
                rule,
                action: "SendMessage".into(),
                effect: "RequestThrottled".into(),
                hits: 1,
            },
        }
    }

    #[test]
    fn a_burst_of_hits_is_one_mark_per_slot_and_rule() {
        let mut e = Events::default();
        for t in [10_000, 10_100, 10_200] {
            e.push(fault(t, 1));
        }
        e.push(fault(10_300, 2));
        e.push(fault(12_000, 1));
        let marks: Vec<(Millis, u64)> = e
            .iter()
            .map(|e| match e.what {
                What::Fault { hits, rule, .. } => (e.t, hits * 10 + rule),
                What::Alarm { .. } => unreachable!(),
            })
            .collect();
        assert_eq!(marks, [(10_000, 31), (10_300, 12), (12_000, 11)]);
    }
}
