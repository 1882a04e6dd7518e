//! `GET /metrics`: Prometheus text with per-queue gauges named after CloudWatch's SQS
//! metrics, per-topic and per-subscription counters named after CloudWatch's SNS metrics
//! (`sns`), and per-action request counters and latency histograms.
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

mod alarms;
mod processing;
mod queues;
mod sns;
mod triggers;

use crate::actions::Action;
use crate::alarms::Alarms;
use crate::engine::Registry as Queues;
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

    /// The counter of calls hit by a fault rule, lent to the fault rules to count their hits.
    pub fn fault_counter(&self) -> IntCounter {
        self.faults.clone()
    }

    /// The whole exposition, queue gauges read now, written to `out` as it goes (a streamed
    /// response body: 13 MB with 10,000 queues).
    pub fn write(&self, from: &Sources<'_>, out: &mut impl fmt::Write) -> fmt::Result {
        let now = from.now;
        // One list of the queues for every series, in the order they are listed in.
        let mut all = from.queues.sorted();
        crate::alarms::render::order_by_name(&mut all);
        let mut families = self.registry.gather();
        drop_unused_actions(&mut families);
        let mut encoded = Vec::new();
        match TextEncoder::new().encode(&families, &mut encoded) {
            Ok(()) => out.write_str(&String::from_utf8_lossy(&encoded))?,
            Err(e) => writeln!(out, "# cannot encode metrics: {e}")?,
        }
        processing::write(&all, now, out)?;
        queues::write_series(&all, now, out)?;
        sns::write_series(&from.sns.view(), out)?;
        triggers::write(&from.triggers.observe(), out)?;
        // Last, so the series above are already on their way while alarms are evaluated.
        let alarms = from.alarms.evaluate_ordered(from.queues, &all, now);
        alarms::write_metric(&alarms, out)
    }
}

/// What a scrape reads besides the request counters, lent by the composition root.
pub struct Sources<'a> {
    /// The SQS engine's queues.
    pub queues: &'a Queues,
    pub alarms: &'a Alarms,
    /// The SNS engine, read through its view.
    pub sns: &'a crate::sns::engine::Sns,
    /// The trigger mappings and their counters, read through their view.
    pub triggers: &'a crate::triggers::Triggers,
    /// The server's time the gauges are read at.
    pub now: crate::clock::Millis,
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
