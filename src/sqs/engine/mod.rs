//! The queue engine: every SQS rule, no HTTP. Every operation receives `now` from the caller.
#![warn(clippy::missing_docs_in_private_items)]

pub mod arn;
pub mod at_least_once;
pub mod attribute_table;
mod attribute_values;
pub mod attributes;
mod dead_letter;
pub mod delivery;
mod directory;
pub mod fifo;
mod groups;
pub mod limits;
pub mod md5;
pub mod message;
pub mod message_rules;
pub mod move_task;
pub mod mutation;
pub mod permissions;
pub mod processing;
pub mod queue;
pub mod receipt;
pub mod redrive;
pub mod replay;
mod send;
mod slots;
pub mod store;
pub mod tags;
mod task_book;

#[cfg(test)]
pub(crate) mod fixture;
#[cfg(test)]
mod seal_tests;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, MutexGuard};

use dashmap::DashMap;
use rustc_hash::FxBuildHasher;

use crate::clock::Millis;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use arn::{KeyParts, QueueKey};
use attributes::QueueAttributes;
use move_task::MoveTasks;
use mutation::{Journal, Mutation};
use queue::{Queue, QueueState};
use receipt::ReceiptKey;

/// How many queues a server holds unless configured otherwise (`max_queues`): far more than
/// a test suite makes, few enough that a runaway client cannot exhaust a laptop's memory.
pub const DEFAULT_MAX_QUEUES: usize = 100_000;

/// How long SQS's guards last: a deleted queue's name, a purge (strict mode only).
const GUARD_MS: Millis = 60_000;

/// All queues of all accounts and regions.
#[derive(Debug, Default)]
pub struct Registry {
    /// Every queue, by key and by name (`directory.rs`).
    queues: directory::Directory,
    /// When each name was deleted; kept only in strict mode. FxHash: keys are queue names
    /// of a local emulator, not an attack surface.
    deleted: DashMap<QueueKey, Millis, FxBuildHasher>,
    /// The uid the next queue gets: never reused, even across restarts.
    next_uid: AtomicU64,
    /// SQS's 60-second guards (QueueDeletedRecently, PurgeQueueInProgress) are enforced.
    strict: bool,
    /// Seals every receipt handle this server issues (shared by its queues).
    receipts: Arc<receipt::ReceiptKey>,
    /// Told of every state change (`--data-dir`); `None` in memory-only mode.
    journal: Option<Arc<dyn Journal>>,
    /// Message move tasks: here, not beside the registry, so their changes share the
    /// queues' journal and snapshots.
    tasks: MoveTasks,
    /// CreateQueue past this many queues, or past the account's share, is OverLimit; `None`
    /// is [`DEFAULT_MAX_QUEUES`] for one account.
    max_queues: Option<crate::quota::Quota>,
    /// Bumped by every queue created, so the triggers runtime resumes a mapping whose
    /// queue was deleted once a queue of its ARN exists again.
    created: tokio::sync::watch::Sender<u64>,
    /// The server-wide delivery mode, seed and rates (`at_least_once.rs`).
    delivery: std::sync::RwLock<at_least_once::DeliverySettings>,
}

impl Registry {
    #[cfg(test)]
    pub fn new() -> Self {
        Registry::default()
    }

    /// A registry that enforces SQS's 60-second guards (`--strict`), or not.
    pub fn with_strict(strict: bool) -> Self {
        Registry {
            strict,
            ..Registry::default()
        }
    }

    /// A registry whose every change is reported to `journal`, sealing receipt handles with
    /// `receipts` (kept in the data directory, so handles outlive a restart).
    pub fn with_journal(strict: bool, receipts: ReceiptKey, journal: Arc<dyn Journal>) -> Self {
        Registry {
            strict,
            receipts: Arc::new(receipts),
            journal: Some(journal),
            ..Registry::default()
        }
    }

    /// Caps the number of queues CreateQueue makes (`max_queues`), and each account's.
    #[must_use]
    pub fn with_max_queues(mut self, max: crate::quota::Quota) -> Self {
        self.max_queues = Some(max);
        self
    }

    /// Reports a change of the registry itself (queues deleted, move tasks); a queue's own
    /// changes are recorded by its [`queue::Ledger`] and its settings' edits.
    fn emit(&self, m: &Mutation<'_>) {
        if let Some(j) = &self.journal {
            j.record(m);
        }
    }

    /// A queue taken out of the map is over: its long polls end, and its deletion is recorded.
    fn forget(&self, queue: &Queue, at: Millis) {
        queue.mark_deleted();
        self.emit(&Mutation::QueueDeleted {
            uid: queue.uid,
            key: queue.key.clone(),
            at,
        });
    }

    /// CreateQueue: checks the name and attributes (a RedrivePolicy against its target) and
    /// makes the queue; a queue of that name with the same attributes is returned as is.
    pub fn create(
        &self,
        key: QueueKey,
        attributes: &BTreeMap<String, String>,
        tags: BTreeMap<String, String>,
        now: Millis,
    ) -> SqsResult<Arc<Queue>> {
        let fifo = validate_name(&key.name, attributes)?;
        if let Some(existing) = self.queues.get(&key) {
            return same_queue(&existing, attributes, now);
        }
        if self
            .deleted
            .get(&key)
            .is_some_and(|at| now < at.saturating_add(GUARD_MS))
        {
            return Err(SqsError::of(ErrorKind::QueueDeletedRecently));
        }
        let max = self
            .max_queues
            .unwrap_or(crate::quota::Quota::whole(DEFAULT_MAX_QUEUES));
        // Checked before the insert, so racing creates may pass it together: a bound on
        // memory, not an exact count.
        max.admit(self.queues.len(), || self.queues.count_of(&key.account))
            .map_err(|over| {
                // SQS's quotas list no limit on the number of queues; OverLimit ("The specified
                // action violates a limit") is its error for a quota reached (in-flight
                // messages, SQS Developer Guide, standard queue quotas).
                let words = over.message("queues", "max_queues", "delete queues");
                SqsError::new(ErrorKind::OverLimit, words)
            })?;
        let mut attrs = QueueAttributes::new(fifo);
        attrs.apply(attributes, true)?;
        if let Some(policy) = &attrs.redrive_policy {
            self.check_redrive(&key.arn(), fifo, policy, now)?;
        }
        // Built before the name is claimed (the map is keyed by the queue itself); a
        // CreateQueue racing this one for the name leaves a uid unused, nothing else.
        let uid = self.next_uid.fetch_add(1, Ordering::Relaxed) + 1;
        let queue = Arc::new(Queue::new(
            key,
            uid,
            attrs,
            self.receipts.clone(),
            self.journal.clone(),
            now,
        ));
        self.deal(&queue);
        // Tags are set (and the queue reported) before anyone else can see it.
        let admit = |q: &Queue| q.admit(tags, now);
        match self.queues.insert(queue.clone(), admit) {
            Ok(()) => {
                self.created.send_modify(|n| *n = n.wrapping_add(1));
                Ok(queue)
            }
            Err(existing) => same_queue(&existing, attributes, now),
        }
    }

    /// A receiver that sees a new version after every queue created.
    pub fn queues_created(&self) -> tokio::sync::watch::Receiver<u64> {
        self.created.subscribe()
    }

    /// The queue `key` names, or QueueDoesNotExist.
    pub fn get(&self, key: &QueueKey) -> SqsResult<Arc<Queue>> {
        self.find(key)
    }

    /// The queue a borrowed or owned key names.
    pub fn find(&self, key: &dyn KeyParts) -> SqsResult<Arc<Queue>> {
        self.queues
            .get(key)
            .ok_or_else(SqsError::queue_does_not_exist)
    }

    /// The queue a queue ARN names (RedrivePolicy targets, move tasks, SNS subscriptions); `None`
    /// for a malformed ARN too.
    pub fn get_by_arn(&self, arn: &str) -> Option<Arc<Queue>> {
        self.find(&arn::parse_ref(arn)?).ok()
    }

    /// DeleteQueue: the queue goes at once and its long polls end; in strict mode its name is
    /// guarded for 60 s.
    pub fn delete(&self, key: &QueueKey, now: Millis) -> SqsResult<()> {
        let queue = self
            .queues
            .remove_if(key, |_| true)
            .ok_or_else(SqsError::queue_does_not_exist)?;
        self.forget(&queue, now);
        if self.strict {
            self.deleted.insert(queue.key.clone(), now);
        }
        Ok(())
    }

    /// PurgeQueue; in strict mode a second purge within 60 s is PurgeQueueInProgress.
    pub fn purge(&self, queue: &Queue, now: Millis) -> SqsResult<()> {
        let guard = if self.strict { GUARD_MS } else { 0 };
        queue.purge(now, guard)
    }

    /// ListQueues: up to `limit` queues of one region and account whose names start with
    /// `prefix` and come after `after`, by name, and whether more follow. O(log n + limit).
    pub fn list_page(
        &self,
        (region, account): (&str, &str),
        prefix: &str,
        after: Option<&str>,
        limit: usize,
    ) -> (Vec<Arc<Queue>>, bool) {
        self.queues.page((region, account), prefix, after, limit)
    }

    /// Forgets every queue, as if the server had just started (the admin API's reset). Long
    /// polls on the old queues end as if their queue was deleted.
    pub fn reset(&self) {
        for queue in self.queues.clear() {
            self.forget(&queue, 0);
        }
        self.deleted.clear();
    }

    /// Every queue, in no order.
    pub fn all(&self) -> Vec<Arc<Queue>> {
        self.queues.all()
    }

    /// [`Registry::all`] into a list the caller keeps, so a periodic pass allocates nothing.
    pub fn all_into(&self, out: &mut Vec<Arc<Queue>>) {
        out.clear();
        self.queues.all_into(out);
    }

    /// Every queue by key (region, account, name), without sorting.
    pub fn sorted(&self) -> Vec<Arc<Queue>> {
        self.queues.sorted()
    }

    /// SetQueueAttributes: the whole change is checked (a RedrivePolicy against its target,
    /// whose lock is taken without holding the queue's) before any of it applies.
    pub fn set_attributes(
        &self,
        queue: &Queue,
        map: &BTreeMap<String, String>,
        now: Millis,
    ) -> SqsResult<()> {
        let mut trial = queue.lock_settled_mut(now).attributes().clone();
        trial.apply(map, false)?;
        if let (Some(policy), true) = (&trial.redrive_policy, map.contains_key("RedrivePolicy")) {
            self.check_redrive(&queue.arn(), queue.fifo, policy, now)?;
        }
        queue.set_attributes(map, now)
    }
}

/// Locks two distinct queues in uid order, the one order every pair-lock uses, so two
/// movers can never deadlock. Returns the guards as (a, b).
fn lock_pair<'a>(
    a: &'a Queue,
    b: &'a Queue,
    now: Millis,
) -> (MutexGuard<'a, QueueState>, MutexGuard<'a, QueueState>) {
    if a.uid < b.uid {
        let ga = a.lock_settled_mut(now);
        (ga, b.lock_settled_mut(now))
    } else {
        let gb = b.lock_settled_mut(now);
        (a.lock_settled_mut(now), gb)
    }
}

/// CreateQueue of a name that exists: the same queue if every given attribute matches, else
/// QueueNameExists naming the first that differs.
fn same_queue(
    existing: &Arc<Queue>,
    attributes: &BTreeMap<String, String>,
    now: Millis,
) -> SqsResult<Arc<Queue>> {
    match existing.lock_settled_mut(now).attributes().first_difference(attributes) {
        None => Ok(existing.clone()),
        Some(name) => Err(SqsError::new(
            ErrorKind::QueueNameExists,
            format!("A queue already exists with the same name and a different value for attribute {name}"),
        )),
    }
}

/// Checks a queue name against the FifoQueue attribute; returns whether the queue is FIFO.
pub fn validate_name(name: &str, attributes: &BTreeMap<String, String>) -> SqsResult<bool> {
    let wants_fifo = attributes
        .get("FifoQueue")
        .is_some_and(|v| v.eq_ignore_ascii_case("true"));
    let base = name.strip_suffix(".fifo");
    let chars_ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    if wants_fifo || base.is_some() {
        if wants_fifo && name.len() <= 80 && base.is_some_and(chars_ok) {
            return Ok(true);
        }
        return Err(SqsError::invalid_parameter(
            "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length.",
        ));
    }
    if name.len() <= 80 && chars_ok(name) {
        Ok(false)
    } else {
        Err(SqsError::invalid_parameter(
            "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
        ))
    }
}
