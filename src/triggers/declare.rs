//! `[[event_source_mappings]]`: mappings declared in `sqslite.toml`, checked by the same model
//! rules as the Lambda API's and added before the port opens.

use std::sync::Arc;

use super::functions::Functions;
use super::mapping::{Filters, FunctionResponseType, Mapping, Settings};
use super::registry::Mappings;
use crate::clock::Millis;
use crate::sqs::engine::arn::QueueKey;
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;

/// One declared mapping, as the config file wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MappingDecl {
    /// A declared function's name or ARN.
    pub function: String,
    /// A queue name (the server's region and account) or ARN.
    pub queue: String,
    /// `BatchSize`; Lambda's default 10.
    pub batch_size: u32,
    /// `MaximumBatchingWindowInSeconds`; default 0.
    pub maximum_batching_window: u32,
    /// `FunctionResponseTypes`, by Lambda's names.
    pub function_response_types: Vec<String>,
    /// `ScalingConfig.MaximumConcurrency`.
    pub maximum_concurrency: Option<u32>,
    /// `Enabled`; default true.
    pub enabled: bool,
    /// `FilterCriteria.Filters[].Pattern`.
    pub filters: Vec<String>,
    /// Where it was declared (`file:line`), to point errors at it.
    pub origin: Option<String>,
}

impl MappingDecl {
    /// A mapping of `queue` to `function` with Lambda's defaults.
    pub fn new(function: impl Into<String>, queue: impl Into<String>) -> Self {
        MappingDecl {
            function: function.into(),
            queue: queue.into(),
            batch_size: super::mapping::DEFAULT_BATCH_SIZE,
            maximum_batching_window: 0,
            function_response_types: Vec::new(),
            maximum_concurrency: None,
            enabled: true,
            filters: Vec::new(),
            origin: None,
        }
    }

    /// The settings this declaration asks for, before the queue-kind rules.
    pub fn settings(&self) -> Result<Settings, String> {
        let function_response_types = self
            .function_response_types
            .iter()
            .map(|t| {
                FunctionResponseType::parse(t).ok_or_else(|| {
                    format!("function_response_types: `{t}` is not ReportBatchItemFailures")
                })
            })
            .collect::<Result<_, _>>()?;
        let filters =
            Filters::parse(self.filters.clone()).map_err(|e| format!("filters: {}", e.reason()))?;
        Ok(Settings {
            batch_size: self.batch_size,
            maximum_batching_window_seconds: self.maximum_batching_window,
            function_response_types,
            maximum_concurrency: self.maximum_concurrency,
            filters,
        })
    }
}

/// The queue a mapping's `queue` (name or ARN) names, in the server's region and account
/// for a bare name.
pub fn find_queue(
    registry: &Registry,
    name_or_arn: &str,
    region: &str,
    account: &str,
) -> Option<Arc<Queue>> {
    if name_or_arn.starts_with("arn:") {
        registry.get_by_arn(name_or_arn)
    } else {
        registry
            .get(&QueueKey::new(region, account, name_or_arn))
            .ok()
    }
}

/// The parts a declaration is resolved against.
pub struct Scope<'a> {
    pub registry: &'a Registry,
    pub functions: &'a Functions,
    pub region: &'a str,
    pub account: &'a str,
    pub now: Millis,
}

/// Checks a declaration and adds its mapping, already settled (`Enabled` or `Disabled`): a
/// declared mapping exists before anything can observe it being created. A mapping of the
/// same queue and function already there (recovered from the data directory) is the
/// declared one: it keeps its UUID and takes the declared settings, as a declared queue
/// takes its declared attributes.
pub fn declare(decl: &MappingDecl, scope: &Scope<'_>, into: &Mappings) -> Result<Mapping, String> {
    let at = decl
        .origin
        .as_deref()
        .map_or_else(String::new, |o| format!(" ({o})"));
    let function = scope
        .functions
        .resolve(&decl.function, scope.region, scope.account)
        .ok_or_else(|| format!("mapping{at}: no declared function `{}`", decl.function))?;
    let queue = find_queue(scope.registry, &decl.queue, scope.region, scope.account)
        .ok_or_else(|| format!("mapping{at}: no queue `{}`", decl.queue))?;
    let settings = decl.settings().map_err(|e| format!("mapping{at}: {e}"))?;
    settings
        .validate(queue.fifo)
        .map_err(|e| format!("mapping{at}: {}", e.message()))?;
    let visibility = queue
        .lock_settled(scope.now)
        .attributes()
        .visibility_timeout;
    super::mapping::check_visibility(visibility, function.timeout)
        .map_err(|e| format!("mapping{at}: {}", e.message()))?;
    let mut mapping = Mapping::new(
        function.arn(scope.region, scope.account),
        queue.arn(),
        settings,
        decl.enabled,
        scope.now,
    );
    mapping.state = mapping.settled_state();
    let stored = into.list().into_iter().find(|m| {
        m.function_arn == mapping.function_arn && m.event_source_arn == mapping.event_source_arn
    });
    let Some(stored) = stored else {
        return Ok(into.insert(mapping));
    };
    let updated = into.update(&stored.uuid, |m| {
        if m.settings != mapping.settings
            || m.enabled != mapping.enabled
            || m.state != mapping.state
        {
            m.settings = mapping.settings;
            m.enabled = mapping.enabled;
            m.state = mapping.state;
            m.last_modified = scope.now;
        }
        Ok::<_, ()>(m.clone())
    });
    Ok(updated.and_then(Result::ok).unwrap_or(stored))
}
