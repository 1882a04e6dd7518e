//! Faults on Lambda-style invocations (`"action": "Invoke"`): a rule narrowed by `function`,
//! `mapping` (its UUID) and/or `queue` fails an event source mapping's invocation as a function
//! error without calling the function, or delays it on the server's clock (`delay_seconds`,
//! so a manual clock controls it) or in wall time (`latency_ms`).
//!
//! Kept beside the SQS rules so one list, one admin API and one counter serve both; an
//! Invoke rule never matches an SQS call (no SQS action is called `Invoke`) and an SQS rule
//! never matches an invocation (only rules naming `Invoke` are looked at here).

use std::time::Duration;

use super::{FaultSpec, Faults};
use crate::clock::Millis;

/// The `action` of a rule on invocations.
pub const INVOKE: &str = "Invoke";

/// What an invocation is, for matching.
#[derive(Debug, Clone, Copy)]
pub struct InvokeTarget<'a> {
    /// The function's declared name.
    pub function: &'a str,
    /// The mapping's UUID.
    pub mapping: &'a str,
    /// The mapping's queue name.
    pub queue: &'a str,
}

/// What a hit Invoke rule does to the invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct InvokeFault {
    /// The rule's id.
    pub rule: u64,
    /// Server-clock milliseconds to wait before the invocation (or its failure).
    pub delay: Millis,
    /// Wall time to wait, as `latency_ms` does for SQS calls.
    pub latency: Option<Duration>,
    /// The function error to report instead of calling the function.
    pub error: Option<String>,
}

/// Checks what is particular to Invoke rules. `None` when the rule is an SQS rule without
/// Invoke-only fields, so the SQS checks apply.
pub(super) fn validate(spec: &FaultSpec) -> Option<Result<(), String>> {
    let invoke_only =
        spec.function.is_some() || spec.mapping.is_some() || spec.delay_seconds.is_some();
    if spec.action.as_deref() != Some(INVOKE) {
        return invoke_only.then(|| {
            Err("`function`, `mapping` and `delay_seconds` apply to `\"action\": \"Invoke\"` rules only".into())
        });
    }
    Some(validate_invoke(spec))
}

fn validate_invoke(spec: &FaultSpec) -> Result<(), String> {
    if spec.drop_connection {
        return Err(
            "`drop_connection` does not apply to Invoke rules (no connection to drop)".into(),
        );
    }
    if spec.error.as_deref().is_some_and(str::is_empty) {
        return Err("`error` names the function error type, e.g. `Unhandled`".into());
    }
    if spec
        .delay_seconds
        .is_some_and(|s| !(s.is_finite() && s >= 0.0))
    {
        return Err("`delay_seconds` must be a number of seconds >= 0".into());
    }
    if spec.error.is_none() && spec.delay_seconds.is_none() && spec.latency_ms.is_none() {
        return Err(
            "an Invoke rule needs an effect: `error`, `delay_seconds` or `latency_ms`".into(),
        );
    }
    Ok(())
}

impl FaultSpec {
    fn matches_invocation(&self, t: &InvokeTarget<'_>) -> bool {
        self.action.as_deref() == Some(INVOKE)
            && self.function.as_deref().is_none_or(|f| f == t.function)
            && self.mapping.as_deref().is_none_or(|m| m == t.mapping)
            && self.queue.as_deref().is_none_or(|q| q == t.queue)
    }
}

impl Faults {
    /// The first live Invoke rule matching this invocation, counted as a hit.
    pub fn check_invoke(&self, target: &InvokeTarget<'_>, now: Millis) -> Option<InvokeFault> {
        let mut rules = self.lock();
        self.retire(&mut rules, now);
        let rule = rules.iter_mut().find(|r| {
            now >= r.active_from
                && r.spec.matches_invocation(target)
                && r.spec.probability.is_none_or(|p| super::roll() < p)
        })?;
        rule.hits += 1;
        let spec = &rule.spec;
        let fault = InvokeFault {
            rule: rule.id,
            delay: spec
                .delay_seconds
                .map_or(0, |s| (s * 1000.0).round() as Millis),
            latency: spec.latency_ms.map(Duration::from_millis),
            error: spec.error.as_ref().map(|e| match &spec.message {
                Some(m) => format!("{e}: {m}"),
                None => e.clone(),
            }),
        };
        self.retire(&mut rules, now);
        Some(fault)
    }
}

#[cfg(test)]
#[path = "invoke_tests.rs"]
mod tests;
