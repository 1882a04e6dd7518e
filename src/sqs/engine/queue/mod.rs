//! One queue: its identity, its attributes and messages behind one short-held lock, and the
//! operations that change them (send, delete, change visibility, purge, set attributes);
//! what the locked state does itself (settle, resolve a handle, delete or change visibility
//! by it) is in `queue/state.rs`.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rustc_hash::FxBuildHasher;
use tokio::sync::Notify;

use crate::clock::Millis;
use crate::policy::Policy;
use crate::sqs::engine::arn::QueueKey;
use crate::sqs::engine::at_least_once::{Dice, Mode};
use crate::sqs::engine::attributes::{DeduplicationScope, QueueAttributes};
use crate::sqs::engine::message::NewMessage;
use crate::sqs::engine::mutation::{Journal, Mutation, QueueMeta};
use crate::sqs::engine::processing::Processing;
use crate::sqs::engine::receipt::ReceiptKey;
use crate::sqs::engine::send::Prepared;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

mod ledger;
mod loose;
mod observe;
mod policy;
mod state;
mod visibility;

pub use state::{Depth, Sent};

pub use ledger::Ledger;
pub use observe::Observation;
pub(super) use visibility::Asked;

/// The stored record's name for [`Queue::dedup_scope`]: not an SQS attribute name (those have
/// no `:`), so it never reaches GetQueueAttributes or SetQueueAttributes' checks.
pub(crate) const CREATED_DEDUPLICATION_SCOPE: &str = "sqslite:CreatedDeduplicationScope";

/// A queue. `notify` is the one tokio type in the engine: long-poll waiters park on it.
#[derive(Debug)]
pub struct Queue {
    /// Region, account and name.
    pub key: QueueKey,
    /// Unique per queue ever created, so handles of a deleted queue never work on a new one.
    pub uid: u64,
    /// FifoQueue, fixed at creation.
    pub fifo: bool,
    /// The DeduplicationScope the queue was created with: SQS keeps deduplicating by it even
    /// after SetQueueAttributes changes the attribute, which GetQueueAttributes reports at once
    /// [aws-recorded, both directions].
    pub(crate) dedup_scope: DeduplicationScope,
    /// CreatedTimestamp, on the server's clock.
    pub created_at: Millis,
    /// The server's receipt-handle key: handles this queue issues and accepts are sealed by it.
    pub(crate) receipts: Arc<ReceiptKey>,
    /// Told of every change to this queue, under its lock (`--data-dir`).
    journal: Option<Arc<dyn Journal>>,
    /// Set once by DeleteQueue, so holders of the `Arc` see it is gone.
    deleted: AtomicBool,
    /// At least the highest receive count of any stored message (the `receive_count` alarm
    /// scans the messages only when this reaches its threshold).
    receive_high_water: AtomicU32,
    /// Everything that changes, behind one short-held lock.
    state: Mutex<QueueState>,
    /// Where long polls park; a send wakes one, a deletion all.
    pub notify: Notify,
    /// Long polls parked on `notify` right now (a gauge; tests wait on it instead of sleeping).
    waiting: AtomicUsize,
    /// Whether it delivers at least once, read without the lock (`queue/loose.rs`).
    loose: AtomicBool,
}

/// Counts one parked long poll for as long as it lives.
pub struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Counters for metrics and alarms; they only ever grow.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    /// Messages sent (NumberOfMessagesSent).
    pub sent: u64,
    /// Their body bytes (SentMessageSize).
    pub sent_bytes: u64,
    /// Messages received (NumberOfMessagesReceived).
    pub received: u64,
    /// Messages deleted (NumberOfMessagesDeleted).
    pub deleted: u64,
    /// Receives that returned nothing (NumberOfEmptyReceives).
    pub empty_receives: u64,
    /// Messages moved to the dead-letter queue.
    pub dead_lettered: u64,
    /// The latest successful delete, for the stall alarm.
    pub last_delete_at: Option<Millis>,
}

/// What a queue's lock guards. The state of record changes only through recording methods:
/// the messages and FIFO windows through [`Ledger`]'s, the settings (attributes, tags, last
/// modified) only inside `Queue::edit`, which records the queue's settings whole; both
/// kinds of field are private to this module. `stats`, `processing` and `senders` are
/// observations and a cache, and `dice` and `own_delivery` a setting of the running server
/// (at-least-once delivery), not state of record: they are not journaled, and start empty
/// (or from the configuration) after a restart.
#[derive(Debug)]
pub struct QueueState {
    /// The settable attributes, typed.
    attributes: QueueAttributes,
    /// The queue's tags (50 at most).
    tags: BTreeMap<String, String>,
    /// LastModifiedTimestamp.
    last_modified: Millis,
    /// Messages, FIFO windows and counters, whose every change is recorded.
    ledger: Ledger,
    /// Counters for metrics and alarms.
    pub(crate) stats: Stats,
    /// Observed receive-to-delete and receive-to-extension times, for the advisor; boxed on
    /// the first sample (read through [`QueueState::processing`]).
    processing: Option<Box<Processing>>,
    /// Senders seen, so each stored message points at one shared copy of its SenderId.
    pub(crate) senders: HashSet<Arc<str>, FxBuildHasher>,
    /// At-least-once delivery's dice, when the mode is on (`queue/loose.rs`); `None`, the
    /// default, delivers exactly.
    dice: Option<Box<Dice>>,
    /// The queue's own delivery mode, when it has one rather than the server's.
    own_delivery: Option<Mode>,
}

/// A queue's state locked for reading: it derefs to the state, never mutably.
pub struct StateRef<'a>(MutexGuard<'a, QueueState>);

impl std::ops::Deref for StateRef<'_> {
    type Target = QueueState;

    fn deref(&self) -> &QueueState {
        &self.0
    }
}

impl Queue {
    /// A new queue with no messages or tags; `receipts` seals its handles and `journal` hears its
    /// changes.
    pub fn new(
        key: QueueKey,
        uid: u64,
        attributes: QueueAttributes,
        receipts: Arc<ReceiptKey>,
        journal: Option<Arc<dyn Journal>>,
        now: Millis,
    ) -> Self {
        let fifo = attributes.fifo_queue;
        let ledger = Ledger::new(uid, fifo, journal.clone());
        Queue {
            key,
            uid,
            fifo,
            dedup_scope: attributes.deduplication_scope,
            created_at: now,
            receipts,
            journal,
            deleted: AtomicBool::new(false),
            receive_high_water: AtomicU32::new(0),
            state: Mutex::new(QueueState {
                attributes,
                tags: BTreeMap::new(),
                last_modified: now,
                ledger,
                stats: Stats::default(),
                processing: None,
                senders: HashSet::default(),
                dice: None,
                own_delivery: None,
            }),
            notify: Notify::new(),
            waiting: AtomicUsize::new(0),
            loose: AtomicBool::new(false),
        }
    }

    /// Marks a long poll as parked until the returned guard drops.
    pub fn park(&self) -> Waiting<'_> {
        self.waiting.fetch_add(1, Ordering::Relaxed);
        Waiting(&self.waiting)
    }

    /// How many long polls are parked on this queue now (the admin API's count, so tests wait on
    /// state).
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// QueueName.
    pub fn name(&self) -> &str {
        &self.key.name
    }

    /// Written when asked for, not kept: 72 bytes a queue that few requests need.
    pub fn arn(&self) -> String {
        self.key.arn()
    }

    /// The state for reading, settled to `now` first (expired messages removed, elapsed
    /// visibility and delays applied) so every count and visibility is exact. Only the engine
    /// changes it (`Queue::lock_settled_mut`), each change reported as a mutation.
    pub fn lock_settled(&self, now: Millis) -> StateRef<'_> {
        StateRef(self.lock_settled_mut(now))
    }

    /// The state for the engine's operations to change, settled to `now` first.
    pub(super) fn lock_settled_mut(&self, now: Millis) -> MutexGuard<'_, QueueState> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.settle(now);
        state
    }

    /// How many messages are visible, in flight and delayed at `now`, and the oldest's age.
    pub fn depth(&self, now: Millis) -> Depth {
        self.observe(now).depth
    }

    /// The queue's identity and settings as one absolute record.
    pub(crate) fn meta(&self, state: &QueueState) -> QueueMeta {
        QueueMeta {
            uid: self.uid,
            key: self.key.clone(),
            created_at: self.created_at,
            attributes: state
                .attributes
                .render()
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .chain(self.fifo.then(|| {
                    let scope = self.dedup_scope.as_str().to_owned();
                    (CREATED_DEDUPLICATION_SCOPE.to_owned(), scope)
                }))
                .collect(),
            tags: state.tags.clone(),
            last_modified: state.last_modified,
            last_purge: state.ledger.last_purge(),
            next_seq: state.store().next_seq(),
            fifo_counter: state.ledger.fifo_counter(),
        }
    }

    /// Changes the queue's settings through `f`, then reports them.
    fn edit<R>(&self, now: Millis, f: impl FnOnce(&mut QueueState) -> R) -> R {
        let mut state = self.lock_settled_mut(now);
        let result = f(&mut state);
        if let Some(j) = &self.journal {
            j.record(&Mutation::Queue(self.meta(&state)));
        }
        result
    }

    /// Recovery: the settings and counters a queue record carries (never re-recorded).
    pub(crate) fn restore_settings(
        &self,
        attributes: QueueAttributes,
        meta: QueueMeta,
        now: Millis,
    ) {
        let mut state = self.lock_settled_mut(now);
        state.attributes = attributes;
        state.tags = meta.tags;
        state.last_modified = meta.last_modified;
        state
            .ledger
            .restore_counters(meta.next_seq, meta.fifo_counter, meta.last_purge);
    }

    /// CreateQueue's tags, set (and the queue recorded) before anyone else sees the queue.
    pub(super) fn admit(&self, tags: BTreeMap<String, String>, now: Millis) {
        self.edit(now, |state| state.tags = tags);
    }

    /// TagQueue and UntagQueue: `f` changes the tags, then they are reported.
    pub fn edit_tags<R>(
        &self,
        now: Millis,
        f: impl FnOnce(&mut BTreeMap<String, String>) -> R,
    ) -> R {
        self.edit(now, |state| f(&mut state.tags))
    }

    /// AddPermission and RemovePermission: `f` turns the current policy into the next one.
    pub fn edit_policy(
        &self,
        now: Millis,
        f: impl FnOnce(Option<&Policy>) -> SqsResult<Option<Policy>>,
    ) -> SqsResult<()> {
        self.edit(now, |state| {
            state.attributes.policy = f(state.attributes.policy.as_deref())?.map(Arc::new);
            state.last_modified = now;
            Ok(())
        })
    }

    /// SetQueueAttributes, validated and reported.
    pub fn set_attributes(&self, map: &BTreeMap<String, String>, now: Millis) -> SqsResult<()> {
        self.edit(now, |state| state.set_attributes(map, now))
    }

    /// Ends the queue: receives see it as gone, and every parked long poll wakes to find out.
    pub(super) fn mark_deleted(&self) {
        self.deleted.store(true, Ordering::Release);
        self.notify.notify_waiters();
    }

    /// Wakes one parked long poll for one message that became receivable, so a send costs
    /// O(1) however many polls are parked. Tokio hands the wake-up on to another waiter if
    /// the chosen one is dropped before it runs (its client went away), and keeps it as a
    /// permit for the next poll when nobody is parked; a woken poll that finds the message
    /// already taken parks again.
    pub fn wake_one(&self) {
        self.notify.notify_one();
    }

    /// Raises the high-water receive count that [`Queue::receive_count_reaching`] checks first.
    pub(super) fn note_receive_count(&self, count: u32) {
        self.receive_high_water.fetch_max(count, Ordering::Relaxed);
    }

    /// The highest receive count of a stored message, if one reaches `threshold`. Scans the
    /// messages only when the high-water mark says one might; lowers the mark to what it finds.
    pub fn receive_count_reaching(&self, threshold: u32, now: Millis) -> Option<u32> {
        if self.receive_high_water.load(Ordering::Relaxed) < threshold {
            return None;
        }
        let state = self.lock_settled_mut(now);
        let most = state
            .store()
            .iter()
            .map(|(_, m)| m.receive_count)
            .max()
            .unwrap_or(0);
        // Under the lock every receive so far is in the store, so this cannot hide a count.
        self.receive_high_water.store(most, Ordering::Relaxed);
        (most >= threshold).then_some(most)
    }

    /// Whether DeleteQueue (or a reset) has taken this queue out of the registry.
    pub fn is_deleted(&self) -> bool {
        self.deleted.load(Ordering::Acquire)
    }

    /// SendMessage: checks and digests the message before taking the lock, stores it, and wakes one
    /// parked poll.
    pub fn send(&self, msg: NewMessage, now: Millis) -> SqsResult<Sent> {
        let prepared = Prepared::new(msg)?;
        let sent = self.lock_settled_mut(now).send(self, prepared, now)?;
        self.wake_one();
        Ok(sent)
    }

    /// Deleting a FIFO group's in-flight head can make the group receivable, and at-least-once
    /// delivery may keep a deleted message to come back: parked receives are woken then, and
    /// only then.
    pub fn delete_message(&self, handle: &str, now: Millis) -> SqsResult<()> {
        let released = {
            let mut state = self.lock_settled_mut(now);
            let before = state.store().receivable_groups();
            let kept = state.delete(self, handle, now)?;
            kept || state.store().receivable_groups() > before
        };
        if released {
            self.wake_one();
        }
        Ok(())
    }

    /// Empties the queue; refused while `guard` ms have not passed since the last purge.
    pub fn purge(&self, now: Millis, guard: Millis) -> SqsResult<()> {
        let mut state = self.lock_settled_mut(now);
        if let Some(last) = state.ledger.last_purge() {
            if now < last.saturating_add(guard) {
                return Err(SqsError::new(
                    ErrorKind::PurgeQueueInProgress,
                    format!(
                        "Only one PurgeQueue operation on {} is allowed every 60 seconds.",
                        self.name()
                    ),
                ));
            }
        }
        state.ledger.purge(now);
        Ok(())
    }
}
