//! The per-action request counters and latency histograms, kept in shards by thread.
//!
//! Every SQS request updates them, from every worker. prometheus's `Histogram` and
//! `IntCounter` are one set of atomics shared by all threads: five read-modify-writes a
//! request on cache lines the other cores wrote last, each a transfer between cores that an
//! instruction count does not show. Here each thread adds to its own shard with relaxed
//! additions, and a scrape sums the shards, so a request's updates stay in its core's cache.
//! The exposition is the same families prometheus wrote (names, help, labels, buckets).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use prometheus::proto::{Bucket, Counter, Histogram, LabelPair, Metric, MetricFamily, MetricType};

/// Shards; threads beyond this many share them, which stays correct, only slower.
const SHARDS: usize = 8;

const OUTCOMES: [&str; 3] = ["success", "client_error", "server_error"];

/// Upper bounds of the latency buckets, in seconds.
pub(super) const LATENCY_BUCKETS: [f64; 15] = [
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0,
];

/// One action's figures in one shard. Aligned to a cache line so two actions' series never
/// share one (a shard is written by one thread, but its neighbour in memory may not be).
#[repr(align(64))]
#[derive(Default)]
struct Series {
    /// Requests by outcome, in [`OUTCOMES`] order.
    outcomes: [AtomicU64; 3],
    /// Observations by bucket: `buckets[i]` counts those in `(bound[i-1], bound[i]]`, the
    /// last those above every bound. Cumulative counts are summed at scrape time.
    buckets: [AtomicU64; LATENCY_BUCKETS.len() + 1],
    /// Total latency, in nanoseconds: integer, so the shards add up exactly.
    nanos: AtomicU64,
}

/// See the module docs.
pub(super) struct Requests {
    /// Each series' service and action name; each service's last counts its requests naming
    /// no action it knows.
    names: Vec<(&'static str, &'static str)>,
    /// `shards[shard][action]`.
    shards: Vec<Box<[Series]>>,
}

impl Requests {
    /// Series for `names`, each a service and an action.
    pub(super) fn new(names: Vec<(&'static str, &'static str)>) -> Self {
        let shards = (0..SHARDS)
            .map(|_| names.iter().map(|_| Series::default()).collect())
            .collect();
        Requests { names, shards }
    }

    /// Counts one request of action `index` with outcome `outcome` (an index of [`OUTCOMES`]).
    pub(super) fn observe(&self, index: usize, outcome: usize, elapsed: Duration) {
        let Some(series) = self.shards[shard()].get(index) else {
            return;
        };
        let seconds = elapsed.as_secs_f64();
        let bucket = LATENCY_BUCKETS.partition_point(|bound| *bound < seconds);
        let nanos = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        series.outcomes[outcome].fetch_add(1, Ordering::Relaxed);
        series.buckets[bucket].fetch_add(1, Ordering::Relaxed);
        series.nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// `sqslite_requests_total` and `sqslite_request_duration_seconds`, with a series only for
    /// what was called: some 70 all-zero series would list every action never called.
    pub(super) fn families(&self) -> Vec<MetricFamily> {
        let mut counts = Vec::new();
        let mut latencies = Vec::new();
        // By name, as prometheus's registry lists series.
        let mut order: Vec<(usize, &(&str, &str))> = self.names.iter().enumerate().collect();
        order.sort_by_key(|(_, (service, name))| (*name, *service));
        for (index, (service, name)) in order {
            let sum = |pick: &dyn Fn(&Series) -> &AtomicU64| -> u64 {
                self.shards
                    .iter()
                    .map(|shard| pick(&shard[index]).load(Ordering::Relaxed))
                    .sum()
            };
            for (o, outcome) in OUTCOMES.iter().enumerate() {
                let n = sum(&|s| &s.outcomes[o]);
                if n > 0 {
                    let mut counter = Counter::default();
                    counter.set_value(n as f64);
                    let mut m =
                        labelled(&[("action", name), ("outcome", outcome), ("service", service)]);
                    m.set_counter(counter);
                    counts.push(m);
                }
            }
            let per_bucket: Vec<u64> = (0..=LATENCY_BUCKETS.len())
                .map(|b| sum(&|s| &s.buckets[b]))
                .collect();
            let total: u64 = per_bucket.iter().sum();
            if total > 0 {
                let mut histogram = Histogram::default();
                histogram.set_sample_count(total);
                histogram.set_sample_sum(sum(&|s| &s.nanos) as f64 / 1e9);
                histogram.set_bucket(cumulative(&per_bucket));
                let mut m = labelled(&[("action", name), ("service", service)]);
                m.set_histogram(histogram);
                latencies.push(m);
            }
        }
        [
            (
                "sqslite_requests_total",
                "API requests by service, action and outcome",
                MetricType::COUNTER,
                counts,
            ),
            (
                "sqslite_request_duration_seconds",
                "API request latency by service and action (wall time, long polls included)",
                MetricType::HISTOGRAM,
                latencies,
            ),
        ]
        .into_iter()
        // The text encoder refuses a family without series.
        .filter(|(_, _, _, metrics)| !metrics.is_empty())
        .map(|(name, help, kind, metrics)| family(name, help, kind, metrics))
        .collect()
    }
}

fn family(name: &str, help: &str, kind: MetricType, metrics: Vec<Metric>) -> MetricFamily {
    let mut family = MetricFamily::default();
    family.set_name(name.to_owned());
    family.set_help(help.to_owned());
    family.set_field_type(kind);
    family.set_metric(metrics);
    family
}

/// The buckets with their cumulative counts; the last (above every bound) is `+Inf`, which
/// the encoder writes from the sample count.
fn cumulative(per_bucket: &[u64]) -> Vec<Bucket> {
    let mut running = 0;
    LATENCY_BUCKETS
        .iter()
        .zip(per_bucket)
        .map(|(bound, n)| {
            running += n;
            let mut bucket = Bucket::default();
            bucket.set_upper_bound(*bound);
            bucket.set_cumulative_count(running);
            bucket
        })
        .collect()
}

fn labelled(labels: &[(&str, &str)]) -> Metric {
    let pairs = labels
        .iter()
        .map(|(name, value)| {
            let mut pair = LabelPair::default();
            pair.set_name((*name).to_owned());
            pair.set_value((*value).to_owned());
            pair
        })
        .collect();
    Metric::from_label(pairs)
}

/// This thread's shard: handed out in turn as threads first count, so the few worker threads
/// each get their own.
fn shard() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static SHARD: usize = NEXT.fetch_add(1, Ordering::Relaxed) % SHARDS;
    }
    SHARD.with(|s| *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_add_up_to_one_exposition() {
        let requests = std::sync::Arc::new(Requests::new(vec![
            ("sqs", "SendMessage"),
            ("sqs", "Unknown"),
        ]));
        let threads: Vec<_> = (0..3)
            .map(|_| {
                let requests = requests.clone();
                std::thread::spawn(move || {
                    requests.observe(0, 0, Duration::from_micros(300));
                    requests.observe(0, 1, Duration::from_millis(3));
                    requests.observe(0, 0, Duration::from_secs(30));
                })
            })
            .collect();
        for t in threads {
            t.join().expect("thread");
        }
        let mut text = Vec::new();
        prometheus::Encoder::encode(
            &prometheus::TextEncoder::new(),
            &requests.families(),
            &mut text,
        )
        .expect("encodes");
        let text = String::from_utf8(text).expect("utf-8");
        for line in [
            r#"sqslite_requests_total{action="SendMessage",outcome="success",service="sqs"} 6"#,
            r#"sqslite_requests_total{action="SendMessage",outcome="client_error",service="sqs"} 3"#,
            r#"sqslite_request_duration_seconds_bucket{action="SendMessage",service="sqs",le="0.0005"} 3"#,
            r#"sqslite_request_duration_seconds_bucket{action="SendMessage",service="sqs",le="0.001"} 3"#,
            r#"sqslite_request_duration_seconds_bucket{action="SendMessage",service="sqs",le="0.005"} 6"#,
            r#"sqslite_request_duration_seconds_bucket{action="SendMessage",service="sqs",le="20"} 6"#,
            r#"sqslite_request_duration_seconds_bucket{action="SendMessage",service="sqs",le="+Inf"} 9"#,
            r#"sqslite_request_duration_seconds_sum{action="SendMessage",service="sqs"} 90.0099"#,
            r#"sqslite_request_duration_seconds_count{action="SendMessage",service="sqs"} 9"#,
        ] {
            assert!(text.contains(line), "{line} missing from\n{text}");
        }
        assert!(!text.contains("Unknown"), "unused series are left out");
        assert!(!text.contains("server_error"));
    }
}
