//! `GET /metrics`: Prometheus text with per-queue gauges named after CloudWatch's SQS
//! metrics, per-topic and per-subscription counters named after CloudWatch's SNS metrics
//! (`sns`), and per-action request counters and latency histograms.
//!
//! Request series are kept in shards by thread (`requests`), indexed by the action's position
//! in [`Action::NAMES`], so a request costs a short name lookup and three relaxed additions
//! to cache lines its own core holds.
//! Queue series are read from the queues at scrape time and written straight as text, so
//! deleted queues vanish, nothing on the SQS path writes them, and 10,000 queues cost one
//! short lock each and no registry.

use std::fmt;
use std::time::Duration;

use prometheus::{Encoder, IntCounter, Registry, TextEncoder};

mod alarms;
mod processing;
mod queues;
mod requests;
mod s3;
mod sns;
mod triggers;

use crate::observe::alarms::Alarms;
use crate::sqs::actions::Action;
use crate::sqs::engine::Registry as Queues;

const UNKNOWN: &str = "Unknown";

pub struct Metrics {
    registry: Registry,
    /// Per action (by its index in [`Action::NAMES`]; the last for requests naming no known
    /// action): requests by outcome and their latency.
    requests: requests::Requests,
    /// Where each service's series start in `requests`, in [`SERVICES`] order.
    starts: Vec<usize>,
    faults: IntCounter,
}

/// The services whose requests are counted, SQS first (its series start at 0), each with its
/// action list.
const SERVICES: &[(&str, &[&str])] = &[
    ("sqs", Action::NAMES),
    (
        <crate::sns::Service as crate::http::service::Service>::NAME,
        <crate::sns::Service as crate::http::service::Service>::ACTIONS,
    ),
    (
        <crate::triggers::Service as crate::http::service::Service>::NAME,
        <crate::triggers::Service as crate::http::service::Service>::ACTIONS,
    ),
    (
        <crate::sts::Service as crate::http::service::Service>::NAME,
        <crate::sts::Service as crate::http::service::Service>::ACTIONS,
    ),
    (
        <crate::s3::Service as crate::http::service::Service>::NAME,
        <crate::s3::Service as crate::http::service::Service>::ACTIONS,
    ),
];

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// Registration cannot fail for this fixed name.
    pub fn new() -> Self {
        let registry = Registry::new();
        let faults = IntCounter::new("sqslite_faults_injected_total", "Calls hit by a fault rule")
            .expect("valid metric");
        registry
            .register(Box::new(faults.clone()))
            .expect("distinct metric names");
        let mut names = Vec::new();
        let mut starts = Vec::new();
        for (service, actions) in SERVICES {
            starts.push(names.len());
            names.extend(actions.iter().chain([&UNKNOWN]).map(|a| (*service, *a)));
        }
        Metrics {
            registry,
            requests: requests::Requests::new(names),
            starts,
            faults,
        }
    }

    /// Counts one finished request of a service (`service` as the router names it), its
    /// outcome told by its status; `known` is the action's position in the service's list
    /// when the service found it already.
    pub fn observe_service(
        &self,
        service: &str,
        (action, known): (&str, Option<usize>),
        status: u16,
        elapsed: Duration,
    ) {
        let Some(i) = SERVICES.iter().position(|(s, _)| *s == service) else {
            return;
        };
        let actions = SERVICES[i].1;
        let position = known.or_else(|| actions.iter().position(|n| *n == action));
        let index = self.starts[i] + position.unwrap_or(actions.len());
        let outcome = match status {
            500.. => 2,
            400.. => 1,
            _ => 0,
        };
        self.requests.observe(index, outcome, elapsed);
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
        crate::observe::alarms::render::order_by_name(&mut all);
        let mut families = self.registry.gather();
        families.extend(self.requests.families());
        families.sort_by(|a, b| a.name().cmp(b.name()));
        let mut encoded = Vec::new();
        match TextEncoder::new().encode(&families, &mut encoded) {
            Ok(()) => out.write_str(&String::from_utf8_lossy(&encoded))?,
            Err(e) => writeln!(out, "# cannot encode metrics: {e}")?,
        }
        processing::write(&all, now, out)?;
        queues::write_series(&all, now, out)?;
        sns::write_series(&from.sns.view(), out)?;
        triggers::write(&from.triggers.observe(), out)?;
        s3::write(from.s3, out)?;
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
    /// What became of the buckets' events.
    pub s3: &'a crate::s3::notify::deliveries::Deliveries,
    /// The server's time the gauges are read at.
    pub now: crate::clock::Millis,
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
