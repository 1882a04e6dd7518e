//! `GET /_sqslite/mappings`: every event source mapping with its settings, its counters and
//! its queue's depth and oldest message on the server's clock; `GET /_sqslite/mappings/<uuid>`
//! for one; and `POST /_sqslite/mappings/<uuid>` with `{"enabled": bool}`, the dashboard's
//! switch, which runs UpdateEventSourceMapping's own code.
//!
//! The switch is an admin route rather than the page calling Lambda's `PUT
//! /2015-03-31/event-source-mappings/<uuid>`: the guard lets the dashboard's same-origin
//! requests through to the admin API only (elsewhere `--allow-origin` must name the page),
//! and with `[[credentials]]` the Lambda API needs SigV4, which the page cannot sign. Reads go
//! through the registry's copies, the mapping's counters and
//! [`crate::sqs::engine::queue::Queue::depth`], never the engine's locks.

use serde::Deserialize;
use serde_json::{json, Value};

use super::{ok, parse, Answer, Problem};
use crate::app::App;
use crate::clock::Millis;
use crate::http::HttpResponse;
use crate::sqs::engine::arn;
use crate::triggers::api::error::LambdaError;
use crate::triggers::api::input::MappingRequest;
use crate::triggers::api::route::Operation;
use crate::triggers::api::rules::Caller;
use crate::triggers::stats::{LastInvocation, Snapshot};
use crate::triggers::Mapping;

pub fn list(app: &App) -> HttpResponse {
    let now = app.now();
    let all: Vec<Value> = app
        .triggers
        .model
        .observe()
        .iter()
        .map(|(m, s)| mapping_json(app, m, s, now))
        .collect();
    ok(&json!({"now": now, "mappings": all}))
}

pub fn one(app: &App, uuid: &str) -> Answer {
    let now = app.now();
    let (m, s) = app
        .triggers
        .model
        .observe()
        .into_iter()
        .find(|(m, _)| m.uuid == uuid)
        .ok_or_else(|| unknown(uuid))?;
    Ok(ok(&mapping_json(app, &m, &s, now)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Switch {
    enabled: bool,
}

/// Enables or disables a mapping as `UpdateEventSourceMapping` with only `Enabled` does: the
/// same rules (no change while a state is transitional) and the same registry update, so
/// the runtime starts or stops its poller as it would for the API.
pub fn switch(app: &App, uuid: &str, body: &[u8]) -> Answer {
    let input: Switch = parse(body)?;
    let request = MappingRequest {
        enabled: Some(input.enabled),
        ..MappingRequest::default()
    };
    // The operator acts for the mapping's own account (a mapping belongs to one); only a
    // FunctionName is resolved in the caller's scope, and this request names none.
    let mapping = app.triggers.model.mappings.get(uuid);
    let account = mapping
        .as_ref()
        .map_or(app.config.account_id.as_str(), Mapping::account);
    let caller = Caller {
        region: &app.config.region,
        account,
        principal: None,
    };
    Operation::Update(uuid.to_owned(), request)
        .apply(&app.triggers, &caller)
        .map_err(|e| refusal(&e, uuid))?;
    tracing::info!(
        mapping = uuid,
        enabled = input.enabled,
        "dashboard mapping switch"
    );
    one(app, uuid)
}

fn unknown(uuid: &str) -> Problem {
    Problem::not_found(format!("no event source mapping {uuid}"))
}

/// Lambda's refusal in the admin API's shape: its status, and `Code: message`.
fn refusal(e: &LambdaError, uuid: &str) -> Problem {
    if e.kind == crate::triggers::api::error::LambdaErrorKind::ResourceNotFound {
        return unknown(uuid);
    }
    let status =
        hyper::StatusCode::from_u16(e.kind.status()).unwrap_or(hyper::StatusCode::BAD_REQUEST);
    Problem(status, format!("{}: {}", e.code(), e.message))
}

fn mapping_json(app: &App, m: &Mapping, s: &Snapshot, now: Millis) -> Value {
    let settings = &m.settings;
    json!({
        "uuid": m.uuid,
        "function": function_json(app, m),
        "queue": queue_json(app, &m.event_source_arn, now),
        "state": m.state.as_str(),
        "enabled": m.enabled,
        "state_transition_reason": m.state_transition_reason,
        "last_modified": m.last_modified,
        "batch_size": settings.batch_size,
        "maximum_batching_window_seconds": settings.maximum_batching_window_seconds,
        "function_response_types": settings
            .function_response_types
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>(),
        "maximum_concurrency": settings.maximum_concurrency,
        "filter_patterns": settings.filters.patterns().len(),
        "figures": figures_json(s),
        "last_invocation": s.last.as_ref().map(last_json),
    })
}

fn figures_json(s: &Snapshot) -> Value {
    // Integer batch sizes stay integers; only a fraction is written as one.
    let mean = match s.invocations {
        0 => Value::Null,
        n if s.records.is_multiple_of(n) => json!(s.records / n),
        n => json!(s.records as f64 / n as f64),
    };
    json!({
        "invocations": s.invocations,
        "errors": s.errors,
        "records": s.records,
        "mean_batch_size": mean,
        "last_batch_size": (s.invocations > 0).then_some(s.last_batch_size),
        "partial_failures": s.partial_failures,
        "filtered": s.filtered,
    })
}

fn last_json(l: &LastInvocation) -> Value {
    json!({
        "started_at": l.started_at,
        "finished_at": l.finished_at,
        "records": l.records,
        "result": l.ending.as_str(),
        "failed_records": l.failed_records,
        "error": l.error,
    })
}

/// The function's name and ARN, and whether a `[[functions]]` entry answers to it (without
/// one the mapping does not poll).
fn function_json(app: &App, m: &Mapping) -> Value {
    let mut scope = m.function_arn.split(':').skip(3);
    let declared = match (scope.next(), scope.next()) {
        (Some(region), Some(account)) => app
            .triggers
            .model
            .functions
            .resolve(&m.function_arn, region, account)
            .is_some(),
        _ => false,
    };
    json!({"name": m.function_name(), "arn": m.function_arn, "declared": declared})
}

/// The queue's identity from its ARN and, while it exists, its depth and oldest message
/// (`null` once it is deleted: the mapping stays, its poller stopped).
fn queue_json(app: &App, queue_arn: &str, now: Millis) -> Value {
    let key = arn::parse(queue_arn);
    let depth = app.sqs.registry.get_by_arn(queue_arn).map(|q| q.depth(now));
    json!({
        "arn": queue_arn,
        "name": key.as_ref().map(|k| k.name.clone()),
        "region": key.as_ref().map(|k| k.region.clone()),
        "account": key.as_ref().map(|k| k.account.clone()),
        "exists": depth.is_some(),
        "visible": depth.map(|d| d.visible),
        "in_flight": depth.map(|d| d.in_flight),
        "delayed": depth.map(|d| d.delayed),
        "oldest_message_age_seconds": depth
            .and_then(|d| d.oldest_enqueued_at)
            .map(|t| now.saturating_sub(t) / 1000),
    })
}
