//! The event source mappings of one server, by UUID, shared by the Lambda API (which edits
//! them) and the runtime (which polls for the enabled ones and settles their states). Every
//! change goes through here and, in durable mode, is reported to the journal under the lock
//! that made it, so no change reaches memory without its record.

use std::collections::BTreeMap;
use std::io;
use std::ops::Deref;
use std::sync::{Arc, RwLock};

use tokio::sync::watch;

use super::journal::{MappingJournal, MappingRecord};
use super::mapping::Mapping;

/// Every mapping, keyed by UUID. Each change bumps a version the runtime watches, so it
/// reacts to an insert, update or removal without polling.
#[derive(Debug)]
pub struct Mappings {
    by_uuid: RwLock<BTreeMap<String, Mapping>>,
    changed: watch::Sender<u64>,
    /// Told of every change (`--data-dir`); `None` in memory-only mode.
    journal: Option<Arc<dyn MappingJournal>>,
}

impl Default for Mappings {
    fn default() -> Self {
        Mappings {
            by_uuid: RwLock::default(),
            changed: watch::Sender::new(0),
            journal: None,
        }
    }
}

/// The mappings as [`Mappings::transact`] lends them: read freely, changed only through
/// [`Edit::insert`], which notes the UUID so its record is written.
pub struct Edit<'a> {
    all: &'a mut BTreeMap<String, Mapping>,
    touched: Vec<String>,
}

impl Deref for Edit<'_> {
    type Target = BTreeMap<String, Mapping>;
    fn deref(&self) -> &Self::Target {
        self.all
    }
}

impl Edit<'_> {
    /// Adds or replaces a mapping.
    pub fn insert(&mut self, mapping: Mapping) {
        self.touched.push(mapping.uuid.clone());
        self.all.insert(mapping.uuid.clone(), mapping);
    }
}

impl Mappings {
    pub fn new() -> Self {
        Mappings::default()
    }

    /// Mappings whose every change is reported to `journal`.
    pub fn with_journal(journal: Arc<dyn MappingJournal>) -> Self {
        Mappings {
            journal: Some(journal),
            ..Mappings::default()
        }
    }

    /// Adds a mapping (its UUID is fresh, so none is replaced) and returns a copy of it.
    pub fn insert(&self, mapping: Mapping) -> Mapping {
        let copy = mapping.clone();
        {
            let mut map = self.write();
            self.log(|| MappingRecord::Mapping(mapping.clone()));
            map.insert(mapping.uuid.clone(), mapping);
        }
        self.bump();
        copy
    }

    /// A copy of one mapping.
    pub fn get(&self, uuid: &str) -> Option<Mapping> {
        self.read().get(uuid).cloned()
    }

    /// Copies of every mapping, by UUID.
    pub fn list(&self) -> Vec<Mapping> {
        self.read().values().cloned().collect()
    }

    /// How many mappings there are.
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// Whether there are none.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.read().is_empty()
    }

    /// Changes one mapping under the registry's lock (so two edits never interleave) and
    /// returns the result of `edit`, or `None` for an unknown UUID. An `Err` from `edit`
    /// leaves the mapping as it was, provided `edit` changes nothing before it fails.
    pub fn update<T, E>(
        &self,
        uuid: &str,
        edit: impl FnOnce(&mut Mapping) -> Result<T, E>,
    ) -> Option<Result<T, E>> {
        let (out, changed) = {
            let mut map = self.write();
            let mapping = map.get_mut(uuid)?;
            let before = mapping.clone();
            let out = edit(mapping);
            // Whatever `edit` did is recorded, even before an error: memory and log agree.
            let changed = *mapping != before;
            if changed {
                self.log(|| MappingRecord::Mapping(mapping.clone()));
            }
            (out, changed)
        };
        if out.is_ok() || changed {
            self.bump();
        }
        Some(out)
    }

    /// Runs `edit` over every mapping under the registry's lock, so a check across mappings
    /// (the Lambda API's one mapping per queue and function) and the change it allows are one
    /// step; each mapping it inserted is recorded and a change is announced.
    pub fn transact<T, E>(&self, edit: impl FnOnce(&mut Edit<'_>) -> Result<T, E>) -> Result<T, E> {
        let (out, touched) = {
            let mut map = self.write();
            let mut lent = Edit {
                all: &mut map,
                touched: Vec::new(),
            };
            let out = edit(&mut lent);
            let touched = std::mem::take(&mut lent.touched);
            for uuid in &touched {
                self.log(|| match map.get(uuid) {
                    Some(m) => MappingRecord::Mapping(m.clone()),
                    None => MappingRecord::Deleted { uuid: uuid.clone() },
                });
            }
            (out, touched)
        };
        if out.is_ok() || !touched.is_empty() {
            self.bump();
        }
        out
    }

    /// Removes a mapping and returns it.
    pub fn remove(&self, uuid: &str) -> Option<Mapping> {
        let removed = {
            let mut map = self.write();
            let removed = map.remove(uuid);
            if removed.is_some() {
                self.log(|| MappingRecord::Deleted {
                    uuid: uuid.to_owned(),
                });
            }
            removed
        };
        if removed.is_some() {
            self.bump();
        }
        removed
    }

    /// Forgets every mapping (the admin API's reset).
    pub fn clear(&self) {
        {
            let mut map = self.write();
            map.clear();
            self.log(|| MappingRecord::Cleared);
        }
        self.bump();
    }

    /// Writes every mapping as a record. They are copied under the lock at one instant and
    /// written after it is let go.
    pub fn snapshot(
        &self,
        write: &mut dyn FnMut(&MappingRecord) -> io::Result<()>,
    ) -> io::Result<()> {
        let records: Vec<MappingRecord> = self
            .list()
            .into_iter()
            .map(MappingRecord::Mapping)
            .collect();
        records.iter().try_for_each(write)
    }

    /// Applies one stored record (recovery), reporting nothing: the log already holds it.
    pub fn restore(&self, record: MappingRecord) {
        let mut map = self.write();
        match record {
            MappingRecord::Mapping(m) => {
                map.insert(m.uuid.clone(), m);
            }
            MappingRecord::Deleted { uuid } => {
                map.remove(&uuid);
            }
            MappingRecord::Cleared => map.clear(),
        }
    }

    /// A receiver that sees a new version after every change.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    fn log(&self, record: impl FnOnce() -> MappingRecord) {
        if let Some(journal) = &self.journal {
            journal.record(&record());
        }
    }

    fn bump(&self) {
        self.changed.send_modify(|v| *v = v.wrapping_add(1));
    }

    // A panic while the lock was held leaves plain data, still consistent per mapping.
    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Mapping>> {
        self.by_uuid
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<String, Mapping>> {
        self.by_uuid
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triggers::mapping::{Settings, State};

    fn mapping() -> Mapping {
        Mapping::new("f".into(), "q".into(), Settings::default(), true, 1)
    }

    #[test]
    fn insert_get_update_remove() {
        let all = Mappings::new();
        let mut seen = all.subscribe();
        let m = all.insert(mapping());
        assert!(seen.has_changed().unwrap());
        seen.mark_unchanged();
        assert_eq!(all.get(&m.uuid).map(|m| m.state), Some(State::Creating));
        let r: Option<Result<(), ()>> = all.update(&m.uuid, |m| {
            m.state = State::Enabled;
            Ok(())
        });
        assert_eq!(r, Some(Ok(())));
        assert!(seen.has_changed().unwrap());
        assert_eq!(all.list()[0].state, State::Enabled);
        assert!(all.update::<(), ()>("nope", |_| Ok(())).is_none());
        assert_eq!(all.remove(&m.uuid).map(|m| m.uuid), Some(m.uuid.clone()));
        assert!(all.get(&m.uuid).is_none() && all.is_empty());
    }

    #[derive(Debug, Default)]
    struct Recorder(std::sync::Mutex<Vec<MappingRecord>>);

    impl MappingJournal for Recorder {
        fn record(&self, record: &MappingRecord) {
            self.0.lock().unwrap().push(record.clone());
        }
    }

    #[test]
    fn every_change_is_recorded_and_restores_the_same_mappings() {
        let journal = Arc::new(Recorder::default());
        let all = Mappings::with_journal(journal.clone());
        let a = all.insert(mapping());
        let b = mapping();
        all.transact(|edit| {
            edit.insert(b.clone());
            Ok::<_, ()>(())
        })
        .unwrap();
        // An edit that changes nothing writes nothing; one that fails after a change still
        // writes it, so memory and log agree.
        all.update::<(), ()>(&a.uuid, |_| Ok(())).unwrap().unwrap();
        let failed: Result<(), ()> = all
            .update(&a.uuid, |m| {
                m.settings.batch_size = 3;
                Err(())
            })
            .unwrap();
        assert!(failed.is_err());
        all.remove(&b.uuid);
        assert_eq!(journal.0.lock().unwrap().len(), 4);
        let restored = Mappings::new();
        for r in journal.0.lock().unwrap().iter() {
            restored.restore(r.clone());
        }
        assert_eq!(restored.list(), all.list());
        let mut snapshot = Vec::new();
        all.snapshot(&mut |r| {
            snapshot.push(r.clone());
            Ok(())
        })
        .unwrap();
        assert_eq!(
            snapshot,
            vec![MappingRecord::Mapping(all.get(&a.uuid).unwrap())]
        );
        all.clear();
        assert_eq!(
            journal.0.lock().unwrap().last(),
            Some(&MappingRecord::Cleared)
        );
    }
}
