//! `GET /_sqslite/topics`: every SNS topic with its subscriptions and their counts; and
//! `POST /_sqslite/topics/test`: which subscriptions a sample message would reach, and for
//! the others which key of the filter policy failed which condition. Read through the SNS
//! engine's view; nothing is published.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};

use super::{ok, parse, Answer, Problem};
use crate::app::App;
use crate::http::HttpResponse;
use crate::patterns::{Explanation, MessageAttribute, Scope};
use crate::sns::engine::counts::{LastFailure, SubscriptionCounts, Undeliverable};
use crate::sns::engine::view::{SubscriptionView, TopicView};

fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::MessageAttributes => "MessageAttributes",
        Scope::MessageBody => "MessageBody",
    }
}

fn counts_json(c: &SubscriptionCounts) -> Value {
    json!({
        "delivered": c.delivered,
        "failed": c.failed,
        "filtered_out": c.filtered_out,
        "filtered_out_no_message_attributes": c.filtered_out_no_message_attributes,
        "filtered_out_invalid_attributes": c.filtered_out_invalid_attributes,
        "filtered_out_invalid_message_body": c.filtered_out_invalid_message_body,
        "redriven_to_dlq": c.redriven_to_dlq,
        "failed_to_redrive_to_dlq": c.failed_to_redrive_to_dlq,
        "dropped": c.dropped(),
        "undeliverable": Undeliverable::ALL.iter().zip(c.undeliverable).map(|(why, [dlq, dropped])| {
            (why.name().to_owned(), json!({ "dead_lettered": dlq, "dropped": dropped }))
        }).collect::<serde_json::Map<_, _>>(),
    })
}

/// The latest notification a subscription could not deliver: why, when, where it went.
fn failure_json(f: &LastFailure) -> Value {
    json!({
        "why": f.why.name(),
        "reason": f.reason,
        "at": crate::sns::engine::envelope::timestamp(f.at),
        "dead_lettered": f.dead_lettered,
    })
}

fn subscription_json(s: &SubscriptionView) -> Value {
    json!({
        "arn": s.arn,
        "protocol": s.protocol,
        "endpoint": s.endpoint,
        "raw": s.raw,
        "filter_policy": s.filter_policy,
        "filter_policy_scope": s.filter.as_ref().map(|_| scope_name(s.scope)),
        "dead_letter_arn": s.dead_letter_arn,
        "counts": counts_json(&s.counts),
        "last_failure": s.last_failure.as_ref().map(failure_json),
    })
}

fn topic_json(t: &TopicView) -> Value {
    json!({
        "arn": t.arn,
        "name": t.name,
        "region": t.region,
        "account": t.account,
        "fifo": t.fifo,
        "published": t.counts.published,
        "published_bytes": t.counts.published_bytes,
        "subscriptions": t.subscriptions.iter().map(subscription_json).collect::<Vec<_>>(),
    })
}

pub fn topics(app: &App) -> HttpResponse {
    let topics: Vec<Value> = app.sns.topics.view().iter().map(topic_json).collect();
    ok(&json!({ "topics": topics }))
}

/// A sample message: its body and attributes, as Publish would take them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Sample {
    topic_arn: String,
    #[serde(default)]
    message: String,
    /// `"name": "text"` (String), a number (Number), an array (String.Array), or
    /// `{"DataType": …, "StringValue": …}`.
    #[serde(default)]
    attributes: BTreeMap<String, Value>,
}

/// An attribute of the sample as (DataType, value text).
fn attribute(name: &str, v: &Value) -> Result<(String, String), Problem> {
    Ok(match v {
        Value::String(s) => ("String".into(), s.clone()),
        Value::Number(n) => ("Number".into(), n.to_string()),
        Value::Array(_) => ("String.Array".into(), v.to_string()),
        Value::Object(o) => match (o.get("DataType"), o.get("StringValue")) {
            (Some(Value::String(t)), Some(Value::String(s))) => (t.clone(), s.clone()),
            _ => {
                return Err(Problem::bad(format!(
                    "attribute `{name}`: give {{\"DataType\": \"String\", \"StringValue\": \"…\"}}"
                )))
            }
        },
        _ => {
            return Err(Problem::bad(format!(
            "attribute `{name}`: a string, a number, an array or {{\"DataType\", \"StringValue\"}}"
        )))
        }
    })
}

fn explanation_json(e: &Explanation) -> Value {
    let branches: Vec<Value> = e
        .branches
        .iter()
        .map(|b| {
            let misses: Vec<Value> = b
                .misses
                .iter()
                .map(|m| {
                    json!({"key": m.key, "condition": m.condition, "found": m.found, "reason": m.reason()})
                })
                .collect();
            json!({"matched": b.matched, "split_arrays": b.split_arrays, "misses": misses})
        })
        .collect();
    json!({"unreadable": e.unreadable, "branches": branches})
}

pub fn test(app: &App, body: &[u8]) -> Answer {
    let sample: Sample = parse(body)?;
    let attributes = sample
        .attributes
        .iter()
        .map(|(k, v)| Ok((k.as_str(), attribute(k, v)?)))
        .collect::<Result<Vec<_>, Problem>>()?;
    let topics = app.sns.topics.view();
    let topic = topics
        .iter()
        .find(|t| t.arn == sample.topic_arn)
        .ok_or_else(|| Problem::not_found(format!("no topic {}", sample.topic_arn)))?;
    let results: Vec<Value> = topic
        .subscriptions
        .iter()
        .map(|s| {
            let explained = s.filter.as_ref().map(|f| match s.scope {
                Scope::MessageBody => f.explain_body(&sample.message),
                Scope::MessageAttributes => {
                    f.explain_attributes(attributes.iter().map(|(k, (t, v))| {
                        (
                            *k,
                            MessageAttribute {
                                data_type: t,
                                value: v,
                            },
                        )
                    }))
                }
            });
            json!({
                "arn": s.arn,
                "endpoint": s.endpoint,
                "filter_policy": s.filter_policy,
                "filter_policy_scope": s.filter.as_ref().map(|_| scope_name(s.scope)),
                "delivers": explained.as_ref().is_none_or(|e| e.matched),
                "explanation": explained.as_ref().map(explanation_json),
            })
        })
        .collect();
    Ok(ok(
        &json!({"topic_arn": topic.arn, "subscriptions": results}),
    ))
}
