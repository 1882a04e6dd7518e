//! Per-mapping counters the poller bumps and `/metrics` reads through [`Stats::snapshot`].

use std::sync::atomic::{AtomicU64, Ordering};

/// One mapping's counters since it was added.
#[derive(Debug, Default)]
pub struct Stats {
    invocations: AtomicU64,
    errors: AtomicU64,
    records: AtomicU64,
    partial_failures: AtomicU64,
    filtered: AtomicU64,
}

/// A copy of a mapping's counters, for observers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Invocations started.
    pub invocations: u64,
    /// Invocations that failed the whole batch: a function error, a timeout, a failed call
    /// or an invalid partial batch response.
    pub errors: u64,
    /// Records sent in all invocations (the batch sizes' sum).
    pub records: u64,
    /// Invocations whose partial batch response named failures.
    pub partial_failures: u64,
    /// Messages deleted without an invocation because no filter matched them.
    pub filtered: u64,
}

impl Stats {
    pub(crate) fn invoked(&self, records: usize) {
        self.invocations.fetch_add(1, Ordering::Relaxed);
        self.records.fetch_add(records as u64, Ordering::Relaxed);
    }

    pub(crate) fn failed(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn partial(&self) {
        self.partial_failures.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn filtered(&self) {
        self.filtered.fetch_add(1, Ordering::Relaxed);
    }

    /// The counters now.
    pub fn snapshot(&self) -> Snapshot {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Snapshot {
            invocations: get(&self.invocations),
            errors: get(&self.errors),
            records: get(&self.records),
            partial_failures: get(&self.partial_failures),
            filtered: get(&self.filtered),
        }
    }
}
