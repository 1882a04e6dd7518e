//! The event source mappings of one server, by UUID, shared by the Lambda API (which edits
//! them) and the runtime (which polls for the enabled ones and settles their states).

use std::collections::BTreeMap;
use std::sync::RwLock;

use tokio::sync::watch;

use super::mapping::Mapping;

/// Every mapping, keyed by UUID. Each change bumps a version the runtime watches, so it
/// reacts to an insert, update or removal without polling.
#[derive(Debug)]
pub struct Mappings {
    by_uuid: RwLock<BTreeMap<String, Mapping>>,
    changed: watch::Sender<u64>,
}

impl Default for Mappings {
    fn default() -> Self {
        Mappings {
            by_uuid: RwLock::default(),
            changed: watch::Sender::new(0),
        }
    }
}

impl Mappings {
    pub fn new() -> Self {
        Mappings::default()
    }

    /// Adds a mapping (its UUID is fresh, so none is replaced) and returns a copy of it.
    pub fn insert(&self, mapping: Mapping) -> Mapping {
        let copy = mapping.clone();
        self.write().insert(mapping.uuid.clone(), mapping);
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
        let out = {
            let mut map = self.write();
            let mapping = map.get_mut(uuid)?;
            edit(mapping)
        };
        if out.is_ok() {
            self.bump();
        }
        Some(out)
    }

    /// Runs `edit` over every mapping under the registry's lock, so a check across mappings
    /// (the Lambda API's one mapping per queue and function) and the change it allows are one
    /// step; a change is announced when `edit` succeeds.
    pub fn transact<T, E>(
        &self,
        edit: impl FnOnce(&mut BTreeMap<String, Mapping>) -> Result<T, E>,
    ) -> Result<T, E> {
        let out = edit(&mut self.write());
        if out.is_ok() {
            self.bump();
        }
        out
    }

    /// Removes a mapping and returns it.
    pub fn remove(&self, uuid: &str) -> Option<Mapping> {
        let removed = self.write().remove(uuid);
        if removed.is_some() {
            self.bump();
        }
        removed
    }

    /// Forgets every mapping (the admin API's reset).
    pub fn clear(&self) {
        self.write().clear();
        self.bump();
    }

    /// A receiver that sees a new version after every change.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
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
}
