//! The queue engine: every SQS rule, no HTTP. Every operation receives `now` from the caller.

pub mod arn;
pub mod attributes;
pub mod delivery;
mod directory;
pub mod fifo;
mod groups;
pub mod md5;
pub mod message;
pub mod move_task;
pub mod mutation;
pub mod policy;
pub mod processing;
pub mod queue;
pub mod receipt;
pub mod redrive;
pub mod replay;
mod send;
mod slots;
pub mod store;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, MutexGuard};

use dashmap::DashMap;
use rustc_hash::FxBuildHasher;

use crate::clock::Millis;
use crate::error::{ErrorKind, SqsError, SqsResult};
use arn::{KeyParts, QueueKey};
use attributes::QueueAttributes;
use delivery::{Delivered, Pass, ReceiveParams};
use move_task::MoveTasks;
use mutation::{Journal, Mutation};
use queue::{Queue, QueueState};
use receipt::ReceiptKey;
use redrive::RedrivePolicy;
use store::Disposition;

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
}

impl Registry {
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

    fn emit(&self, m: &Mutation<'_>) {
        if let Some(j) = &self.journal {
            j.record(m);
        }
    }

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
        // Tags are set (and the queue reported) before anyone else can see it.
        let admit = |q: &Queue| q.edit(now, |state| state.tags = tags);
        match self.queues.insert(queue.clone(), admit) {
            Ok(()) => Ok(queue),
            Err(existing) => same_queue(&existing, attributes, now),
        }
    }

    pub fn get(&self, key: &QueueKey) -> SqsResult<Arc<Queue>> {
        self.find(key)
    }

    /// The queue a borrowed or owned key names.
    pub fn find(&self, key: &dyn KeyParts) -> SqsResult<Arc<Queue>> {
        self.queues
            .get(key)
            .ok_or_else(SqsError::queue_does_not_exist)
    }

    pub fn get_by_arn(&self, arn: &str) -> Option<Arc<Queue>> {
        self.find(&arn::parse_ref(arn)?).ok()
    }

    pub fn delete(&self, key: &QueueKey, now: Millis) -> SqsResult<()> {
        let queue = self
            .queues
            .remove_if(key, |_| true)
            .ok_or_else(SqsError::queue_does_not_exist)?;
        queue.mark_deleted();
        self.emit(&Mutation::QueueDeleted {
            uid: queue.uid,
            key: queue.key.clone(),
            at: now,
        });
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
            queue.mark_deleted();
            self.emit(&Mutation::QueueDeleted {
                uid: queue.uid,
                key: queue.key.clone(),
                at: 0,
            });
        }
        self.deleted.clear();
    }

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

    /// Queues whose RedrivePolicy targets `dlq_arn`, by name.
    pub fn dead_letter_sources(&self, dlq_arn: &str, now: Millis) -> Vec<Arc<Queue>> {
        let mut found: Vec<Arc<Queue>> = self
            .all()
            .into_iter()
            .filter(|q| {
                q.lock_settled_mut(now)
                    .attributes
                    .redrive_policy
                    .as_ref()
                    .is_some_and(|p| p.dead_letter_target_arn == dlq_arn)
            })
            .collect();
        found.sort_by(|a, b| a.key.name.cmp(&b.key.name));
        found
    }

    /// SetQueueAttributes: the whole change is checked (a RedrivePolicy against its target,
    /// whose lock is taken without holding the queue's) before any of it applies.
    pub fn set_attributes(
        &self,
        queue: &Queue,
        map: &BTreeMap<String, String>,
        now: Millis,
    ) -> SqsResult<()> {
        let mut trial = queue.lock_settled_mut(now).attributes.clone();
        trial.apply(map, false)?;
        if let (Some(policy), true) = (&trial.redrive_policy, map.contains_key("RedrivePolicy")) {
            self.check_redrive(&queue.arn(), queue.fifo, policy, now)?;
        }
        queue.set_attributes(map, now)
    }

    /// A RedrivePolicy may only name an existing queue of the same type that allows the source.
    pub fn check_redrive(
        &self,
        source_arn: &str,
        fifo: bool,
        policy: &RedrivePolicy,
        now: Millis,
    ) -> SqsResult<()> {
        let invalid =
            |reason: &str| SqsError::invalid_value(policy.render(), "RedrivePolicy", reason);
        let Some(target) = self.get_by_arn(&policy.dead_letter_target_arn) else {
            return Err(invalid("Dead letter target does not exist."));
        };
        if target.fifo != fifo {
            return Err(invalid(
                "Dead-letter queue must be same type of queue as the source.",
            ));
        }
        let allowed = target
            .lock_settled_mut(now)
            .attributes
            .redrive_allow_policy
            .as_ref()
            .is_none_or(|p| p.allows(source_arn));
        if !allowed {
            return Err(invalid(&format!(
                "Queue {source_arn} is not allowed to use {} as a dead-letter queue by its RedriveAllowPolicy.",
                policy.dead_letter_target_arn
            )));
        }
        Ok(())
    }

    /// One receive attempt (no waiting), as [`Registry::receive_pass`] but what it delivered only.
    pub fn receive(&self, q: &Queue, p: &ReceiveParams, now: Millis) -> SqsResult<Vec<Delivered>> {
        Ok(self.receive_pass(q, p, false, now)?.delivered)
    }

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

    fn pass(&self, q: &Queue, p: &ReceiveParams, last: bool, now: Millis) -> SqsResult<Pass> {
        let deliver = |mut state: MutexGuard<'_, QueueState>| {
            let delivered = state.receive(q, p, now, |_| Disposition::Deliver)?.0;
            Ok(state.finish_pass(delivered, last))
        };
        let state = q.lock_settled_mut(now);
        let Some(policy) = state.attributes.redrive_policy.clone() else {
            return deliver(state);
        };
        drop(state);
        let dlq = self
            .get_by_arn(&policy.dead_letter_target_arn)
            .filter(|d| d.uid != q.uid);
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

    /// Moves the oldest message of `source` to `destination`, or back to the queue it was
    /// dead-lettered from. `Ok(false)` when `source` is empty; `Err` is a task failure reason.
    pub fn redrive_oldest(
        &self,
        source: &Queue,
        destination: Option<&str>,
        now: Millis,
    ) -> Result<bool, String> {
        loop {
            let (seq, origin) = {
                let state = source.lock_settled_mut(now);
                let Some((seq, msg)) = state.store.iter().next() else {
                    return Ok(false);
                };
                (seq, msg.dead_letter_source_arn().map(str::to_owned))
            };
            let target_arn = destination.map(str::to_owned).or(origin).ok_or_else(|| {
                "A message has no DeadLetterQueueSourceArn to return to; give a DestinationArn."
                    .to_owned()
            })?;
            let target = self
                .get_by_arn(&target_arn)
                .filter(|t| t.uid != source.uid)
                .ok_or_else(|| ErrorKind::QueueDoesNotExist.query_code().to_owned())?;
            {
                let (mut from, mut to) = lock_pair(source, &target, now);
                // Another caller may have taken the message between the two locks; look again.
                if from.store.iter().next().map(|(s, _)| s) != Some(seq) {
                    continue;
                }
                let Some(msg) = from.store.remove(seq) else {
                    continue;
                };
                source.emit(&Mutation::Removed {
                    queue: source.uid,
                    seq,
                });
                to.accept_redriven(&target, msg, now);
            }
            target.wake_one();
            return Ok(true);
        }
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

fn same_queue(
    existing: &Arc<Queue>,
    attributes: &BTreeMap<String, String>,
    now: Millis,
) -> SqsResult<Arc<Queue>> {
    match existing.lock_settled_mut(now).attributes.first_difference(attributes) {
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
