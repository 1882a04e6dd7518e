//! Lambda-style triggers: event source mappings that poll an SQS queue and invoke a declared
//! function with Lambda's SQS event, as Lambda's event source mapping does.
//!
//! A third service beside SQS and SNS. The model ([`mapping`], [`registry`], [`functions`])
//! is what the Lambda management API and `sqslite.toml` ([`declare`]) edit; the runtime
//! polls the queues of enabled mappings through the SQS engine's own receive.

pub mod api;
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

use std::sync::Arc;

use dashmap::DashMap;

pub use declare::MappingDecl;
pub use functions::{Function, Functions, Target};
pub use mapping::{Filters, FunctionResponseType, Mapping, RuleError, Settings, State};
pub use registry::Mappings;

/// `[[functions]]` and `[[event_source_mappings]]` from `sqslite.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TriggersConfig {
    /// The functions mappings may invoke.
    pub functions: Vec<Function>,
    /// The mappings to add before the port opens.
    pub mappings: Vec<MappingDecl>,
}

/// The triggers service's state: its mappings and the functions they may invoke.
#[derive(Debug, Default)]
pub struct Triggers {
    /// Every event source mapping, by UUID.
    pub mappings: Mappings,
    /// The declared functions.
    pub functions: Functions,
    /// Each mapping's counters, by UUID.
    stats: DashMap<String, Arc<stats::Stats>>,
}

impl Triggers {
    /// A service over the declared functions, with no mappings yet.
    pub fn new(functions: Vec<Function>) -> Self {
        Triggers::with_mappings(functions, Mappings::new())
    }

    /// A service over the declared functions and mappings recovered from a data directory.
    pub fn with_mappings(functions: Vec<Function>, mappings: Mappings) -> Self {
        Triggers {
            mappings,
            functions: Functions::new(functions),
            stats: DashMap::new(),
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
