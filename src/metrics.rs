//! `GET /metrics`: Prometheus text with per-queue gauges named after CloudWatch's SQS
//! metrics, and per-action request counters and latency histograms.
//!
//! Request series are registered once, indexed by the action's position in
//! [`Action::NAMES`], so a request costs a short name lookup and two atomic updates.
//! Queue series are read from the queues at scrape time and written straight as text, so
//! deleted queues vanish, nothing on the SQS path writes them, and 10,000 queues cost one
//! short lock each and no registry.

use std::fmt;
use std::time::Duration;

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, Opts, Registry,
    TextEncoder,
};

mod queues;

use std::sync::Arc;

use crate::actions::Action;
use crate::app::App;
use crate::clock::Millis;
use crate::engine::processing::Latencies;
use crate::engine::queue::Queue;
use crate::error::{Fault, SqsError};

const OUTCOMES: [&str; 3] = ["success", "client_error", "server_error"];
const UNKNOWN: &str = "Unknown";
const LATENCY_BUCKETS: &[f64] = &[
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0,
];

pub struct Metrics {
    registry: Registry,
    /// `[action][outcome]`; the last row counts requests naming no known action.
    requests: Vec<[IntCounter; 3]>,
    latency: Vec<Histogram>,
    faults: IntCounter,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// Registration cannot fail for these fixed, distinct names.
    pub fn new() -> Self {
        let registry = Registry::new();
        let requests_vec = IntCounterVec::new(
            Opts::new(
                "sqslite_requests_total",
                "SQS API requests by action and outcome",
            ),
            &["action", "outcome"],
        )
        .expect("valid metric");
        let latency_vec = HistogramVec::new(
            HistogramOpts::new(
                "sqslite_request_duration_seconds",
                "SQS API request latency (wall time, long polls included)",
            )
            .buckets(LATENCY_BUCKETS.to_vec()),
            &["action"],
        )
        .expect("valid metric");
        let faults = IntCounter::new("sqslite_faults_injected_total", "Calls hit by a fault rule")
            .expect("valid metric");
        let names = Action::NAMES.iter().copied().chain([UNKNOWN]);
        let requests = names
            .clone()
            .map(|a| OUTCOMES.map(|o| requests_vec.with_label_values(&[a, o])))
            .collect();
        let latency = names.map(|a| latency_vec.with_label_values(&[a])).collect();
        for c in [
            Box::new(requests_vec) as Box<dyn prometheus::core::Collector>,
            Box::new(latency_vec),
            Box::new(faults.clone()),
        ] {
            registry.register(c).expect("distinct metric names");
        }
        Metrics {
            registry,
            requests,
            latency,
            faults,
        }
    }

    /// Counts one finished SQS request.
    pub fn observe(&self, action: &str, error: Option<&SqsError>, elapsed: Duration) {
        let index = Action::NAMES
            .iter()
            .position(|n| *n == action)
            .unwrap_or(Action::NAMES.len());
        let outcome = match error.map(|e| e.kind.fault()) {
            None => 0,
            Some(Fault::Sender) => 1,
            Some(Fault::Receiver) => 2,
        };
        self.requests[index][outcome].inc();
        self.latency[index].observe(elapsed.as_secs_f64());
    }

    pub fn fault_injected(&self) {
        self.faults.inc();
    }

    /// The whole exposition, queue gauges read now, written to `out` as it goes (a streamed
    /// response body: 13 MB with 10,000 queues).
    pub fn write(&self, app: &App, out: &mut impl fmt::Write) -> fmt::Result {
        // One list of the queues for every series, in the order they are listed in.
        let mut all = app.registry.sorted();
        crate::alarms::render::order_by_name(&mut all);
        let now = app.now();
        let mut families = self.registry.gather();
        drop_unused_actions(&mut families);
        families.extend(processing_families(&all, now));
        let mut encoded = Vec::new();
        match TextEncoder::new().encode(&families, &mut encoded) {
            Ok(()) => out.write_str(&String::from_utf8_lossy(&encoded))?,
            Err(e) => writeln!(out, "# cannot encode metrics: {e}")?,
        }
        queues::write_series(&all, now, out)?;
        // Last, so the series above are already on their way while alarms are evaluated.
        let alarms = app.alarms.evaluate_ordered(app, &all, now);
        crate::alarms::render::write_metric(&alarms, out)
    }

    /// [`Metrics::write`] into a string.
    pub fn render(&self, app: &App) -> String {
        let mut text = String::new();
        let _ = self.write(app, &mut text);
        text
    }
}

/// Per-action series are registered up front (no lookup on the request path), so a scrape
/// would list some 70 all-zero series for actions never called; only called ones are shown.
fn drop_unused_actions(families: &mut Vec<prometheus::proto::MetricFamily>) {
    for family in families.iter_mut() {
        match family.name() {
            "sqslite_requests_total" => family
                .mut_metric()
                .retain(|m| m.get_counter().get_value() > 0.0),
            "sqslite_request_duration_seconds" => family
                .mut_metric()
                .retain(|m| m.get_histogram().get_sample_count() > 0),
            _ => {}
        }
    }
    // The text encoder refuses a family without series.
    families.retain(|f| !f.get_metric().is_empty());
}

const QUEUE_LABELS: [&str; 3] = ["queue", "region", "account"];

/// What a scrape copies out of a queue's [`crate::engine::processing::Processing`].
struct Observed {
    deleted: Latencies,
    extended: Latencies,
    redelivered_then_deleted: u64,
}

/// Observed processing times as Prometheus histograms built from each queue's buckets, and
/// the redelivered-then-deleted counter.
fn processing_families(all: &[Arc<Queue>], now: Millis) -> Vec<prometheus::proto::MetricFamily> {
    use prometheus::proto::{MetricFamily, MetricType};
    let family = |name: &str, help: &str, kind| {
        let mut f = MetricFamily::default();
        f.set_name(name.to_owned());
        f.set_help(help.to_owned());
        f.set_field_type(kind);
        f
    };
    let mut delete = family(
        "sqslite_processing_seconds",
        "Latest receive to DeleteMessage, per message",
        MetricType::HISTOGRAM,
    );
    let mut extend = family(
        "sqslite_visibility_extension_seconds",
        "Latest receive to a ChangeMessageVisibility extending it",
        MetricType::HISTOGRAM,
    );
    let mut redelivered = family(
        "sqslite_redelivered_then_deleted_total",
        "Messages deleted after two or more receives",
        MetricType::COUNTER,
    );
    // Only queues that have seen a delete or an extension: with 10,000 idle queues, empty
    // histograms were 45 MB of a 50 MB scrape. The window is not cloned (2 KiB a queue).
    let queues = all.iter().filter_map(|q| {
        let state = q.lock(now);
        let p = state.processing();
        if p.deleted.count() == 0 && p.extended.count() == 0 {
            return None;
        }
        let copy = (
            p.deleted.without_window(),
            p.extended.without_window(),
            p.redelivered_then_deleted,
        );
        drop(state);
        Some((q, copy))
    });
    for (q, (deleted, extended, redelivered_then_deleted)) in queues {
        let p = Observed {
            deleted,
            extended,
            redelivered_then_deleted,
        };
        let labels = [&q.key.name, &q.key.region, &q.key.account];
        delete.mut_metric().push(histogram(&labels, &p.deleted));
        extend.mut_metric().push(histogram(&labels, &p.extended));
        let mut m = metric(&labels);
        let mut c = prometheus::proto::Counter::default();
        c.set_value(p.redelivered_then_deleted as f64);
        m.set_counter(c);
        redelivered.mut_metric().push(m);
    }
    [delete, extend, redelivered]
        .into_iter()
        .filter(|f| !f.get_metric().is_empty())
        .collect()
}

fn metric(values: &[&String; 3]) -> prometheus::proto::Metric {
    let labels = QUEUE_LABELS
        .iter()
        .zip(values)
        .map(|(name, value)| {
            let mut l = prometheus::proto::LabelPair::default();
            l.set_name((*name).to_owned());
            l.set_value((*value).clone());
            l
        })
        .collect();
    let mut m = prometheus::proto::Metric::default();
    m.set_label(labels);
    m
}

fn histogram(labels: &[&String; 3], l: &Latencies) -> prometheus::proto::Metric {
    let buckets = l
        .cumulative()
        .map(|(bound_ms, n)| {
            let mut b = prometheus::proto::Bucket::default();
            b.set_upper_bound(bound_ms as f64 / 1000.0);
            b.set_cumulative_count(n);
            b
        })
        .collect();
    let mut h = prometheus::proto::Histogram::default();
    h.set_sample_count(l.count());
    h.set_sample_sum(l.sum_ms() as f64 / 1000.0);
    h.set_bucket(buckets);
    let mut m = metric(labels);
    m.set_histogram(h);
    m
}

/// A label value escaped as the text format asks (`\\`, `"` and newline); queue names cannot
/// need it, regions and accounts from credentials might.
pub(crate) fn escape(v: &str) -> std::borrow::Cow<'_, str> {
    if v.bytes().any(|b| matches!(b, b'\\' | b'"' | b'\n')) {
        v.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n")
            .into()
    } else {
        v.into()
    }
}
