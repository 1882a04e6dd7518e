//! The messages of one queue by sequence number.
//!
//! Sequence numbers only grow and most messages leave in about the order they came, so live
//! messages sit in a ring indexed by `seq - base`: receiving the oldest and sending the newest
//! touch neighbouring memory even with a million queued. A hash map scattered them over the
//! whole table, one cache and TLB miss per access (BENCHMARKS.md, "Depth"). A message that
//! stays at the front while the ring behind it empties (a poison message in flight, a long
//! delay) moves to a side map, so the emptied slots are reclaimed and the ring never holds
//! more than about twice the live messages.

use std::collections::{HashMap, VecDeque};

use rustc_hash::FxBuildHasher;

use super::message::Message;

/// Empty slots tolerated beyond the live ones before the front is moved aside.
const SLACK: usize = 1024;

/// A queue's messages by sequence number: a ring for the live run, a side map for stragglers.
#[derive(Debug, Default)]
pub struct Slots {
    /// `ring[i]` holds sequence number `base + i`.
    ring: VecDeque<Option<Message>>,
    /// The sequence number of `ring[0]`.
    base: u64,
    /// Messages older than `base`; keyed by our own sequence numbers, so FxHash is safe.
    aside: HashMap<u64, Message, FxBuildHasher>,
    /// Live messages, in the ring and aside.
    len: usize,
}

impl Slots {
    /// Live messages: ApproximateNumberOfMessages and its kin count from here.
    pub fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Files a message under a sequence number newer than any filed before.
    pub fn insert(&mut self, seq: u64, msg: Message) {
        if self.ring.is_empty() {
            self.base = seq;
        }
        match self.offset(seq) {
            Some(i) if i >= self.ring.len() => {
                self.ring.resize_with(i, || None);
                self.ring.push_back(Some(msg));
            }
            // Not newer than every filed message: kept correct, if off the fast path.
            Some(i) => {
                if self.ring[i].replace(msg).is_some() {
                    self.len -= 1;
                }
            }
            None => {
                if self.aside.insert(seq, msg).is_some() {
                    self.len -= 1;
                }
            }
        }
        self.len += 1;
    }

    /// The message filed under `seq`, in the ring or aside.
    pub fn get(&self, seq: u64) -> Option<&Message> {
        match self.offset(seq) {
            Some(i) => self.ring.get(i)?.as_ref(),
            None => self.aside.get(&seq),
        }
    }

    /// The message filed under `seq`, to change its visibility or receive count.
    pub fn get_mut(&mut self, seq: u64) -> Option<&mut Message> {
        match self.offset(seq) {
            Some(i) => self.ring.get_mut(i)?.as_mut(),
            None => self.aside.get_mut(&seq),
        }
    }

    /// Whether a message is filed under `seq` (a receipt handle's message may be gone).
    pub fn contains(&self, seq: u64) -> bool {
        self.get(seq).is_some()
    }

    /// Takes the message `seq` out, reclaiming emptied slots at the front.
    pub fn remove(&mut self, seq: u64) -> Option<Message> {
        let msg = match self.offset(seq) {
            Some(i) => self.ring.get_mut(i)?.take()?,
            None => self.aside.remove(&seq)?,
        };
        self.len -= 1;
        self.reclaim();
        Some(msg)
    }

    /// The ring index of `seq`; `None` below the ring (the side map's range) and for offsets
    /// no index can hold (a forged receipt handle's sequence number), which then finds nothing.
    fn offset(&self, seq: u64) -> Option<usize> {
        seq.checked_sub(self.base)
            .and_then(|o| usize::try_from(o).ok())
    }

    /// Drops empty slots at the front, moving front messages aside while the ring is mostly
    /// holes. Each slot is popped once, so this is O(1) per removal on average.
    fn reclaim(&mut self) {
        loop {
            let in_ring = self.len - self.aside.len();
            let holes = self.ring.len() - in_ring;
            match self.ring.front() {
                Some(None) => {}
                Some(Some(_)) if holes > in_ring + SLACK => {}
                _ => break,
            }
            if let Some(Some(msg)) = self.ring.pop_front() {
                self.aside.insert(self.base, msg);
            }
            self.base += 1;
        }
        if self.ring.is_empty() && self.ring.capacity() > SLACK {
            self.ring = VecDeque::new();
        }
    }
}

impl std::ops::Index<&u64> for Slots {
    type Output = Message;

    fn index(&self, seq: &u64) -> &Message {
        self.get(*seq).expect("a filed sequence number")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sqs::engine::fixture::stored;

    fn sample(body: &str) -> Message {
        stored(body, 0, 0, None)
    }

    #[test]
    fn lookups_across_ring_and_aside() {
        let mut slots = Slots::default();
        for seq in 10..20 {
            slots.insert(seq, sample(&seq.to_string()));
        }
        assert_eq!(slots.len(), 10);
        assert_eq!(&*slots[&15].body, "15");
        assert!(slots.get(9).is_none() && slots.get(20).is_none());
        assert!(slots.get(u64::MAX).is_none() && slots.remove(u64::MAX).is_none());
        assert_eq!(&*slots.remove(10).unwrap().body, "10");
        assert!(slots.remove(10).is_none());
        slots.get_mut(11).unwrap().receive_count = 3;
        assert_eq!(slots[&11].receive_count, 3);
        assert_eq!(slots.len(), 9);
    }

    #[test]
    fn a_lingering_front_message_does_not_pin_the_emptied_ring() {
        let mut slots = Slots::default();
        slots.insert(0, sample("poison"));
        for seq in 1..100_000 {
            slots.insert(seq, sample("x"));
            slots.remove(seq);
        }
        assert_eq!(slots.len(), 1);
        assert!(
            slots.ring.len() <= 2 * SLACK,
            "ring kept {} slots",
            slots.ring.len()
        );
        assert_eq!(&*slots[&0].body, "poison");
        assert_eq!(&*slots.remove(0).unwrap().body, "poison");
        assert!(slots.is_empty());
    }

    #[test]
    fn matches_a_map_under_random_removal() {
        // A small deterministic generator: the point is arbitrary interleavings, not quality.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut slots = Slots::default();
        let mut model = std::collections::BTreeMap::new();
        let mut seq = 0;
        for _ in 0..50_000 {
            if next() % 3 != 0 || model.is_empty() {
                seq += 1 + next() % 2;
                slots.insert(seq, sample(&seq.to_string()));
                model.insert(seq, seq.to_string());
            } else {
                // Mostly the oldest, sometimes anything.
                let pick = if next() % 4 == 0 {
                    *model
                        .keys()
                        .nth((next() % model.len() as u64) as usize)
                        .unwrap()
                } else {
                    *model.keys().next().unwrap()
                };
                let probe = if next() % 10 == 0 { pick + 1 } else { pick };
                assert_eq!(
                    slots.remove(probe).map(|m| m.body.to_string()),
                    model.remove(&probe)
                );
            }
            assert_eq!(slots.len(), model.len());
        }
        for (seq, body) in &model {
            assert_eq!(&*slots[seq].body, body.as_str());
        }
    }
}
