//! Every change of engine state as plain data (DESIGN.md rule 10). The engine reports each
//! one, under the lock that made it, to the [`Journal`] it was given; the durable log is one
//! such observer, and recovery applies the same records back ([`super::replay`]).
//!
//! Every record is an absolute assignment ("message 7 of queue 3 now has receive count 2 and
//! is hidden until T"), never an increment, so replaying a record over a state that already
//! contains it changes nothing: a snapshot taken while requests go on stays consistent with
//! the log that follows it.

use std::collections::BTreeMap;
use std::fmt::Debug;

use uuid::Uuid;

use crate::clock::Millis;
use crate::engine::arn::QueueKey;
use crate::engine::message::Message;
use crate::engine::move_task::MoveTask;

/// One change, borrowing from the engine state it describes.
#[derive(Debug)]
pub enum Mutation<'a> {
    /// A queue and everything about it but its messages (created, attributes, tags, policy,
    /// purge time, counters): replaces what was there.
    Queue(QueueMeta),
    /// The queue `uid` named `key` was deleted at `at`.
    QueueDeleted { uid: u64, key: QueueKey, at: Millis },
    /// A message stored under `seq`, whole (sent, dead-lettered or redriven into the queue).
    Put {
        queue: u64,
        seq: u64,
        fifo_counter: u64,
        message: &'a Message,
    },
    /// A message's delivery state after a receive or a visibility change.
    Delivery(Delivery),
    /// A message left the queue (deleted, dead-lettered, redriven away).
    Removed { queue: u64, seq: u64 },
    /// Every message and deduplication id of the queue is gone.
    Purged { queue: u64, at: Millis },
    /// A FIFO send remembered for the deduplication window.
    Dedup(Dedup<'a>),
    /// Queue uids are never reused, even after restarts: old receipt handles stay dead.
    NextUid(u64),
    /// A FIFO receive with a ReceiveRequestAttemptId and what it delivered, for retries.
    Attempt(Attempt<'a>),
    /// A message move task as it now stands (started, moved more, cancelled, finished).
    MoveTask(&'a MoveTask),
    /// Every move task was forgotten (the admin API's reset).
    MoveTasksCleared,
}

/// A queue's identity and settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueMeta {
    pub uid: u64,
    pub key: QueueKey,
    pub created_at: Millis,
    /// The stored attributes in SQS's string form, as GetQueueAttributes renders them.
    pub attributes: Vec<(String, String)>,
    pub tags: BTreeMap<String, String>,
    pub last_modified: Millis,
    pub last_purge: Option<Millis>,
    /// The next message slot: never reused, so old receipt handles never name a new message.
    pub next_seq: u64,
    pub fifo_counter: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    pub queue: u64,
    pub seq: u64,
    pub receive_count: u32,
    pub first_received_at: Option<Millis>,
    /// Milliseconds from the first receive to the latest one.
    pub last_receive_offset: u32,
    pub visible_at: Millis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dedup<'a> {
    pub queue: u64,
    pub group: &'a str,
    pub id: &'a str,
    pub message_id: Uuid,
    pub sequence: u64,
    pub at: Millis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt<'a> {
    pub queue: u64,
    pub id: &'a str,
    /// `(seq, receive count)` of each message it delivered.
    pub delivered: &'a [(u64, u32)],
    pub at: Millis,
}

/// An owned mutation, as read back from storage.
#[derive(Debug)]
pub enum Record {
    Queue(QueueMeta),
    QueueDeleted {
        uid: u64,
        key: QueueKey,
        at: Millis,
    },
    Put {
        queue: u64,
        seq: u64,
        fifo_counter: u64,
        message: Message,
    },
    Delivery(Delivery),
    Removed {
        queue: u64,
        seq: u64,
    },
    Purged {
        queue: u64,
        at: Millis,
    },
    Dedup {
        queue: u64,
        group: String,
        id: String,
        message_id: Uuid,
        sequence: u64,
        at: Millis,
    },
    NextUid(u64),
    Attempt {
        queue: u64,
        id: String,
        delivered: Vec<(u64, u32)>,
        at: Millis,
    },
    MoveTask(MoveTask),
    MoveTasksCleared,
}

/// Observes every mutation, in the order they were made to each queue. Called under the
/// queue's lock: it must be quick and must not call back into the engine.
pub trait Journal: Send + Sync + Debug {
    fn record(&self, mutation: &Mutation<'_>);
}
