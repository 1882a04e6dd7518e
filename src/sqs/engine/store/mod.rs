//! The messages of one queue and the ordered indexes that make every operation O(log n).
//! The messages themselves sit in a ring by sequence number (`slots.rs`).
//!
//! Visibility is lazy: a message is visible once `visible_at <= now`. `settle(now)` moves the
//! messages whose deadline has passed from `pending` into `ready` (and drops the ones past
//! retention) before any operation looks, so counts are exact at every instant without a timer
//! per message. FIFO queues serve groups instead (`groups.rs`): a group is receivable while
//! its head is visible, and a receive returns the visible prefix of each group, up to the
//! group's first hidden message.

mod recovery;
mod run_set;

use crate::clock::Millis;
use crate::sqs::engine::groups::Groups;
use crate::sqs::engine::message::Message;
use crate::sqs::engine::slots::Slots;
use run_set::RunSet;

/// A tenant needs at least this many messages in flight to count as noisy.
const NOISY_MIN: usize = 30;
/// How many of a noisy tenant's messages one receive looks past to find a quiet tenant's.
const FAIR_SCAN: usize = 1000;

/// What a receive should do with a candidate message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    /// Deliver it.
    Deliver,
    /// Move it to the dead-letter queue instead (past maxReceiveCount).
    DeadLetter,
}

/// A queue's messages with their visibility indexes and counts, exact at the instant last settled
/// to.
#[derive(Debug, Default)]
pub struct Store {
    /// A FIFO queue: visible messages are served by group.
    fifo: bool,
    /// Every message, by sequence number.
    msgs: Slots,
    /// Standard queues: every visible message by send order (FIFO queues use `groups`).
    ready: RunSet<u64>,
    /// Delayed and in-flight messages by the instant they become visible.
    pending: RunSet<(Millis, u64)>,
    /// Every message by enqueue time, for retention and the age of the oldest message.
    by_age: RunSet<(Millis, u64)>,
    /// FIFO (and fair) message groups.
    groups: Groups,
    /// The sequence number the next message gets.
    next_seq: u64,
    /// Messages received and not yet visible again.
    in_flight: usize,
    /// Messages still within their delay.
    delayed: usize,
}

impl Store {
    /// An empty store; `fifo` serves visible messages by group.
    pub fn new(fifo: bool) -> Self {
        Store {
            fifo,
            ..Store::default()
        }
    }

    /// Stored messages, whatever their visibility (the three approximate counts together).
    pub fn len(&self) -> usize {
        self.msgs.len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.msgs.is_empty()
    }

    /// ApproximateNumberOfMessages: neither in flight nor delayed.
    pub fn visible(&self) -> usize {
        self.msgs.len() - self.in_flight - self.delayed
    }

    /// ApproximateNumberOfMessagesNotVisible: received and not visible again yet.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// ApproximateNumberOfMessagesDelayed: sent with a delay that has not passed.
    pub fn delayed(&self) -> usize {
        self.delayed
    }

    /// The message with sequence number `seq` (a receipt handle's), if it is still stored.
    pub fn get(&self, seq: u64) -> Option<&Message> {
        self.msgs.get(seq)
    }

    /// Every message with its sequence number, oldest enqueued first.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &Message)> {
        self.by_age
            .iter_after(None)
            .map(|(_, seq)| (seq, &self.msgs[&seq]))
    }

    /// Messages by enqueue time after the position `after` (one this returned earlier, or
    /// `None` from the start): lets a long walk go on after the queue's lock was let go.
    pub fn iter_after(
        &self,
        after: Option<(Millis, u64)>,
    ) -> impl Iterator<Item = ((Millis, u64), &Message)> {
        self.by_age
            .iter_after(after.as_ref())
            .map(|key| (key, &self.msgs[&key.1]))
    }

    /// When the oldest message was enqueued: the ApproximateAgeOfOldestMessage metric, and the next
    /// retention expiry.
    pub fn oldest_enqueued_at(&self) -> Option<Millis> {
        self.by_age.first().map(|(t, _)| t)
    }

    /// When the next delayed or in-flight message becomes visible.
    pub fn next_visible_at(&self) -> Option<Millis> {
        self.pending.first().map(|(t, _)| t)
    }

    /// Applies every deadline up to `now`: retention expiry, then visibility.
    pub fn settle(&mut self, now: Millis, retention_ms: Millis) {
        while let Some((enqueued, seq)) = self.by_age.first() {
            if enqueued.saturating_add(retention_ms) > now {
                break;
            }
            self.remove(seq);
        }
        while let Some((at, seq)) = self.pending.first() {
            if at > now {
                break;
            }
            self.leave(seq);
            self.enter(seq, now);
        }
    }

    /// Stores a message under the next sequence number, which it returns, visible or pending by its
    /// `visible_at`.
    pub fn insert(&mut self, msg: Message, now: Millis) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.by_age.insert((msg.enqueued_at, seq));
        if let Some(group) = &msg.group_id {
            self.groups.add(group, seq);
        }
        self.msgs.insert(seq, msg);
        self.enter(seq, now);
        seq
    }

    /// The slot the next message will take.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Takes message `seq` out of the store and every index; `None` if it is already gone.
    pub fn remove(&mut self, seq: u64) -> Option<Message> {
        if !self.msgs.contains(seq) {
            return None;
        }
        self.leave(seq);
        let msg = self.msgs.remove(seq)?;
        self.by_age.remove(&(msg.enqueued_at, seq));
        if let Some(group) = &msg.group_id {
            self.groups.remove(group, seq);
            if self.fifo {
                self.refresh_group(group);
            }
        }
        Some(msg)
    }

    /// Makes a message visible at `at` (hidden until then, visible now if `at <= now`).
    pub fn set_visible_at(&mut self, seq: u64, at: Millis, now: Millis) {
        if !self.msgs.contains(seq) {
            return;
        }
        self.leave(seq);
        if let Some(m) = self.msgs.get_mut(seq) {
            m.visible_at = at;
        }
        self.enter(seq, now);
    }

    /// Takes up to `max` messages in delivery order, hiding each for `visibility_ms`.
    /// Messages `decide` dead-letters are removed and returned instead of delivered.
    pub fn receive(
        &mut self,
        now: Millis,
        max: usize,
        visibility_ms: Millis,
        decide: impl FnMut(&Message) -> Disposition,
    ) -> (Vec<u64>, Vec<(u64, Message)>) {
        self.receive_passing_over(now, max, visibility_ms, decide, || false)
    }

    /// As [`Store::receive`], but on a standard queue a visible message `pass_over` picks
    /// waits, as a noisy tenant's does, so a later one comes first (at-least-once delivery's
    /// best-effort order); what waited still fills the room left, so a receive is not empty
    /// while a message is visible.
    pub fn receive_passing_over(
        &mut self,
        now: Millis,
        max: usize,
        visibility_ms: Millis,
        mut decide: impl FnMut(&Message) -> Disposition,
        mut pass_over: impl FnMut() -> bool,
    ) -> (Vec<u64>, Vec<(u64, Message)>) {
        let mut out = Taken {
            delivered: Vec::with_capacity(max),
            dead: Vec::new(),
        };
        if self.fifo {
            self.receive_groups(now, max, visibility_ms, &mut decide, &mut out);
            return (out.delivered, out.dead);
        }
        let mut deferred = Vec::new();
        let mut cursor = None;
        while out.delivered.len() < max {
            let Some(seq) = self.ready.first_after(cursor.as_ref()) else {
                break;
            };
            cursor = Some(seq);
            if deferred.len() < FAIR_SCAN && (self.noisy(seq) || pass_over()) {
                deferred.push(seq);
            } else {
                self.take_one(seq, now, visibility_ms, &mut decide, &mut out);
            }
        }
        // Quiet tenants went first; the noisy ones' messages fill what room is left, oldest first.
        for seq in deferred {
            if out.delivered.len() >= max {
                break;
            }
            self.take_one(seq, now, visibility_ms, &mut decide, &mut out);
        }
        (out.delivered, out.dead)
    }

    /// FIFO: serves receivable groups, the one whose head became available first first, and
    /// from each its visible prefix. Groups this receive makes receivable again (visibility 0)
    /// draw tickets past `until`, so no message is returned twice by one receive.
    fn receive_groups(
        &mut self,
        now: Millis,
        max: usize,
        visibility_ms: Millis,
        decide: &mut impl FnMut(&Message) -> Disposition,
        out: &mut Taken,
    ) {
        let until = self.groups.mark();
        let mut from = 0;
        while out.delivered.len() < max {
            let Some((ticket, group)) = self.groups.next_receivable(from, until) else {
                break;
            };
            from = ticket + 1;
            let mut next = self.groups.head(&group);
            while let Some(seq) = next {
                if out.delivered.len() >= max || self.msgs[&seq].visible_at > now {
                    break;
                }
                self.take_one(seq, now, visibility_ms, decide, out);
                next = self.groups.next(&group, seq);
            }
        }
    }

    /// Fair queues: on a standard queue, a tenant (MessageGroupId) holding more than 10% of
    /// the in-flight messages and at least 30 of its own yields to quieter tenants.
    fn noisy(&self, seq: u64) -> bool {
        if self.groups.is_empty() || self.in_flight < NOISY_MIN {
            return false;
        }
        let Some(group) = self.msgs[&seq].group_id.as_ref() else {
            return false;
        };
        let held = self.groups.get(group).map_or(0, |g| g.in_flight as usize);
        held >= NOISY_MIN && held * 10 > self.in_flight
    }

    /// Delivers message `seq` or, if `decide` says so, takes it out for the dead-letter queue.
    fn take_one(
        &mut self,
        seq: u64,
        now: Millis,
        visibility_ms: Millis,
        decide: &mut impl FnMut(&Message) -> Disposition,
        out: &mut Taken,
    ) {
        if decide(&self.msgs[&seq]) == Disposition::DeadLetter {
            out.dead.extend(self.remove(seq).map(|m| (seq, m)));
            return;
        }
        self.leave(seq);
        let mut group = None;
        if let Some(m) = self.msgs.get_mut(seq) {
            m.mark_received(now);
            m.visible_at = now.saturating_add(visibility_ms);
            group = m.group_id.clone().filter(|_| self.fifo);
        }
        if let Some(group) = group {
            // A group just received goes to the back, even when it stays receivable.
            self.groups.set_receivable(&group, false);
        }
        self.enter(seq, now);
        out.delivered.push(seq);
    }

    /// Empties the store (PurgeQueue); sequence numbers go on from where they were, so old receipt
    /// handles stay dead.
    pub fn clear(&mut self) {
        let fifo = self.fifo;
        let next_seq = self.next_seq;
        *self = Store::new(fifo);
        self.next_seq = next_seq;
    }

    /// Takes a message out of every index and counter that reflects its visibility.
    fn leave(&mut self, seq: u64) {
        let msg = &self.msgs[&seq];
        if self.pending.remove(&(msg.visible_at, seq)) {
            if msg.receive_count > 0 {
                self.in_flight -= 1;
                if let Some(g) = msg.group_id.as_ref().and_then(|g| self.groups.get_mut(g)) {
                    g.in_flight -= 1;
                }
            } else {
                self.delayed -= 1;
            }
        } else {
            self.ready.remove(&seq);
        }
    }

    /// Files a message under its current `visible_at`.
    fn enter(&mut self, seq: u64, now: Millis) {
        let msg = &self.msgs[&seq];
        if msg.visible_at > now {
            self.pending.insert((msg.visible_at, seq));
            if msg.receive_count > 0 {
                self.in_flight += 1;
                if let Some(g) = msg.group_id.as_ref().and_then(|g| self.groups.get_mut(g)) {
                    g.in_flight += 1;
                }
            } else {
                self.delayed += 1;
            }
        } else if !self.fifo {
            self.ready.insert(seq);
        }
        if self.fifo {
            if let Some(group) = msg.group_id.clone() {
                self.refresh_group(&group);
            }
        }
    }

    /// A FIFO group is receivable while its head is visible.
    fn refresh_group(&mut self, group: &str) {
        let receivable = self.groups.head(group).is_some_and(|head| {
            let msg = &self.msgs[&head];
            !self.pending.contains(&(msg.visible_at, head))
        });
        self.groups.set_receivable(group, receivable);
    }

    /// How many FIFO groups have a message to receive right now.
    pub fn receivable_groups(&self) -> usize {
        self.groups.receivable_count()
    }
}

/// What one receive took: messages delivered, and messages dead-lettered on the way.
struct Taken {
    /// Sequence numbers delivered, in order.
    delivered: Vec<u64>,
    /// Messages taken out for the dead-letter queue.
    dead: Vec<(u64, Message)>,
}

#[cfg(test)]
mod tests;
