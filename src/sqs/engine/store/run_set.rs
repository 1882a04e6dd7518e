//! An ordered set for keys that mostly arrive in increasing order: the store's indexes.
//!
//! Sequence numbers are handed out increasing and a queue's enqueue times do not go back, so
//! nearly every key a store files is greater than all before it. A `BTreeSet` pays a descent
//! from the root for each of those (with a linear search of every node on the rightmost path:
//! about 475 instructions an insert, BENCHMARKS.md, "Eighth session"). Here such keys are
//! pushed onto a sorted ring in O(1); the keys that are not appends (a message whose
//! visibility ran out re-entering `ready` with its old sequence number, a dead-lettered
//! message keeping its source's enqueue time, replay) go to a `BTreeSet` beside it, and every
//! read merges the two. Removals near either end of the ring shift a few entries; one from
//! deep inside moves the shorter side into the tree, so each key moves at most once and every
//! operation stays O(log n), amortized.

use std::collections::{btree_set, vec_deque, BTreeSet, VecDeque};
use std::iter::Peekable;
use std::ops::Bound::{Excluded, Unbounded};

/// Entries a removal may shift within the ring before the shorter side moves to the tree.
const SHIFT_MAX: usize = 256;
/// Ring capacity that is kept however empty the ring gets, to spare reallocations.
const KEEP: usize = 1024;

/// An ordered set of keys that mostly arrive in order: a sorted ring, with a tree for the rest.
#[derive(Debug, Default)]
pub struct RunSet<K> {
    /// Strictly increasing.
    run: VecDeque<K>,
    /// The keys that were not greater than the ring's last when filed, or were moved out.
    rest: BTreeSet<K>,
}

impl<K: Ord + Copy> RunSet<K> {
    /// Files `key`, which must not be in the set already (the store files each key once).
    pub fn insert(&mut self, key: K) {
        if self.run.back().is_none_or(|last| *last < key) {
            debug_assert!(!self.rest.contains(&key), "a key filed twice");
            self.run.push_back(key);
        } else {
            self.rest.insert(key);
        }
    }

    /// Takes `key` out; false if it was not there.
    pub fn remove(&mut self, key: &K) -> bool {
        if self.run.front() == Some(key) {
            self.run.pop_front();
        } else if self.run.back() == Some(key) {
            self.run.pop_back();
        } else if let Ok(i) = self.run.binary_search(key) {
            self.take(i);
        } else {
            return self.rest.remove(key);
        }
        self.shrink();
        true
    }

    /// Whether `key` is in the set.
    pub fn contains(&self, key: &K) -> bool {
        self.run.binary_search(key).is_ok() || self.rest.contains(key)
    }

    /// The smallest key.
    pub fn first(&self) -> Option<K> {
        match (self.run.front(), self.rest.first()) {
            (Some(a), Some(b)) => Some(*a.min(b)),
            (a, b) => a.or(b).copied(),
        }
    }

    /// The least key greater than `after` (the least of all for `None`).
    pub fn first_after(&self, after: Option<&K>) -> Option<K> {
        let Some(after) = after else {
            return self.first();
        };
        let run = self.run.get(self.run_start(after)).copied();
        let rest = self
            .rest
            .range((Excluded(after), Unbounded))
            .next()
            .copied();
        match (run, rest) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Every key greater than `after` (all for `None`), in order.
    pub fn iter_after(&self, after: Option<&K>) -> Iter<'_, K> {
        let start = after.map_or(0, |k| self.run_start(k));
        let from = after.map_or(Unbounded, Excluded);
        Iter {
            run: self.run.range(start..).peekable(),
            rest: self.rest.range((from, Unbounded)).peekable(),
        }
    }

    /// The ring index of the first key greater than `after`.
    fn run_start(&self, after: &K) -> usize {
        // A walk that takes what it passes finds the ring's front already past it.
        if self.run.front().is_none_or(|front| front > after) {
            return 0;
        }
        self.run.partition_point(|k| k <= after)
    }

    /// Removes the ring entry at `i`, neither at the front nor at the back.
    fn take(&mut self, i: usize) {
        let after = self.run.len() - 1 - i;
        if i.min(after) <= SHIFT_MAX {
            // VecDeque shifts whichever side is shorter.
            self.run.remove(i);
        } else if i < after {
            self.rest.extend(self.run.drain(..i));
            self.run.pop_front();
        } else {
            self.rest.extend(self.run.drain(i + 1..));
            self.run.pop_back();
        }
    }

    /// Gives back ring memory once it is mostly unused, so a drained queue does not keep its
    /// peak (a `BTreeSet` frees its nodes as they empty).
    fn shrink(&mut self) {
        let capacity = self.run.capacity();
        if capacity > KEEP && self.run.len() < capacity / 4 {
            self.run.shrink_to(capacity / 2);
        }
    }
}

/// The keys of a [`RunSet`] in order: the ring and the tree merged.
pub struct Iter<'a, K> {
    /// The ring's keys, in order.
    run: Peekable<vec_deque::Iter<'a, K>>,
    /// The tree's keys, in order.
    rest: Peekable<btree_set::Range<'a, K>>,
}

impl<K: Ord + Copy> Iterator for Iter<'_, K> {
    type Item = K;

    fn next(&mut self) -> Option<K> {
        let next = match (self.run.peek(), self.rest.peek()) {
            (Some(a), Some(b)) if b < a => self.rest.next(),
            (Some(_), _) => self.run.next(),
            (None, _) => self.rest.next(),
        };
        next.copied()
    }
}

#[cfg(test)]
#[path = "run_set_tests.rs"]
mod tests;
