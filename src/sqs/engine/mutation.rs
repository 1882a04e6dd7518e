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
use crate::sqs::engine::arn::QueueKey;
use crate::sqs::engine::message::Message;
use crate::sqs::engine::move_task::MoveTask;

/// One change, borrowing from the engine state it describes.
#[derive(Debug)]
pub enum Mutation<'a> {
    /// A queue and everything about it but its messages (created, attributes, tags, policy,
    /// purge time, counters): replaces what was there.
    Queue(QueueMeta),
    /// The queue `uid` named `key` was deleted at `at`.
    QueueDeleted {
        /// The deleted queue's uid.
        uid: u64,
        /// Its region, account and name.
        key: QueueKey,
        /// When, on the server's clock (for the 60-second reuse guard).
        at: Millis,
    },
    /// A message stored under `seq`, whole (sent, dead-lettered or redriven into the queue).
    Put {
        /// The queue's uid.
        queue: u64,
        /// The message's sequence number in it.
        seq: u64,
        /// The queue's FIFO sequence counter after this put.
        fifo_counter: u64,
        /// The message, whole.
        message: &'a Message,
    },
    /// A message's delivery state after a receive or a visibility change.
    Delivery(Delivery),
    /// A message left the queue (deleted, dead-lettered, redriven away).
    Removed {
        /// The queue's uid.
        queue: u64,
        /// The message's sequence number.
        seq: u64,
    },
    /// Every message and deduplication id of the queue is gone.
    Purged {
        /// The queue's uid.
        queue: u64,
        /// When, for the 60-second purge guard.
        at: Millis,
    },
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
    /// The queue's uid, unique per queue ever created.
    pub uid: u64,
    /// Its region, account and name.
    pub key: QueueKey,
    /// CreatedTimestamp.
    pub created_at: Millis,
    /// The stored attributes in SQS's string form, as GetQueueAttributes renders them.
    pub attributes: Vec<(String, String)>,
    /// The queue's tags.
    pub tags: BTreeMap<String, String>,
    /// LastModifiedTimestamp.
    pub last_modified: Millis,
    /// The latest PurgeQueue, for the 60-second guard.
    pub last_purge: Option<Millis>,
    /// The next message slot: never reused, so old receipt handles never name a new message.
    pub next_seq: u64,
    /// The last FIFO sequence number handed out.
    pub fifo_counter: u64,
}

/// A message's delivery state, as a receive or a visibility change left it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    /// The queue's uid.
    pub queue: u64,
    /// The message's sequence number.
    pub seq: u64,
    /// ApproximateReceiveCount.
    pub receive_count: u32,
    /// ApproximateFirstReceiveTimestamp, once received.
    pub first_received_at: Option<Millis>,
    /// Milliseconds from the first receive to the latest one.
    pub last_receive_offset: u32,
    /// When it can next be received.
    pub visible_at: Millis,
}

/// A FIFO send's deduplication id, remembered for five minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dedup<'a> {
    /// The queue's uid.
    pub queue: u64,
    /// The MessageGroupId (the window's key with the messageGroup scope).
    pub group: &'a str,
    /// The MessageDeduplicationId, given or computed.
    pub id: &'a str,
    /// The first send's MessageId, answered again to duplicates.
    pub message_id: Uuid,
    /// The first send's sequence number.
    pub sequence: u64,
    /// When it was sent; the window closes five minutes later.
    pub at: Millis,
}

/// A FIFO receive's ReceiveRequestAttemptId and what it delivered, for its retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt<'a> {
    /// The queue's uid.
    pub queue: u64,
    /// The ReceiveRequestAttemptId.
    pub id: &'a str,
    /// `(seq, receive count)` of each message it delivered.
    pub delivered: &'a [(u64, u32)],
    /// When it was received; retries within five minutes get the same messages.
    pub at: Millis,
}

/// An owned mutation, as read back from storage.
#[derive(Debug)]
pub enum Record {
    /// As [`Mutation::Queue`].
    Queue(QueueMeta),
    /// As [`Mutation::QueueDeleted`].
    QueueDeleted {
        /// The deleted queue's uid.
        uid: u64,
        /// Its region, account and name.
        key: QueueKey,
        /// When, on the server's clock.
        at: Millis,
    },
    /// As [`Mutation::Put`], the message owned.
    Put {
        /// The queue's uid.
        queue: u64,
        /// The message's sequence number in it.
        seq: u64,
        /// The queue's FIFO sequence counter after this put.
        fifo_counter: u64,
        /// The message, whole.
        message: Message,
    },
    /// As [`Mutation::Delivery`].
    Delivery(Delivery),
    /// As [`Mutation::Removed`].
    Removed {
        /// The queue's uid.
        queue: u64,
        /// The message's sequence number.
        seq: u64,
    },
    /// As [`Mutation::Purged`].
    Purged {
        /// The queue's uid.
        queue: u64,
        /// When, for the 60-second purge guard.
        at: Millis,
    },
    /// As [`Mutation::Dedup`], owned.
    Dedup {
        /// The queue's uid.
        queue: u64,
        /// The MessageGroupId.
        group: String,
        /// The MessageDeduplicationId.
        id: String,
        /// The first send's MessageId.
        message_id: Uuid,
        /// The first send's sequence number.
        sequence: u64,
        /// When it was sent.
        at: Millis,
    },
    /// As [`Mutation::NextUid`].
    NextUid(u64),
    /// As [`Mutation::Attempt`], owned.
    Attempt {
        /// The queue's uid.
        queue: u64,
        /// The ReceiveRequestAttemptId.
        id: String,
        /// `(seq, receive count)` of each message it delivered.
        delivered: Vec<(u64, u32)>,
        /// When it was received.
        at: Millis,
    },
    /// As [`Mutation::MoveTask`], owned.
    MoveTask(MoveTask),
    /// As [`Mutation::MoveTasksCleared`].
    MoveTasksCleared,
}

/// Observes every mutation, in the order they were made to each queue. Called under the
/// queue's lock: it must be quick and must not call back into the engine.
pub trait Journal: Send + Sync + Debug {
    /// Takes one change, before the operation that made it returns.
    fn record(&self, mutation: &Mutation<'_>);
}
