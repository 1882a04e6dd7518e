//! FIFO bookkeeping beside the store: the 5-minute deduplication window (SQS's queues and
//! SNS's FIFO topics share it, and the content-based id), sequence numbers and
//! ReceiveRequestAttemptId replays.

use std::collections::{HashMap, VecDeque};

use uuid::Uuid;

use crate::clock::Millis;
use crate::sqs::engine::attributes::DeduplicationScope;

pub use crate::sqs::engine::limits::DEDUPLICATION_WINDOW_MS as WINDOW_MS;

/// SQS sequence numbers are 20-digit decimals; ours count up from a fixed base.
const SEQUENCE_BASE: u128 = 18_849_496_460_467_696_128;

/// The SequenceNumber SQS reports for our `n`: 20 digits, like SQS's, and growing with `n`.
pub fn sequence_number(n: u64) -> String {
    (SEQUENCE_BASE + u128::from(n)).to_string()
}

/// The deduplication id ContentBasedDeduplication gives a message: the SHA-256 of its body,
/// in lower-case hex, for SQS and SNS alike.
pub fn content_deduplication_id(body: &str) -> String {
    use sha2::{Digest, Sha256};
    crate::sqs::engine::md5::hex(&Sha256::digest(body.as_bytes()))
}

/// The send a deduplicated one repeats: a duplicate is answered with its id and sequence number.
#[derive(Debug, Clone, Copy)]
pub struct Original {
    /// The first send's message id, answered again to duplicates.
    pub id: Uuid,
    /// The first send's sequence number.
    pub sequence: u64,
}

/// Deduplication ids seen in the last five minutes. Each send is remembered both by its id
/// alone and by its group and id, so a change of DeduplicationScope judges every later send
/// against the whole window under the new scope. (AWS documents no rule for a scope change;
/// this is the reading in which a setting applies "from then on".)
///
/// Standard queues and idle FIFO queues hold none: the window is boxed on the first send
/// it remembers (8 bytes a queue instead of 128).
///
/// `O` is what a repeat is answered with: a queue's [`Original`], a topic's first publish.
#[derive(Debug, Clone)]
pub struct Dedup<O = Original>(Option<Box<Window<O>>>);

impl<O> Default for Dedup<O> {
    fn default() -> Self {
        Dedup(None)
    }
}

/// The remembered sends behind [`Dedup`]'s box.
#[derive(Debug, Clone)]
struct Window<O> {
    /// By deduplication id alone, with the window's end.
    by_id: HashMap<String, (O, Millis)>,
    /// By group and deduplication id, with the window's end.
    by_group: HashMap<String, (O, Millis)>,
    /// `(until, id, group key)`, oldest first for cheap expiry.
    order: VecDeque<(Millis, String, String)>,
}

/// The key of deduplication id `id` in `group`; NUL cannot occur in a MessageGroupId, so keys never
/// collide.
fn group_key(group: &str, id: &str) -> String {
    format!("{group}\u{0}{id}")
}

impl<O> Default for Window<O> {
    fn default() -> Self {
        Window {
            by_id: HashMap::new(),
            by_group: HashMap::new(),
            order: VecDeque::new(),
        }
    }
}

impl<O: Clone> Dedup<O> {
    /// The message a send of `id` in `group` duplicates, under `scope`.
    pub fn check(
        &mut self,
        group: &str,
        id: &str,
        scope: DeduplicationScope,
        now: Millis,
    ) -> Option<O> {
        let window = self.0.as_mut()?;
        window.expire(now);
        if window.order.is_empty() {
            self.0 = None;
            return None;
        }
        window.check(group, id, scope)
    }

    /// Remembers a send of deduplication id `id` in `group` for the five minutes after `now`.
    pub fn record(&mut self, group: &str, id: String, original: O, now: Millis) {
        self.0
            .get_or_insert_with(Box::default)
            .record(group, id, original, now);
    }

    /// The latest send of `id` still remembered, with the end of its window.
    pub fn latest(&self, id: &str) -> Option<(&O, Millis)> {
        let (original, until) = self.0.as_ref()?.by_id.get(id)?;
        Some((original, *until))
    }

    /// Every send of an id still remembered at `now` (its latest), with its window's end.
    pub fn live(&self, now: Millis) -> impl Iterator<Item = (&str, &O, Millis)> {
        let ids = self.0.iter().flat_map(|w| w.by_id.iter());
        ids.filter(move |(_, (_, until))| *until > now)
            .map(|(id, (original, until))| (id.as_str(), original, *until))
    }

    /// Forgets every remembered send (PurgeQueue empties the window, as in SQS).
    pub fn clear(&mut self) {
        self.0 = None;
    }
}

impl Dedup {
    /// Every remembered send, oldest first, as the records that remember it again.
    pub fn entries(
        &self,
        queue: u64,
    ) -> impl Iterator<Item = crate::sqs::engine::mutation::Dedup<'_>> {
        self.0.iter().flat_map(move |w| w.entries(queue))
    }
}

impl<O: Clone> Window<O> {
    /// Drops the sends whose window ended by `now`, unless a later send of the same id renewed it.
    fn expire(&mut self, now: Millis) {
        while self
            .order
            .front()
            .is_some_and(|(until, _, _)| *until <= now)
        {
            if let Some((_, id, key)) = self.order.pop_front() {
                if self.by_id.get(&id).is_some_and(|(_, u)| *u <= now) {
                    self.by_id.remove(&id);
                }
                if self.by_group.get(&key).is_some_and(|(_, u)| *u <= now) {
                    self.by_group.remove(&key);
                }
            }
        }
    }

    /// See [`Dedup::check`]; the window is already expired to now.
    fn check(&self, group: &str, id: &str, scope: DeduplicationScope) -> Option<O> {
        let found = match scope {
            DeduplicationScope::Queue => self.by_id.get(id),
            DeduplicationScope::MessageGroup => self.by_group.get(&group_key(group, id)),
        };
        found.map(|(o, _)| o.clone())
    }

    /// See [`Dedup::record`]: both keys are remembered, so either scope finds the send.
    fn record(&mut self, group: &str, id: String, original: O, now: Millis) {
        let until = now.saturating_add(WINDOW_MS);
        let key = group_key(group, &id);
        self.by_group.insert(key.clone(), (original.clone(), until));
        // The latest send of an id covers the window longest.
        self.by_id.insert(id.clone(), (original, until));
        self.order.push_back((until, id, key));
    }
}

impl Window<Original> {
    /// See [`Dedup::entries`]: the group is read back from the group key.
    fn entries(&self, queue: u64) -> impl Iterator<Item = crate::sqs::engine::mutation::Dedup<'_>> {
        self.order.iter().filter_map(move |(until, id, key)| {
            let (original, _) = self.by_group.get(key)?;
            let group = key.split('\u{0}').next().unwrap_or_default();
            Some(crate::sqs::engine::mutation::Dedup {
                queue,
                group,
                id,
                message_id: original.id,
                sequence: original.sequence,
                at: until.saturating_sub(WINDOW_MS),
            })
        })
    }
}

/// What a receive with a ReceiveRequestAttemptId returned: `(seq, receive number)` pairs,
/// boxed on the first such receive (most queues never see one).
#[derive(Debug, Default)]
pub struct Attempts {
    /// By ReceiveRequestAttemptId: until when, and what it returned.
    seen: Option<Box<Seen>>,
}

/// ReceiveRequestAttemptId → (window end, what the receive delivered).
type Seen = HashMap<String, (Millis, Vec<(u64, u32)>)>;

impl Attempts {
    /// What an earlier receive with attempt id `id` delivered, if within its five-minute window: a
    /// retry gets it again.
    pub fn get(&mut self, id: &str, now: Millis) -> Option<Vec<(u64, u32)>> {
        let seen = self.seen.as_mut()?;
        seen.retain(|_, (until, _)| *until > now);
        if seen.is_empty() {
            self.seen = None;
            return None;
        }
        seen.get(id).map(|(_, v)| v.clone())
    }

    /// Remembers what the receive `id` made at `at` delivered, for the window after `at`.
    pub fn record(&mut self, id: String, delivered: Vec<(u64, u32)>, at: Millis) {
        self.seen
            .get_or_insert_with(Box::default)
            .insert(id, (at.saturating_add(WINDOW_MS), delivered));
    }

    /// Every remembered receive, as the records that restore it.
    pub fn entries(
        &self,
        queue: u64,
    ) -> impl Iterator<Item = crate::sqs::engine::mutation::Attempt<'_>> {
        self.seen
            .iter()
            .flat_map(|seen| seen.iter())
            .map(
                move |(id, (until, delivered))| crate::sqs::engine::mutation::Attempt {
                    queue,
                    id,
                    delivered,
                    at: until.saturating_sub(WINDOW_MS),
                },
            )
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
        d.record("g", "k".into(), o, 0);
        let queue = DeduplicationScope::Queue;
        assert_eq!(
            d.check("g", "k", queue, WINDOW_MS - 1).map(|o| o.sequence),
            Some(1)
        );
        assert!(d.check("g", "k", queue, WINDOW_MS).is_none());
    }

    #[test]
    fn the_scope_in_force_at_the_send_decides() {
        let mut d = Dedup::default();
        let o = |sequence| Original {
            id: Uuid::new_v4(),
            sequence,
        };
        d.record("g1", "x".into(), o(1), 0);
        let (queue, group) = (DeduplicationScope::Queue, DeduplicationScope::MessageGroup);
        assert!(d.check("g2", "x", queue, 1).is_some());
        assert!(d.check("g2", "x", group, 1).is_none());
        assert!(d.check("g1", "x", group, 1).is_some());
        d.record("g2", "x".into(), o(2), 2);
        assert_eq!(d.check("g3", "x", queue, 3).map(|o| o.sequence), Some(2));
        assert!(d.check("g1", "x", group, WINDOW_MS).is_none());
        assert!(d.check("g3", "x", queue, WINDOW_MS).is_some());
        assert!(d.check("g3", "x", queue, WINDOW_MS + 2).is_none());
    }

    #[test]
    fn sequence_numbers_are_twenty_digits_and_increase() {
        assert_eq!(sequence_number(0).len(), 20);
        assert!(sequence_number(1) > sequence_number(0));
    }
}
