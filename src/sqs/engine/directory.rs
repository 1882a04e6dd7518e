//! Where the registry keeps its queues: a concurrent map for the lookups every request makes,
//! and an ordered index of names per region and account for ListQueues and the scrape.
//!
//! The map holds each queue once, hashed by the key inside it (no second copy of the key:
//! 8 bytes a slot instead of 80, and no three strings per queue). The index is a B-tree set
//! of the same queues ordered by name, so a ListQueues page costs O(log n + page) instead of
//! collecting and sorting every match. It has one lock, taken by CreateQueue and DeleteQueue
//! (inside the map's shard lock, so map and index never disagree about a key) and by
//! listings; SendMessage and every other per-queue request only read the map.

// ByName and ByKey order and hash a queue by its key, which never changes; the interior
// mutability clippy sees is the queue's state behind its own lock.
#![allow(clippy::mutable_key_type)]

use std::borrow::Borrow;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use std::ops::Bound::{Excluded, Included, Unbounded};
use std::sync::{Arc, PoisonError, RwLock};

use dashmap::mapref::entry::Entry;
use dashmap::DashMap;
use rustc_hash::FxBuildHasher;

use super::arn::KeyParts;
use super::queue::Queue;

/// A queue in the map, hashed and compared by its key.
#[derive(Debug, Clone)]
struct ByKey(Arc<Queue>);

impl KeyParts for ByKey {
    fn parts(&self) -> (&str, &str, &str) {
        self.0.key.parts()
    }
}

impl<'a> Borrow<dyn KeyParts + 'a> for ByKey {
    fn borrow(&self) -> &(dyn KeyParts + 'a) {
        self
    }
}

impl Hash for ByKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As `dyn KeyParts` hashes, so a borrowed key finds it.
        self.parts().hash(state);
    }
}

impl PartialEq for ByKey {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for ByKey {}

/// A queue in the index, ordered by name (its region and account are the index's keys).
#[derive(Debug, Clone)]
struct ByName(Arc<Queue>);

impl Borrow<str> for ByName {
    fn borrow(&self) -> &str {
        &self.0.key.name
    }
}

impl PartialEq for ByName {
    fn eq(&self, other: &Self) -> bool {
        self.0.key.name == other.0.key.name
    }
}

impl Eq for ByName {}

impl PartialOrd for ByName {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByName {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.key.name.cmp(&other.0.key.name)
    }
}

/// Names by region, then account.
type Index = BTreeMap<String, BTreeMap<String, BTreeSet<ByName>>>;

/// Every queue of the server: a concurrent map for lookups, and a name index for ListQueues.
#[derive(Debug, Default)]
pub struct Directory {
    /// FxHash: keys are queue names of a local emulator, not an attack surface.
    map: DashMap<ByKey, (), FxBuildHasher>,
    /// Names by region and account, in order, for ListQueues' prefix pages.
    index: RwLock<Index>,
}

impl Directory {
    /// How many queues exist, for the `max_queues` bound.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// How many queues `account` holds in every region, for its share of `max_queues`.
    pub fn count_of(&self, account: &str) -> usize {
        let index = self.index.read().unwrap_or_else(PoisonError::into_inner);
        index
            .values()
            .filter_map(|accounts| accounts.get(account))
            .map(BTreeSet::len)
            .sum()
    }

    /// The queue `key` names: an owned key or one borrowed from a request.
    pub fn get(&self, key: &dyn KeyParts) -> Option<Arc<Queue>> {
        self.map.get(key).map(|e| e.key().0.clone())
    }

    /// Files `queue` under its key unless the key is taken: `admit` runs first, before
    /// anyone can find the queue. `Err` holds the queue that has the key.
    pub fn insert(&self, queue: Arc<Queue>, admit: impl FnOnce(&Queue)) -> Result<(), Arc<Queue>> {
        match self.map.entry(ByKey(queue.clone())) {
            Entry::Occupied(existing) => Err(existing.key().0.clone()),
            Entry::Vacant(slot) => {
                admit(&queue);
                self.index_mut(|index| index_insert(index, queue));
                slot.insert(());
                Ok(())
            }
        }
    }

    /// Files `queue` under its key, replacing whatever queue had it (recovery).
    pub fn put(&self, queue: Arc<Queue>) {
        match self.map.entry(ByKey(queue.clone())) {
            Entry::Occupied(existing) => {
                let (old, ()) = existing.replace_entry(());
                self.index_mut(|index| {
                    index_remove(index, &old.0);
                    index_insert(index, queue);
                });
            }
            Entry::Vacant(slot) => {
                self.index_mut(|index| index_insert(index, queue));
                slot.insert(());
            }
        }
    }

    /// Takes out the queue under `key` if `which` accepts it.
    pub fn remove_if(
        &self,
        key: &dyn KeyParts,
        which: impl FnOnce(&Queue) -> bool,
    ) -> Option<Arc<Queue>> {
        // The index is updated inside the predicate: it runs under the map's shard lock, so
        // a CreateQueue of the same name cannot come between the two.
        let (gone, ()) = self.map.remove_if(key, |k, ()| {
            let remove = which(&k.0);
            if remove {
                self.index_mut(|index| index_remove(index, &k.0));
            }
            remove
        })?;
        Some(gone.0)
    }

    /// Takes out every queue (the admin API's reset) and returns them.
    pub fn clear(&self) -> Vec<Arc<Queue>> {
        let all = self.all();
        for q in &all {
            self.remove_if(&q.key, |found| found.uid == q.uid);
        }
        all
    }

    /// Every queue, in no order.
    pub fn all(&self) -> Vec<Arc<Queue>> {
        let mut out = Vec::with_capacity(self.map.len());
        self.all_into(&mut out);
        out
    }

    /// [`Directory::all`] into a list the caller keeps, so a periodic pass allocates nothing.
    pub fn all_into(&self, out: &mut Vec<Arc<Queue>>) {
        out.extend(self.map.iter().map(|e| e.key().0.clone()));
    }

    /// Every queue by key (region, account, name), read from the index: no sort.
    pub fn sorted(&self) -> Vec<Arc<Queue>> {
        let index = self.index.read().unwrap_or_else(PoisonError::into_inner);
        let mut out = Vec::with_capacity(self.map.len());
        for accounts in index.values() {
            for names in accounts.values() {
                out.extend(names.iter().map(|n| n.0.clone()));
            }
        }
        out
    }

    /// Up to `limit` queues of one region and account whose names start with `prefix` and
    /// come after `after`, by name, and whether more follow: O(log n + limit).
    pub fn page(
        &self,
        (region, account): (&str, &str),
        prefix: &str,
        after: Option<&str>,
        limit: usize,
    ) -> (Vec<Arc<Queue>>, bool) {
        let index = self.index.read().unwrap_or_else(PoisonError::into_inner);
        let Some(names) = index.get(region).and_then(|a| a.get(account)) else {
            return (Vec::new(), false);
        };
        // The names with the prefix are one run starting at the prefix itself.
        let from = match after {
            Some(after) if after >= prefix => Excluded(after),
            _ => Included(prefix),
        };
        let mut run = names
            .range::<str, _>((from, Unbounded))
            .take_while(|n| n.0.key.name.starts_with(prefix));
        let page: Vec<Arc<Queue>> = run.by_ref().take(limit).map(|n| n.0.clone()).collect();
        let more = run.next().is_some();
        (page, more)
    }

    /// Runs `f` with the name index write-locked; a panic elsewhere cannot wedge it (poison is
    /// ignored).
    fn index_mut<R>(&self, f: impl FnOnce(&mut Index) -> R) -> R {
        f(&mut self.index.write().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Files `queue` in the name index under its region and account.
fn index_insert(index: &mut Index, queue: Arc<Queue>) {
    let k = &queue.key;
    let accounts = match index.get_mut(k.region.as_str()) {
        Some(a) => a,
        None => index.entry(k.region.clone()).or_default(),
    };
    let names = match accounts.get_mut(k.account.as_str()) {
        Some(n) => n,
        None => accounts.entry(k.account.clone()).or_default(),
    };
    names.replace(ByName(queue));
}

/// Takes `queue` out of the name index, dropping an account or region left empty.
fn index_remove(index: &mut Index, queue: &Queue) {
    let k = &queue.key;
    let Some(accounts) = index.get_mut(k.region.as_str()) else {
        return;
    };
    if let Some(names) = accounts.get_mut(k.account.as_str()) {
        names.remove(k.name.as_str());
        if names.is_empty() {
            accounts.remove(k.account.as_str());
        }
    }
    if accounts.is_empty() {
        index.remove(k.region.as_str());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sqs::engine::arn::QueueKey;
    use crate::sqs::engine::attributes::QueueAttributes;

    fn queue(uid: u64, region: &str, name: &str) -> Arc<Queue> {
        let key = QueueKey::new(region, "1", name);
        let attributes = QueueAttributes::new(false);
        Arc::new(Queue::new(key, uid, attributes, Arc::default(), None, 0))
    }

    fn names(queues: &[Arc<Queue>]) -> Vec<&str> {
        queues.iter().map(|q| q.key.name.as_str()).collect()
    }

    #[test]
    fn pages_follow_the_names_in_order() {
        let d = Directory::default();
        for (uid, name) in ["b", "a", "ab", "c", "aa", "b1"].iter().enumerate() {
            d.insert(queue(uid as u64, "r", name), |_| {}).unwrap();
        }
        d.insert(queue(9, "other", "a0"), |_| {}).unwrap();
        let page = |prefix, after, limit| {
            let (p, more) = d.page(("r", "1"), prefix, after, limit);
            (names(&p).join(","), more)
        };
        assert_eq!(page("", None, 10), ("a,aa,ab,b,b1,c".into(), false));
        assert_eq!(page("a", None, 2), ("a,aa".into(), true));
        assert_eq!(page("a", Some("aa"), 2), ("ab".into(), false));
        assert_eq!(page("b", Some("a"), 5), ("b,b1".into(), false));
        assert_eq!(page("b", Some("b"), 5), ("b1".into(), false));
        assert_eq!(page("", Some("zz"), 5), (String::new(), false));
        assert_eq!(page("x", None, 5), (String::new(), false));
        assert!(d.page(("r", "2"), "", None, 5).0.is_empty());
        assert_eq!(names(&d.sorted()), ["a0", "a", "aa", "ab", "b", "b1", "c"]);
    }

    #[test]
    fn map_and_index_agree_through_inserts_replacements_and_removals() {
        let d = Directory::default();
        let first = queue(1, "r", "q");
        d.insert(first.clone(), |_| {}).unwrap();
        let taken = d.insert(queue(2, "r", "q"), |_| panic!("admitted twice"));
        assert_eq!(taken.unwrap_err().uid, 1);
        d.put(queue(3, "r", "q"));
        let key = QueueKey::new("r", "1", "q");
        assert_eq!(d.get(&key).unwrap().uid, 3);
        assert_eq!(d.sorted()[0].uid, 3);
        assert!(d.remove_if(&key, |q| q.uid == 1).is_none());
        assert_eq!(d.remove_if(&key, |q| q.uid == 3).unwrap().uid, 3);
        assert!(d.get(&key).is_none() && d.sorted().is_empty() && d.all().is_empty());
        d.insert(queue(4, "r", "q"), |_| {}).unwrap();
        d.insert(queue(5, "s", "q"), |_| {}).unwrap();
        assert_eq!(d.clear().len(), 2);
        assert!(d.sorted().is_empty() && d.all().is_empty());
    }
}
