//! A queue's state of record (its messages, FIFO deduplication window, receive attempts,
//! sequence counter and last purge) behind the only methods that may change it: each one
//! reports its change as a [`Mutation`] to the queue's journal under the queue's lock, so a
//! change without its record cannot be written (DESIGN.md rule 10). The fields are private to
//! this file; the rest of the engine reads them through the accessors.
//!
//! Two kinds of change carry no record, on purpose: what follows from time alone (settling
//! expired messages and elapsed visibility, forgetting deduplication ids and attempts past
//! their window), which recovery derives again from the absolute instants the records hold;
//! and [`Ledger::replay`], which applies a record read back from the log.

use std::sync::Arc;

use crate::clock::Millis;
use crate::sqs::engine::at_least_once::Dice;
use crate::sqs::engine::attributes::DeduplicationScope;
use crate::sqs::engine::fifo::{Attempts, Dedup, Original};
use crate::sqs::engine::message::Message;
use crate::sqs::engine::mutation::{self, Attempt, Delivery, Journal, Mutation, Record};
use crate::sqs::engine::store::{Disposition, Store};

/// See the module docs.
#[derive(Debug)]
pub struct Ledger {
    /// The queue's uid, which every record names.
    uid: u64,
    /// Whether the queue is FIFO: a FIFO put takes the next sequence number.
    fifo: bool,
    /// Told of every change (`--data-dir`); `None` in memory.
    journal: Option<Arc<dyn Journal>>,
    /// The messages and their indexes.
    store: Store,
    /// FIFO deduplication ids of the last five minutes.
    dedup: Dedup,
    /// FIFO ReceiveRequestAttemptIds of the last five minutes.
    attempts: Attempts,
    /// The last FIFO sequence number handed out.
    fifo_counter: u64,
    /// The latest PurgeQueue, for the 60-second guard.
    last_purge: Option<Millis>,
}

impl Ledger {
    /// An empty ledger for queue `uid`, reporting to `journal`.
    pub(super) fn new(uid: u64, fifo: bool, journal: Option<Arc<dyn Journal>>) -> Self {
        Ledger {
            uid,
            fifo,
            journal,
            store: Store::new(fifo),
            dedup: Dedup::default(),
            attempts: Attempts::default(),
            fifo_counter: 0,
            last_purge: None,
        }
    }

    /// Reports one change to the journal, if there is one.
    #[inline]
    fn record(&self, m: &Mutation<'_>) {
        if let Some(j) = &self.journal {
            j.record(m);
        }
    }

    /// The messages, for reading.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The FIFO deduplication window, for reading (snapshots).
    pub fn dedup(&self) -> &Dedup {
        &self.dedup
    }

    /// The FIFO receive attempts, for reading (snapshots).
    pub fn attempts(&self) -> &Attempts {
        &self.attempts
    }

    /// The last FIFO sequence number handed out.
    pub fn fifo_counter(&self) -> u64 {
        self.fifo_counter
    }

    /// When the queue was last purged.
    pub fn last_purge(&self) -> Option<Millis> {
        self.last_purge
    }

    /// Applies the deadlines up to `now` (not recorded: derived from time).
    pub(crate) fn settle(&mut self, now: Millis, retention_ms: Millis) {
        self.store.settle(now, retention_ms);
    }

    /// The original send `id` duplicates in `group`; forgets ids past their window.
    pub(crate) fn duplicate_of(
        &mut self,
        group: &str,
        id: &str,
        scope: DeduplicationScope,
        now: Millis,
    ) -> Option<Original> {
        self.dedup.check(group, id, scope, now)
    }

    /// What an earlier receive with attempt `id` delivered, while its window lasts.
    pub(crate) fn attempt(&mut self, id: &str, now: Millis) -> Option<Vec<(u64, u32)>> {
        self.attempts.get(id, now)
    }

    /// Stores `msg` and records it whole; a FIFO message takes the next sequence number.
    /// Returns its slot and sequence number (0 on standard queues).
    pub(crate) fn put(&mut self, mut msg: Message, now: Millis) -> (u64, u64) {
        if self.fifo {
            self.fifo_counter += 1;
            msg.sequence = self.fifo_counter;
        }
        let sequence = msg.sequence;
        let seq = self.store.insert(msg, now);
        if let (Some(j), Some(message)) = (&self.journal, self.store.get(seq)) {
            j.record(&Mutation::Put {
                queue: self.uid,
                seq,
                fifo_counter: self.fifo_counter,
                message,
            });
        }
        (seq, sequence)
    }

    /// Opens the deduplication window for a FIFO send.
    pub(crate) fn remember(&mut self, group: &str, id: String, original: Original, now: Millis) {
        self.record(&Mutation::Dedup(mutation::Dedup {
            queue: self.uid,
            group,
            id: &id,
            message_id: original.id,
            sequence: original.sequence,
            at: now,
        }));
        self.dedup.record(group, id, original, now);
    }

    /// Takes a message out (deleted, dead-lettered, redriven away).
    pub(crate) fn remove(&mut self, seq: u64) -> Option<Message> {
        let msg = self.store.remove(seq)?;
        self.record(&Mutation::Removed {
            queue: self.uid,
            seq,
        });
        Some(msg)
    }

    /// Hides or shows a message until `at` (ChangeMessageVisibility).
    pub(crate) fn set_visible_at(&mut self, seq: u64, at: Millis, now: Millis) {
        self.store.set_visible_at(seq, at, now);
        self.record_delivery(seq);
    }

    /// Records message `seq`'s delivery state as it now stands.
    fn record_delivery(&self, seq: u64) {
        let Some(j) = &self.journal else { return };
        let Some(m) = self.store.get(seq) else { return };
        j.record(&Mutation::Delivery(Delivery {
            queue: self.uid,
            seq,
            receive_count: m.receive_count,
            first_received_at: m.first_received_at,
            last_receive_offset: m.last_receive_offset,
            visible_at: m.visible_at,
        }));
    }

    /// Receives up to `max` messages (see [`Store::receive`]): the delivered ones' new
    /// delivery state and the dead-lettered ones' removal are recorded. With at-least-once
    /// `dice`, a visible message may be passed over, so a later one comes first, and a
    /// visibility may end early, so a message comes back while its receiver still holds it.
    pub(crate) fn receive(
        &mut self,
        now: Millis,
        (max, visibility_ms): (usize, Millis),
        decide: impl FnMut(&Message) -> Disposition,
        dice: Option<&mut Dice>,
    ) -> (Vec<u64>, Vec<Message>) {
        let Some(dice) = dice else {
            let taken = self.store.receive(now, max, visibility_ms, decide);
            return self.record_received(taken);
        };
        let taken = self
            .store
            .receive_passing_over(now, max, visibility_ms, decide, || dice.pass_over());
        for seq in &taken.0 {
            if let Some(lasts) = dice.early_end(visibility_ms) {
                self.store
                    .set_visible_at(*seq, now.saturating_add(lasts), now);
            }
        }
        self.record_received(taken)
    }

    /// Records what a receive did: the delivered messages' new delivery state, the
    /// dead-lettered ones' removal.
    fn record_received(
        &mut self,
        (seqs, dead): (Vec<u64>, Vec<(u64, Message)>),
    ) -> (Vec<u64>, Vec<Message>) {
        let dead = dead
            .into_iter()
            .map(|(seq, msg)| {
                self.record(&Mutation::Removed {
                    queue: self.uid,
                    seq,
                });
                msg
            })
            .collect();
        for seq in &seqs {
            self.record_delivery(*seq);
        }
        (seqs, dead)
    }

    /// Remembers what a FIFO receive with attempt `id` delivered, for its retries.
    pub(crate) fn remember_attempt(&mut self, id: &str, delivered: Vec<(u64, u32)>, now: Millis) {
        self.record(&Mutation::Attempt(Attempt {
            queue: self.uid,
            id,
            delivered: &delivered,
            at: now,
        }));
        self.attempts.record(id.to_owned(), delivered, now);
    }

    /// Every message and deduplication id goes (SQS forgets the ids too: a message resent
    /// after a purge is new).
    pub(crate) fn purge(&mut self, at: Millis) {
        self.store.clear();
        self.dedup.clear();
        self.last_purge = Some(at);
        self.record(&Mutation::Purged {
            queue: self.uid,
            at,
        });
    }

    /// Recovery: applies a record of this queue read back from the log (never re-recorded).
    /// Records of the registry (queues, uids, move tasks) are not the ledger's and are ignored.
    pub(crate) fn replay(&mut self, record: Record, now: Millis) {
        match record {
            Record::Put {
                seq,
                fifo_counter,
                message,
                ..
            } => {
                self.store.restore(seq, message, now);
                self.fifo_counter = fifo_counter;
            }
            Record::Delivery(d) => self.store.set_delivery(&d, now),
            Record::Removed { seq, .. } => {
                self.store.remove(seq);
            }
            Record::Purged { at, .. } => {
                self.store.clear();
                self.dedup.clear();
                self.last_purge = Some(at);
            }
            Record::Dedup {
                group,
                id,
                message_id,
                sequence,
                at,
                ..
            } => {
                let original = Original {
                    id: message_id,
                    sequence,
                };
                self.dedup.record(&group, id, original, at);
            }
            Record::Attempt {
                id, delivered, at, ..
            } => self.attempts.record(id, delivered, at),
            Record::Queue(_)
            | Record::QueueDeleted { .. }
            | Record::NextUid(_)
            | Record::MoveTask(_)
            | Record::MoveTasksCleared => {}
        }
    }

    /// Recovery: the counters a queue record carries, never lowered.
    pub(super) fn restore_counters(
        &mut self,
        next_seq: u64,
        fifo_counter: u64,
        last_purge: Option<Millis>,
    ) {
        self.store.raise_next_seq(next_seq);
        self.fifo_counter = self.fifo_counter.max(fifo_counter);
        self.last_purge = last_purge;
    }
}
