//! Observed processing time of one queue: how long consumers hold a message between its latest
//! receive and its DeleteMessage (or a ChangeMessageVisibility that extends it), kept so the
//! advisor can compare it with the VisibilityTimeout.
//!
//! Recording is O(1) under the queue lock the delete already holds and allocates nothing per
//! message: fixed buckets count every sample since the queue was created (the Prometheus
//! histogram), and a ring of the latest [`WINDOW`] samples gives the sliding p50/p99. The ring
//! is allocated once, on a queue's first sample, so idle queues carry only the counters.

use crate::clock::Millis;

/// How many of the latest samples the percentiles look at.
pub const WINDOW: usize = 512;

/// Upper bounds (ms) of the histogram buckets; a last, unbounded bucket follows.
pub const BUCKETS_MS: [u64; 14] = [
    10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000, 900_000, 3_600_000,
];

/// One kind of latency: cumulative buckets plus a sliding window of recent samples.
#[derive(Debug, Default, Clone)]
pub struct Latencies {
    /// Samples per bucket (not cumulative); the last entry is the overflow bucket.
    buckets: [u64; BUCKETS_MS.len() + 1],
    /// Samples since the queue was created.
    count: u64,
    /// Their total, in milliseconds.
    sum_ms: u64,
    /// The latest samples in milliseconds, boxed at the first.
    window: Option<Box<[u32; WINDOW]>>,
    /// Where the next sample goes in `window`.
    next: usize,
}

/// Percentiles of the window, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Samples in the window (at most [`WINDOW`]).
    pub samples: u64,
    /// The median.
    pub p50_ms: u64,
    /// The 99th percentile.
    pub p99_ms: u64,
    /// The longest.
    pub max_ms: u64,
}

impl Latencies {
    /// No samples yet.
    const EMPTY: Latencies = Latencies {
        buckets: [0; BUCKETS_MS.len() + 1],
        count: 0,
        sum_ms: 0,
        window: None,
        next: 0,
    };

    /// Adds one sample, in milliseconds.
    pub fn record(&mut self, ms: Millis) {
        let bucket = BUCKETS_MS
            .iter()
            .position(|bound| ms <= *bound)
            .unwrap_or(BUCKETS_MS.len());
        self.buckets[bucket] += 1;
        self.count += 1;
        self.sum_ms = self.sum_ms.saturating_add(ms);
        let window = self.window.get_or_insert_with(|| Box::new([0; WINDOW]));
        window[self.next] = u32::try_from(ms).unwrap_or(u32::MAX);
        self.next = (self.next + 1) % WINDOW;
    }

    /// The buckets, count and sum without the window of recent samples (what a scrape needs).
    #[must_use]
    pub fn without_window(&self) -> Latencies {
        Latencies {
            buckets: self.buckets,
            count: self.count,
            sum_ms: self.sum_ms,
            window: None,
            next: 0,
        }
    }

    /// Every sample since the queue was created.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The total of every sample, in milliseconds.
    pub fn sum_ms(&self) -> u64 {
        self.sum_ms
    }

    /// `(upper bound in ms, samples at or below it)` per bucket, cumulative as Prometheus
    /// wants them; the overflow bucket is `count()`.
    pub fn cumulative(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        BUCKETS_MS
            .iter()
            .zip(self.buckets.iter())
            .scan(0, |acc, (bound, n)| {
                *acc += n;
                Some((*bound, *acc))
            })
    }

    /// p50, p99 and max of the latest samples (nearest rank); `None` before the first.
    pub fn summary(&self) -> Option<Summary> {
        let window = self.window.as_ref()?;
        let filled = usize::try_from(self.count).map_or(WINDOW, |c| c.min(WINDOW));
        let mut sorted = **window;
        let sorted = &mut sorted[..filled];
        sorted.sort_unstable();
        let rank = |p: usize| u64::from(sorted[(filled * p).div_ceil(100).max(1) - 1]);
        Some(Summary {
            samples: filled as u64,
            p50_ms: rank(50),
            p99_ms: rank(99),
            max_ms: u64::from(sorted[filled - 1]),
        })
    }
}

/// What one queue's consumers were seen doing. A queue allocates its own on the first
/// sample ([`crate::sqs::engine::queue::QueueState::processing`]); until then it reads
/// [`Processing::none`] (300 bytes an idle queue does not carry).
#[derive(Debug, Default, Clone)]
pub struct Processing {
    /// Latest receive to DeleteMessage.
    pub deleted: Latencies,
    /// Latest receive to a ChangeMessageVisibility that kept the message hidden (a heartbeat).
    pub extended: Latencies,
    /// Messages deleted after two or more receives: work that finished, but only after the
    /// visibility timeout had already handed it out again.
    pub redelivered_then_deleted: u64,
}

impl Processing {
    /// Nothing observed, shared by every queue that has no sample yet.
    pub fn none() -> &'static Processing {
        static NONE: Processing = Processing {
            deleted: Latencies::EMPTY,
            extended: Latencies::EMPTY,
            redelivered_then_deleted: 0,
        };
        &NONE
    }

    /// A message received `receive_count` times, last at `received_at`, deleted at `now`.
    pub fn on_delete(&mut self, received_at: Option<Millis>, receive_count: u32, now: Millis) {
        if let Some(at) = received_at {
            self.deleted.record(now.saturating_sub(at));
        }
        if receive_count >= 2 {
            self.redelivered_then_deleted += 1;
        }
    }

    /// A visibility change at `now` on a message last received at `received_at`.
    pub fn on_extend(&mut self, received_at: Option<Millis>, now: Millis) {
        if let Some(at) = received_at {
            self.extended.record(now.saturating_sub(at));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let mut l = Latencies::default();
        assert_eq!(l.summary(), None);
        for ms in 1..=100 {
            l.record(ms * 10);
        }
        let s = l.summary().unwrap();
        assert_eq!(
            (s.samples, s.p50_ms, s.p99_ms, s.max_ms),
            (100, 500, 990, 1000)
        );
        assert_eq!(l.count(), 100);
        assert_eq!(l.sum_ms(), 50_500);
    }

    #[test]
    fn the_window_slides() {
        let mut l = Latencies::default();
        for _ in 0..WINDOW {
            l.record(60_000);
        }
        for _ in 0..WINDOW {
            l.record(100);
        }
        let s = l.summary().unwrap();
        assert_eq!((s.samples, s.p99_ms, s.max_ms), (WINDOW as u64, 100, 100));
        // The cumulative buckets keep everything.
        let buckets: Vec<(u64, u64)> = l.cumulative().collect();
        assert!(buckets.contains(&(100, WINDOW as u64)));
        assert!(buckets.contains(&(60_000, 2 * WINDOW as u64)));
        assert_eq!(l.count(), 2 * WINDOW as u64);
    }

    #[test]
    fn overflow_and_redeliveries() {
        let mut p = Processing::default();
        p.on_delete(Some(0), 1, u64::from(u32::MAX) + 5);
        p.on_delete(Some(10), 3, 20);
        p.on_delete(None, 2, 20);
        assert_eq!(p.deleted.count(), 2);
        assert_eq!(p.redelivered_then_deleted, 2);
        assert_eq!(p.deleted.summary().unwrap().max_ms, u64::from(u32::MAX));
        assert_eq!(p.deleted.cumulative().last(), Some((3_600_000, 1)));
    }
}
