//! Lambda-style triggers: event source mappings that poll an SQS queue and invoke a declared
//! function with Lambda's SQS event, as Lambda's event source mapping does.
//!
//! A third service beside SQS and SNS. The model ([`mapping`], [`registry`], [`functions`])
//! is what the Lambda management API and `sqslite.toml` ([`declare`]) edit; the runtime
//! polls the queues of enabled mappings through the SQS engine's own receive.

pub mod api;
pub(crate) mod command;
pub mod declare;
pub mod event;
pub mod functions;
pub mod invoke;
pub mod journal;
pub mod mapping;
pub mod poller;
pub mod registry;
pub mod response;
pub mod runtime;
pub mod stats;
pub(crate) mod sweep;

use std::sync::Arc;

use dashmap::DashMap;

pub use declare::MappingDecl;
pub use functions::{Function, Functions, Target};
pub use mapping::Mapping;
#[cfg(test)]
pub use mapping::Settings;
pub use registry::Mappings;

/// `[[functions]]` and `[[event_source_mappings]]` from `sqslite.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TriggersConfig {
    /// The functions mappings may invoke.
    pub functions: Vec<Function>,
    /// The mappings to add before the port opens.
    pub mappings: Vec<MappingDecl>,
    /// `max_event_source_mappings`: how many mappings the server holds; `None`,
    /// `DEFAULT_MAX_MAPPINGS`.
    pub max_mappings: Option<usize>,
}

/// How many event source mappings a server holds unless told otherwise. Lambda documents no
/// quota on them; this bound is sqslite's [unverified], so that CreateEventSourceMapping
/// cannot start pollers without end.
pub const DEFAULT_MAX_MAPPINGS: usize = 10_000;

/// The triggers service's state: its mappings and the functions they may invoke.
#[derive(Debug)]
pub struct Triggers {
    /// Every event source mapping, by UUID.
    pub mappings: Mappings,
    /// The declared functions.
    pub functions: Functions,
    /// Each mapping's counters, by UUID.
    stats: DashMap<String, Arc<stats::Stats>>,
    /// How many mappings CreateEventSourceMapping may make in all, and for each account.
    pub max_mappings: crate::quota::Quota,
}

impl Default for Triggers {
    fn default() -> Self {
        Triggers::with_mappings(Vec::new(), Mappings::default())
    }
}

impl Triggers {
    /// A service over the declared functions and mappings recovered from a data directory.
    pub fn with_mappings(functions: Vec<Function>, mappings: Mappings) -> Self {
        Triggers {
            mappings,
            functions: Functions::new(functions),
            stats: DashMap::new(),
            max_mappings: crate::quota::Quota::whole(DEFAULT_MAX_MAPPINGS),
        }
    }

    /// The counters of one mapping, made on first use.
    pub fn stats_of(&self, uuid: &str) -> Arc<stats::Stats> {
        self.stats.entry(uuid.to_owned()).or_default().clone()
    }

    /// Every mapping's counters with its mapping, by UUID: the read view `/metrics` uses.
    pub fn observe(&self) -> Vec<(Mapping, stats::Snapshot)> {
        self.mappings
            .list()
            .into_iter()
            .map(|m| {
                let snapshot = self
                    .stats
                    .get(&m.uuid)
                    .map(|s| s.snapshot())
                    .unwrap_or_default();
                (m, snapshot)
            })
            .collect()
    }

    /// Drops the counters of mappings that no longer exist.
    pub(crate) fn retain_stats(&self, keep: impl Fn(&str) -> bool) {
        self.stats.retain(|uuid, _| keep(uuid));
    }
}

/// Where a mapping's invocations and errors are counted: the dashboard chart's recorder, an
/// observer above this service, lent as this one method.
pub trait Tally: Send + Sync {
    /// Adds `n` to `field` of the series `name` about `subject` (the mapping's queue's ARN).
    fn count(
        &self,
        subject: &str,
        name: &str,
        field: &'static str,
        now: crate::clock::Millis,
        n: u64,
    );
}

/// The triggers service: its mappings and functions, the SQS service its pollers receive
/// from and delete through, the region and account function names resolve in, and what its
/// invocations meet beyond the queues (the Invoke fault rules, the chart's series). The
/// composition root builds it; its pollers hold it beyond any request.
pub struct Service {
    /// Event source mappings and the declared functions they invoke.
    pub model: Triggers,
    /// The queues mappings poll, through SQS's own receive and delete.
    pub sqs: Arc<crate::sqs::actions::Sqs>,
    /// The server's region and account (`[server]`).
    pub region: String,
    pub account_id: String,
    /// The fault rules an invocation is checked against (`"action": "Invoke"`).
    pub faults: Arc<crate::faults::Faults>,
    /// Each mapping's invocations and errors, drawn on its queue's chart.
    pub series: Arc<dyn Tally>,
    /// Where `url` and `invoke_url` functions may be called (the server's outbound rule).
    pub outbound: Arc<crate::http::outbound::Outbound>,
    /// Whether callers are verified (`[[credentials]]`): pollers then read their queues as
    /// their mapping's account, by the queue's Policy, as SQS clients are checked.
    pub authenticated: bool,
}

impl Service {
    /// The service over `sqs` with `triggers`' mappings and functions, in `region` and
    /// `account_id`, its invocations meeting `faults` and counted in `series`.
    pub fn new(
        triggers: Triggers,
        sqs: Arc<crate::sqs::actions::Sqs>,
        (region, account_id): (&str, &str),
        faults: Arc<crate::faults::Faults>,
        series: Arc<dyn Tally>,
    ) -> Self {
        Service {
            model: triggers,
            sqs,
            region: region.to_owned(),
            account_id: account_id.to_owned(),
            faults,
            series,
            outbound: Arc::default(),
            authenticated: false,
        }
    }

    /// The server's time now.
    pub fn now(&self) -> crate::clock::Millis {
        self.sqs.now()
    }
}
