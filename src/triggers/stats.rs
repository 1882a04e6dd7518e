//! Per-mapping counters the poller bumps and observers (`/metrics`, the admin API's
//! `/_sqslite/mappings`) read through [`Stats::snapshot`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::clock::Millis;

/// One mapping's counters since it was added.
#[derive(Debug, Default)]
pub struct Stats {
    invocations: AtomicU64,
    errors: AtomicU64,
    records: AtomicU64,
    partial_failures: AtomicU64,
    filtered: AtomicU64,
    last_batch_size: AtomicU64,
    last: Mutex<Option<LastInvocation>>,
}

/// How an invocation ended, for its batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Every record was deleted.
    Success,
    /// The partial batch response named failures: those records stay for a retry.
    PartialFailure,
    /// The whole batch failed and stays in flight until the visibility timeout.
    Error,
}

impl Ending {
    /// The admin API's word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Success => "success",
            Ending::PartialFailure => "partial_failure",
            Ending::Error => "error",
        }
    }
}

/// The most recently finished invocation, on the server's clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastInvocation {
    /// When the invocation started.
    pub started_at: Millis,
    /// When its result was known.
    pub finished_at: Millis,
    /// Records in its batch.
    pub records: u64,
    /// How it ended.
    pub ending: Ending,
    /// Records left for a retry (all of them on an error).
    pub failed_records: u64,
    /// Why the batch failed, for [`Ending::Error`].
    pub error: Option<String>,
}

/// A copy of a mapping's counters, for observers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
    /// Records in the most recently started invocation (0 before the first).
    pub last_batch_size: u64,
    /// The most recently finished invocation.
    pub last: Option<LastInvocation>,
}

impl Stats {
    pub(crate) fn invoked(&self, records: usize) {
        self.invocations.fetch_add(1, Ordering::Relaxed);
        self.records.fetch_add(records as u64, Ordering::Relaxed);
        self.last_batch_size
            .store(records as u64, Ordering::Relaxed);
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

    pub(crate) fn finished(&self, last: LastInvocation) {
        *self.lock_last() = Some(last);
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
            last_batch_size: get(&self.last_batch_size),
            last: self.lock_last().clone(),
        }
    }

    // The value is replaced whole, so a panic elsewhere never leaves it half written.
    fn lock_last(&self) -> std::sync::MutexGuard<'_, Option<LastInvocation>> {
        self.last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
