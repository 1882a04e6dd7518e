//! `GET /metrics`: Prometheus text with per-queue gauges named after CloudWatch's SQS
//! metrics, and per-action request counters and latency histograms.
//!
//! Request series are registered once, indexed by the action's position in
//! [`Action::NAMES`], so a request costs a short name lookup and two atomic updates.
//! Queue series are read from the queues at scrape time into a registry built per scrape,
//! so deleted queues vanish and nothing on the SQS path writes them.

use std::time::Duration;

use prometheus::{
    Encoder, Gauge, GaugeVec, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec,
    Opts, Registry, TextEncoder,
};

use crate::actions::Action;
use crate::app::App;
use crate::engine::processing::Latencies;
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

    /// The whole exposition, queue gauges read now.
    pub fn render(&self, app: &App) -> String {
        let mut families = self.registry.gather();
        drop_unused_actions(&mut families);
        families.extend(queue_families(app));
        families.extend(processing_families(app));
        families.extend(crate::alarms::metric_families(app));
        let mut out = Vec::new();
        if let Err(e) = TextEncoder::new().encode(&families, &mut out) {
            return format!("# cannot encode metrics: {e}\n");
        }
        String::from_utf8(out).unwrap_or_default()
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

fn gauge(registry: &Registry, name: &str, help: &str) -> GaugeVec {
    let g = GaugeVec::new(Opts::new(name, help), &QUEUE_LABELS).expect("valid metric");
    registry.register(Box::new(g.clone())).expect("distinct");
    g
}

fn counter(registry: &Registry, name: &str, help: &str) -> IntCounterVec {
    let c = IntCounterVec::new(Opts::new(name, help), &QUEUE_LABELS).expect("valid metric");
    registry.register(Box::new(c.clone())).expect("distinct");
    c
}

/// One registry per scrape with every queue's current numbers.
fn queue_families(app: &App) -> Vec<prometheus::proto::MetricFamily> {
    let r = Registry::new();
    let visible = gauge(
        &r,
        "sqs_approximate_number_of_messages_visible",
        "Messages available for retrieval",
    );
    let not_visible = gauge(
        &r,
        "sqs_approximate_number_of_messages_not_visible",
        "Messages in flight",
    );
    let delayed = gauge(
        &r,
        "sqs_approximate_number_of_messages_delayed",
        "Messages delayed and not yet available",
    );
    let age = gauge(
        &r,
        "sqs_approximate_age_of_oldest_message_seconds",
        "Age of the oldest message, by the server clock",
    );
    let size = gauge(
        &r,
        "sqs_sent_message_size_bytes",
        "Average body size of the messages sent",
    );
    let sent = counter(
        &r,
        "sqs_number_of_messages_sent_total",
        "Messages added to the queue",
    );
    let received = counter(
        &r,
        "sqs_number_of_messages_received_total",
        "Messages returned by ReceiveMessage",
    );
    let deleted = counter(
        &r,
        "sqs_number_of_messages_deleted_total",
        "Messages deleted",
    );
    let empty = counter(
        &r,
        "sqs_number_of_empty_receives_total",
        "ReceiveMessage calls that returned nothing",
    );
    let dead = counter(
        &r,
        "sqslite_messages_dead_lettered_total",
        "Messages moved to the dead-letter queue",
    );
    let waiting = gauge(
        &r,
        "sqslite_receives_waiting",
        "Long-polling ReceiveMessage calls parked on the queue",
    );
    let now = app.now();
    for q in app.registry.all() {
        let labels = [
            q.key.name.as_str(),
            q.key.region.as_str(),
            q.key.account.as_str(),
        ];
        let (counts, oldest, stats) = {
            let state = q.lock(now);
            let s = &state.store;
            (
                (s.visible(), s.in_flight(), s.delayed()),
                s.oldest_enqueued_at(),
                state.stats.clone(),
            )
        };
        visible.with_label_values(&labels).set(counts.0 as f64);
        not_visible.with_label_values(&labels).set(counts.1 as f64);
        delayed.with_label_values(&labels).set(counts.2 as f64);
        let age_s = oldest.map_or(0, |t| now.saturating_sub(t) / 1000);
        age.with_label_values(&labels).set(age_s as f64);
        let avg = if stats.sent == 0 {
            0.0
        } else {
            stats.sent_bytes as f64 / stats.sent as f64
        };
        size.with_label_values(&labels).set(avg);
        sent.with_label_values(&labels).inc_by(stats.sent);
        received.with_label_values(&labels).inc_by(stats.received);
        deleted.with_label_values(&labels).inc_by(stats.deleted);
        empty
            .with_label_values(&labels)
            .inc_by(stats.empty_receives);
        dead.with_label_values(&labels).inc_by(stats.dead_lettered);
        waiting.with_label_values(&labels).set(q.waiting() as f64);
    }
    r.gather()
}

/// Observed processing times as Prometheus histograms built from each queue's buckets, and
/// the redelivered-then-deleted counter.
fn processing_families(app: &App) -> Vec<prometheus::proto::MetricFamily> {
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
    let now = app.now();
    let mut queues = app.registry.all();
    queues.sort_by(|a, b| a.key.cmp(&b.key));
    for q in queues {
        let p = q.lock(now).processing.clone();
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

/// A one-off gauge family, for series computed at scrape time elsewhere (alarms).
pub fn gauge_family(
    name: &str,
    help: &str,
    labels: &[&str],
    values: impl IntoIterator<Item = (Vec<String>, f64)>,
) -> Vec<prometheus::proto::MetricFamily> {
    let r = Registry::new();
    let Ok(g) = GaugeVec::new(Opts::new(name, help), labels) else {
        return Vec::new();
    };
    if r.register(Box::new(g.clone())).is_err() {
        return Vec::new();
    }
    for (label_values, v) in values {
        let refs: Vec<&str> = label_values.iter().map(String::as_str).collect();
        if let Ok(m) = g.get_metric_with_label_values(&refs) {
            Gauge::set(&m, v);
        }
    }
    r.gather()
}
