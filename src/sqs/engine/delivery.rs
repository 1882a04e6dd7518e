//! Receiving: in-flight limits, ReceiveRequestAttemptId replays, and dead-lettering at receive
//! time; plus the two ways a message enters a queue from another (dead letter, redrive).

use std::sync::{Arc, MutexGuard};

use crate::clock::Millis;
use crate::sqs::engine::fifo;
use crate::sqs::engine::message::{Extra, Message};
use crate::sqs::engine::queue::{Queue, QueueState};
use crate::sqs::engine::receipt::ReceiptHandle;
use crate::sqs::engine::store::Disposition;
use crate::sqs::engine::{lock_pair, Registry};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

pub use crate::sqs::engine::limits::MAX_IN_FLIGHT;

/// What one receive asks for, already checked against SQS's ranges.
#[derive(Debug, Clone, Default)]
pub struct ReceiveParams {
    /// MaxNumberOfMessages: 1 to 10, already checked.
    pub max: usize,
    /// VisibilityTimeout in seconds; the queue's when `None`.
    pub visibility_timeout: Option<u32>,
    /// ReceiveRequestAttemptId (FIFO): a retry within 5 minutes gets the same messages.
    pub attempt_id: Option<String>,
    /// A short poll on a standard queue answers OverLimit when too much is in flight.
    pub short_poll: bool,
}

/// A delivered message: a copy of it as it stands after this receive, and its new handle.
#[derive(Debug, Clone)]
pub struct Delivered {
    /// The message after this receive (count and timestamps updated).
    pub message: Message,
    /// The handle this receive issued, sealed with the server's key.
    pub receipt_handle: String,
    /// SequenceNumber, on FIFO queues.
    pub sequence_number: Option<String>,
}

/// What one receive pass did, all read under the lock it held.
#[derive(Debug, Default)]
pub struct Pass {
    /// What the pass delivered, in delivery order.
    pub delivered: Vec<Delivered>,
    /// When nothing was delivered: the next visibility, delay or retention deadline, when a
    /// message may become receivable without a request.
    pub next_change: Option<Millis>,
}

impl Pass {
    /// Whether the pass delivered nothing.
    pub fn is_empty(&self) -> bool {
        self.delivered.is_empty()
    }
}

impl QueueState {
    /// Ends a receive pass under the lock it took: an empty last pass is an empty receive
    /// (NumberOfEmptyReceives), and an empty pass learns when to look again.
    pub(crate) fn finish_pass(&mut self, delivered: Vec<Delivered>, last: bool) -> Pass {
        let next_change = if delivered.is_empty() {
            if last {
                self.stats.empty_receives += 1;
            }
            self.next_change()
        } else {
            None
        };
        Pass {
            delivered,
            next_change,
        }
    }

    /// Receives under this queue's lock; messages `decide` dead-letters come back separately
    /// for the caller to put into the dead-letter queue under the same critical section.
    pub(crate) fn receive(
        &mut self,
        q: &Queue,
        p: &ReceiveParams,
        now: Millis,
        decide: impl FnMut(&Message) -> Disposition,
    ) -> SqsResult<(Vec<Delivered>, Vec<Message>)> {
        if let Some(replayed) = self.replay(q, p, now) {
            return Ok((replayed, Vec::new()));
        }
        let slots = MAX_IN_FLIGHT.saturating_sub(self.store().in_flight());
        if slots == 0 {
            if !q.fifo && p.short_poll {
                return Err(SqsError::new(
                    ErrorKind::OverLimit,
                    format!("You have reached the maximum number of in flight messages ({MAX_IN_FLIGHT}) for this queue."),
                ));
            }
            return Ok((Vec::new(), Vec::new()));
        }
        let visibility = p
            .visibility_timeout
            .unwrap_or(self.attributes().visibility_timeout);
        let (ledger, dice) = self.ledger_and_dice();
        let window = (p.max.min(slots), Millis::from(visibility) * 1000);
        let (seqs, dead) = ledger.receive(now, window, decide, dice);
        self.stats.received += seqs.len() as u64;
        self.stats.dead_lettered += dead.len() as u64;
        let delivered: Vec<Delivered> = seqs.iter().map(|s| self.delivered(q, *s)).collect();
        if let (true, Some(id)) = (q.fifo, &p.attempt_id) {
            let record: Vec<(u64, u32)> = seqs
                .iter()
                .map(|s| (*s, self.store().get(*s).map_or(0, |m| m.receive_count)))
                .collect();
            self.ledger().remember_attempt(id, record, now);
        }
        Ok((delivered, dead))
    }

    /// A retried FIFO receive gets the same messages and handles while they are still hidden.
    fn replay(&mut self, q: &Queue, p: &ReceiveParams, now: Millis) -> Option<Vec<Delivered>> {
        if !q.fifo {
            return None;
        }
        let previous = self.ledger().attempt(p.attempt_id.as_deref()?, now)?;
        let still_held = previous.iter().all(|(seq, receive)| {
            self.store()
                .get(*seq)
                .is_some_and(|m| m.receive_count == *receive && m.in_flight(now))
        });
        (still_held && !previous.is_empty()).then(|| {
            previous
                .iter()
                .map(|(s, _)| self.delivered(q, *s))
                .collect()
        })
    }

    /// The answer for message `seq`: a copy, its new handle and its SequenceNumber.
    fn delivered(&self, q: &Queue, seq: u64) -> Delivered {
        let message =
            self.store().get(seq).cloned().unwrap_or_else(|| {
                unreachable!("a message delivered under the lock is still stored")
            });
        Delivered {
            receipt_handle: ReceiptHandle {
                queue_uid: q.uid,
                seq,
                receive: message.receive_count,
            }
            .encode(&q.receipts),
            sequence_number: q.fifo.then(|| fifo::sequence_number(message.sequence)),
            message,
        }
    }

    /// Files a message dead-lettered from `source_arn`: same id, body, attributes and receive
    /// count; a standard DLQ keeps its enqueue time so retention still counts from the send.
    pub(crate) fn accept_dead_letter(
        &mut self,
        target: &Queue,
        mut msg: Message,
        source_arn: &str,
        now: Millis,
    ) {
        msg.extra
            .get_or_insert_with(Box::<Extra>::default)
            .dead_letter_source_arn = Some(Arc::from(source_arn));
        self.file_moved(target, msg, now);
    }

    /// Files a message redriven by a move task: it starts over, as a new send would.
    pub(crate) fn accept_redriven(&mut self, target: &Queue, mut msg: Message, now: Millis) {
        if let Some(extra) = msg.extra.as_mut() {
            extra.dead_letter_source_arn = None;
        }
        msg.receive_count = 0;
        msg.first_received_at = None;
        msg.last_receive_offset = 0;
        msg.enqueued_at = now;
        msg.sent_at = now;
        self.file_moved(target, msg, now);
    }

    /// Stores a message moved into `target`, visible at once.
    fn file_moved(&mut self, target: &Queue, mut msg: Message, now: Millis) {
        msg.visible_at = now;
        if target.fifo {
            // The ledger gives it the target's next sequence number.
            msg.enqueued_at = now;
        }
        self.stats.sent += 1;
        self.ledger().put(msg, now);
    }
}

/// The registry's receive pass: beside the deliveries it makes, at the registry because a
/// queue with a dead-letter queue needs a second queue only the registry can find.
impl Registry {
    /// One receive attempt (no waiting) under one hold of the queue's lock: what was delivered
    /// and, when nothing was, the next deadline a parked poll should wake at; `last` says no
    /// pass follows, so an empty one counts as an empty receive. With a dead-letter queue the
    /// lock is taken to read the policy, then with the dead-letter queue's in order: messages
    /// past their maxReceiveCount move under both, so no caller sees them in both or neither.
    pub fn receive_pass(
        &self,
        q: &Queue,
        p: &ReceiveParams,
        last: bool,
        now: Millis,
    ) -> SqsResult<Pass> {
        let pass = self.pass(q, p, last, now)?;
        if let Some(most) = pass.delivered.iter().map(|d| d.message.receive_count).max() {
            q.note_receive_count(most);
        }
        Ok(pass)
    }

    /// [`Registry::receive_pass`] without the receive-count bookkeeping.
    fn pass(&self, q: &Queue, p: &ReceiveParams, last: bool, now: Millis) -> SqsResult<Pass> {
        let deliver = |mut state: MutexGuard<'_, QueueState>| {
            let delivered = state.receive(q, p, now, |_| Disposition::Deliver)?.0;
            Ok(state.finish_pass(delivered, last))
        };
        let state = q.lock_settled_mut(now);
        let Some(policy) = state.attributes().redrive_policy.clone() else {
            return deliver(state);
        };
        drop(state);
        let dlq = self.dead_letter_target(q, &policy.dead_letter_target_arn);
        let Some(dlq) = dlq else {
            return deliver(q.lock_settled_mut(now));
        };
        let source_arn = q.arn();
        let (pass, moved) = {
            let (mut source, mut target) = lock_pair(q, &dlq, now);
            let (delivered, dead) = source.receive(q, p, now, |m| {
                if m.receive_count >= policy.max_receive_count {
                    Disposition::DeadLetter
                } else {
                    Disposition::Deliver
                }
            })?;
            let moved = dead.len();
            for msg in dead {
                target.accept_dead_letter(&dlq, msg, &source_arn, now);
            }
            (source.finish_pass(delivered, last), moved)
        };
        for _ in 0..moved {
            dlq.wake_one();
        }
        Ok(pass)
    }
}
