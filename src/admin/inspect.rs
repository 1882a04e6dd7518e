//! Looking at queues and messages without touching them (no receive counts, no visibility
//! changes), and resetting the server to its started state.

use std::sync::Arc;

use serde_json::{json, Value};

use super::{ok, Answer, Problem};
use crate::app::App;
use crate::clock::Millis;
use crate::sqs::actions::send::WireAttribute;
use crate::sqs::engine::arn::{self, QueueKey};
use crate::sqs::engine::message::Message;
use crate::sqs::engine::queue::Queue;

pub fn queues(app: &App) -> crate::http::HttpResponse {
    let now = app.now();
    // The dashboard's list: from here on the chart of any queue records (see `series`).
    if app.series.watch(now) {
        app.ticker.notify_one();
    }
    let mut all = app.sqs.registry.all();
    all.sort_by(|a, b| a.key.cmp(&b.key));
    let list: Vec<Value> = all.iter().map(|q| summary(app, q, now)).collect();
    ok(&json!({"now": now, "queues": list}))
}

pub fn queue(app: &App, name: &str, params: &[(String, String)]) -> Answer {
    let q = find(app, name, params)?;
    Ok(ok(&summary(app, &q, app.now())))
}

/// A queue named in the path, in the `region`/`account` of the query or the server's own.
pub fn find(app: &App, name: &str, params: &[(String, String)]) -> Result<Arc<Queue>, Problem> {
    let param = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let region = param("region").unwrap_or(&app.config.region);
    let account = param("account").unwrap_or(&app.config.account_id);
    app.sqs
        .registry
        .get(&QueueKey::new(region, account, name))
        .map_err(|_| {
            Problem(
                hyper::StatusCode::NOT_FOUND,
                format!("no queue `{name}` in region {region}, account {account}"),
            )
        })
}

fn summary(app: &App, q: &Queue, now: Millis) -> Value {
    let sources: Vec<String> = app
        .sqs
        .registry
        .dead_letter_sources(&q.arn(), now)
        .iter()
        .map(|s| s.key.name.clone())
        .collect();
    let state = q.lock_settled(now);
    let s = &state.store();
    let redrive = state.attributes().redrive_policy.as_ref().map(|p| {
        json!({
            "queue": arn::parse(&p.dead_letter_target_arn).map(|k| k.name),
            "arn": p.dead_letter_target_arn,
            "max_receive_count": p.max_receive_count,
        })
    });
    let attributes: serde_json::Map<String, Value> = state
        .attributes()
        .render()
        .into_iter()
        .map(|(k, v)| (k.to_owned(), Value::String(v)))
        .collect();
    let st = &state.stats;
    let pr = state.processing();
    json!({
        "name": q.key.name,
        "region": q.key.region,
        "account": q.key.account,
        "arn": q.arn(),
        "fifo": q.fifo,
        "visible": s.visible(),
        "in_flight": s.in_flight(),
        "delayed": s.delayed(),
        "oldest_message_age_seconds": s.oldest_enqueued_at().map(|t| now.saturating_sub(t) / 1000),
        "dead_letter_target": redrive,
        "dead_letter_sources": sources,
        "attributes": attributes,
        "tags": state.tags(),
        "stats": {
            "sent": st.sent,
            "received": st.received,
            "deleted": st.deleted,
            "empty_receives": st.empty_receives,
            "dead_lettered": st.dead_lettered,
            "last_delete_at": st.last_delete_at,
        },
        "processing": {
            "deleted": pr.deleted.count(),
            "receive_to_delete": pr.deleted.summary(),
            "extended": pr.extended.count(),
            "receive_to_extend": pr.extended.summary(),
            "redelivered_then_deleted": pr.redelivered_then_deleted,
        },
    })
}

pub fn messages(app: &App, name: &str, params: &[(String, String)]) -> Answer {
    let q = find(app, name, params)?;
    let now = app.now();
    let state = q.lock_settled(now);
    let list: Vec<Value> = state.store().iter().map(|(_, m)| message(m, now)).collect();
    Ok(ok(
        &json!({"queue": q.key.name, "now": now, "messages": list}),
    ))
}

/// `visible`, `in_flight` (received, hidden until `visible_at`) or `delayed` (never received).
pub fn state_of(m: &Message, now: Millis) -> &'static str {
    if m.visible_at <= now {
        "visible"
    } else if m.receive_count > 0 {
        "in_flight"
    } else {
        "delayed"
    }
}

fn message(m: &Message, now: Millis) -> Value {
    let state = state_of(m, now);
    let attributes: serde_json::Map<String, Value> = m
        .attributes()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), json!(WireAttribute::from_value(v))))
        .collect();
    let source = m.dead_letter_source_arn();
    json!({
        "message_id": m.id.to_string(),
        "state": state,
        "visible_at": (state != "visible").then_some(m.visible_at),
        "receive_count": m.receive_count,
        "sent_at": m.sent_at,
        "first_received_at": m.first_received_at,
        "message_group_id": m.group_id.as_deref(),
        "message_deduplication_id": m.deduplication_id(),
        "dead_letter_source_arn": source,
        "dead_letter_source_queue": source.and_then(arn::parse).map(|k| k.name),
        "message_attributes": attributes,
        "body": &*m.body,
    })
}

/// Back to the started state: every queue, SNS topic, event source mapping and S3 bucket
/// gone, declared ones recreated empty, move tasks and runtime fault rules dropped,
/// configured rules re-armed, alarms forgotten, the configured delivery mode back.
pub fn reset(app: &App) -> Answer {
    app.sqs.registry.reset();
    app.sns.topics.reset();
    app.s3.reset();
    // Declared mappings are added again below; their pollers restart on the new queues.
    app.triggers.model.mappings.clear();
    app.sqs.registry.clear_move_tasks();
    app.declare_all().map_err(Problem::bad)?;
    app.faults.clear();
    let now = app.now();
    for spec in &app.config.admin.faults {
        app.faults.add(spec.clone(), now).map_err(Problem::bad)?;
    }
    app.alarms.clear();
    app.series.clear();
    app.ticker.notify_one();
    tracing::info!("server reset to its started state");
    let declared: Vec<&str> = app.config.queues.iter().map(|q| q.name.as_str()).collect();
    Ok(ok(&json!({"reset": true, "queues": declared})))
}
