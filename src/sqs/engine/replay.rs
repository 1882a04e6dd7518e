//! Recovery and snapshots: the registry rebuilt from [`Record`]s (a snapshot, then the log
//! that followed it), and the registry written out as the records that rebuild it. Both
//! use the same record kinds the live engine reports, so a snapshot is just a short log.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::clock::Millis;
use crate::sqs::engine::attributes::{DeduplicationScope, QueueAttributes};
use crate::sqs::engine::mutation::{Delivery, Mutation, QueueMeta, Record};
use crate::sqs::engine::queue::{Queue, CREATED_DEDUPLICATION_SCOPE};
use crate::sqs::engine::Registry;

/// Messages a snapshot copies per hold of a queue's lock: senders and receivers of a huge
/// queue wait for one turn, never for the whole queue. Letting go between turns is safe
/// because every change after the snapshot began is in the log that follows it, and records
/// are absolute: replaying them over a newer copy of a message converges.
const SNAPSHOT_TURN: usize = 1024;

/// Applies records to a registry, in log order. Records about a queue that no longer exists
/// are skipped: the log still holds them from before its deletion.
#[derive(Debug)]
pub struct Replayer<'a> {
    /// The registry records are applied to.
    registry: &'a Registry,
    /// Queues by their uid, as records name them.
    by_uid: HashMap<u64, Arc<Queue>>,
    /// The instant of recovery, for what records leave unset.
    now: Millis,
}

impl<'a> Replayer<'a> {
    /// A replayer into `registry`, recovering at `now`.
    pub fn new(registry: &'a Registry, now: Millis) -> Self {
        Replayer {
            registry,
            by_uid: HashMap::new(),
            now,
        }
    }

    /// Applies one record; an error names a record that contradicts the state.
    pub fn apply(&mut self, record: Record) -> Result<(), String> {
        let now = self.now;
        match record {
            Record::Queue(meta) => return self.queue(meta),
            Record::QueueDeleted { uid, key, at } => {
                if self.by_uid.remove(&uid).is_some() {
                    self.registry.queues.remove_if(&key, |q| q.uid == uid);
                }
                if self.registry.strict {
                    self.registry.deleted.insert(key, at);
                }
            }
            Record::NextUid(uid) => {
                self.registry.next_uid.fetch_max(uid, Ordering::Relaxed);
            }
            Record::Put { queue, .. }
            | Record::Delivery(Delivery { queue, .. })
            | Record::Removed { queue, .. }
            | Record::Purged { queue, .. }
            | Record::Dedup { queue, .. }
            | Record::Attempt { queue, .. } => {
                if let Some(q) = self.by_uid.get(&queue) {
                    q.lock_settled_mut(now).ledger().replay(record, now);
                }
            }
            Record::MoveTask(task) => self.registry.tasks.restore(task, now),
            Record::MoveTasksCleared => self.registry.clear_move_tasks(),
        }
        Ok(())
    }

    /// Creates the queue, or brings an existing one's settings up to date.
    fn queue(&mut self, mut meta: QueueMeta) -> Result<(), String> {
        let mut map: BTreeMap<String, String> =
            std::mem::take(&mut meta.attributes).into_iter().collect();
        let created_scope = map.remove(CREATED_DEDUPLICATION_SCOPE);
        let fifo = map.get("FifoQueue").is_some_and(|v| v == "true");
        let mut attributes = QueueAttributes::new(fifo);
        // A Policy stored before sqslite validated policies may be one SQS refuses: the
        // queue comes back without it (and says so) rather than not at all.
        let policy_ok = map
            .get("Policy")
            .is_none_or(|p| crate::policy::Policy::parse(p).is_ok());
        if !policy_ok {
            map.remove("Policy");
            tracing::warn!(queue = %meta.key, "stored Policy is not one SQS accepts; dropped, set it again");
        }
        attributes.apply(&map, true).map_err(|e| {
            format!(
                "queue {}: stored attributes rejected: {}",
                meta.key.name, e.message
            )
        })?;
        // Records written before the creation scope was kept name none: the attribute is the
        // best guess there.
        let mut at_creation = attributes.clone();
        if let Some(scope) = created_scope.as_deref().and_then(DeduplicationScope::parse) {
            at_creation.deduplication_scope = scope;
        }
        let registry = self.registry;
        registry.next_uid.fetch_max(meta.uid, Ordering::Relaxed);
        let queue = self.by_uid.entry(meta.uid).or_insert_with(|| {
            Arc::new(Queue::new(
                meta.key.clone(),
                meta.uid,
                at_creation,
                registry.receipts.clone(),
                registry.journal.clone(),
                meta.created_at,
            ))
        });
        registry.queues.put(queue.clone());
        queue.restore_settings(attributes, meta, self.now);
        Ok(())
    }
}

impl Registry {
    /// Writes the whole registry as records, queue by queue, in turns of its lock.
    pub fn snapshot<E>(
        &self,
        now: Millis,
        emit: &mut dyn FnMut(&Mutation<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        emit(&Mutation::NextUid(self.next_uid.load(Ordering::Relaxed)))?;
        for entry in &self.deleted {
            let (key, at) = (entry.key().clone(), *entry.value());
            emit(&Mutation::QueueDeleted { uid: 0, key, at })?;
        }
        for queue in self.all() {
            {
                let state = queue.lock_settled_mut(now);
                emit(&Mutation::Queue(queue.meta(&state)))?;
                for d in state.ledger_ref().dedup().entries(queue.uid) {
                    emit(&Mutation::Dedup(d))?;
                }
                for a in state.ledger_ref().attempts().entries(queue.uid) {
                    emit(&Mutation::Attempt(a))?;
                }
            }
            let mut after = None;
            loop {
                let state = queue.lock_settled_mut(now);
                let mut taken = 0;
                let fifo_counter = state.ledger_ref().fifo_counter();
                for (position, message) in state.store().iter_after(after).take(SNAPSHOT_TURN) {
                    emit(&Mutation::Put {
                        queue: queue.uid,
                        seq: position.1,
                        fifo_counter,
                        message,
                    })?;
                    after = Some(position);
                    taken += 1;
                }
                if taken < SNAPSHOT_TURN {
                    break;
                }
            }
        }
        self.tasks.snapshot(emit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sqs::engine::fixture::key;

    /// A Policy stored before policies were validated comes back dropped, not as a failed
    /// start ("stored attributes rejected").
    #[test]
    fn a_stored_policy_sqs_refuses_is_dropped() {
        let registry = Registry::new();
        let key = key("q");
        let meta = QueueMeta {
            uid: 1,
            key: key.clone(),
            created_at: 0,
            attributes: vec![
                ("Policy".into(), r#"{"Statement":[{"Actions":"*"}]}"#.into()),
                ("VisibilityTimeout".into(), "31".into()),
            ],
            tags: BTreeMap::new(),
            last_modified: 0,
            last_purge: None,
            next_seq: 0,
            fifo_counter: 0,
        };
        Replayer::new(&registry, 0)
            .apply(Record::Queue(meta))
            .unwrap();
        let queue = registry.get(&key).unwrap();
        assert!(queue.policy().is_none());
        assert_eq!(queue.lock_settled(0).attributes().visibility_timeout, 31);
    }
}
