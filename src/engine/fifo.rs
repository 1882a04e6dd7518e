//! FIFO bookkeeping beside the store: the 5-minute deduplication window, sequence numbers and
//! ReceiveRequestAttemptId replays.

use std::collections::{HashMap, VecDeque};

use uuid::Uuid;

use crate::clock::Millis;

pub const WINDOW_MS: Millis = 5 * 60 * 1000;

/// SQS sequence numbers are 20-digit decimals; ours count up from a fixed base.
const SEQUENCE_BASE: u128 = 18_849_496_460_467_696_128;

pub fn sequence_number(n: u64) -> String {
    (SEQUENCE_BASE + u128::from(n)).to_string()
}

#[derive(Debug, Clone, Copy)]
pub struct Original {
    pub id: Uuid,
    pub sequence: u64,
}

/// Deduplication ids seen in the last five minutes, oldest first for cheap expiry.
#[derive(Debug, Default)]
pub struct Dedup {
    seen: HashMap<String, (Original, Millis)>,
    order: VecDeque<(Millis, String)>,
}

impl Dedup {
    pub fn check(&mut self, key: &str, now: Millis) -> Option<Original> {
        self.expire(now);
        self.seen.get(key).map(|(o, _)| *o)
    }

    pub fn record(&mut self, key: String, original: Original, now: Millis) {
        let until = now.saturating_add(WINDOW_MS);
        self.order.push_back((until, key.clone()));
        self.seen.insert(key, (original, until));
    }

    pub fn clear(&mut self) {
        self.seen.clear();
        self.order.clear();
    }

    fn expire(&mut self, now: Millis) {
        while let Some((until, _)) = self.order.front() {
            if *until > now {
                break;
            }
            if let Some((_, key)) = self.order.pop_front() {
                if self.seen.get(&key).is_some_and(|(_, u)| *u <= now) {
                    self.seen.remove(&key);
                }
            }
        }
    }
}

/// What a receive with a ReceiveRequestAttemptId returned: `(seq, receive number)` pairs.
#[derive(Debug, Default)]
pub struct Attempts {
    seen: HashMap<String, (Millis, Vec<(u64, u32)>)>,
}

impl Attempts {
    pub fn get(&mut self, id: &str, now: Millis) -> Option<Vec<(u64, u32)>> {
        self.seen.retain(|_, (until, _)| *until > now);
        self.seen.get(id).map(|(_, v)| v.clone())
    }

    pub fn record(&mut self, id: String, delivered: Vec<(u64, u32)>, now: Millis) {
        self.seen
            .insert(id, (now.saturating_add(WINDOW_MS), delivered));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_is_five_minutes() {
        let mut d = Dedup::default();
        let o = Original {
            id: Uuid::new_v4(),
            sequence: 1,
        };
        d.record("k".into(), o, 0);
        assert_eq!(d.check("k", WINDOW_MS - 1).map(|o| o.sequence), Some(1));
        assert!(d.check("k", WINDOW_MS).is_none());
    }

    #[test]
    fn sequence_numbers_are_twenty_digits_and_increase() {
        assert_eq!(sequence_number(0).len(), 20);
        assert!(sequence_number(1) > sequence_number(0));
    }
}
