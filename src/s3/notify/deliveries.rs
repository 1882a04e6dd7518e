//! What became of a bucket's events: counters for `/metrics` and the most recent deliveries
//! (with why each failed) for the dashboard's Buckets page, bounded so a busy bucket never
//! grows the server.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::clock::Millis;

/// How many deliveries the log keeps (the oldest leave first).
const KEPT: usize = 100;

/// One event handed to one destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    /// When it was sent, on the server's clock.
    pub at: Millis,
    /// The bucket the event happened in.
    pub bucket: String,
    /// `ObjectCreated:Put`…, or `s3:TestEvent`.
    pub event: String,
    /// The object's key (none for a test event).
    pub key: Option<String>,
    /// The destination's ARN.
    pub destination: String,
    /// Why it failed; `None` when the destination took it.
    pub failure: Option<String>,
}

/// The deliveries of every bucket.
#[derive(Debug, Default)]
pub struct Deliveries {
    recent: Mutex<VecDeque<Delivery>>,
    sent: AtomicU64,
    failed: AtomicU64,
}

impl Deliveries {
    /// Records one delivery.
    pub fn record(&self, delivery: Delivery) {
        let counter = if delivery.failure.is_some() {
            &self.failed
        } else {
            &self.sent
        };
        counter.fetch_add(1, Ordering::Relaxed);
        let mut recent = self
            .recent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if recent.len() == KEPT {
            recent.pop_front();
        }
        recent.push_back(delivery);
    }

    /// The recent deliveries, oldest first.
    pub fn recent(&self) -> Vec<Delivery> {
        let recent = self
            .recent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        recent.iter().cloned().collect()
    }

    /// How many deliveries the destinations took, and how many failed.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.sent.load(Ordering::Relaxed),
            self.failed.load(Ordering::Relaxed),
        )
    }

    /// Forgets every delivery (the admin API's reset).
    pub fn clear(&self) {
        self.recent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
        self.sent.store(0, Ordering::Relaxed);
        self.failed.store(0, Ordering::Relaxed);
    }
}
