//! Deliveries from a topic into sqslite's queues, through the SQS engine's own send
//! ([`crate::engine::queue::Queue::send`], what SendMessage calls), never by writing queue
//! state. A delivery that fails goes to the subscription's dead-letter queue when it has
//! one; either way the publish itself succeeds, as on SNS.

use std::collections::HashSet;
use std::sync::{Arc, LazyLock, Mutex};

use crate::app::App;
use crate::clock::Millis;
use crate::engine::message::{AttrData as SqsData, AttrValue, NewMessage};
use crate::engine::queue::Queue;
use crate::sns::engine::counts::Outcome;
use crate::sns::engine::publish::AttrData;
use crate::sns::engine::Delivery;

/// The SenderId SQS shows on messages SNS delivers.
static SNS_SENDER: LazyLock<Arc<str>> = LazyLock::new(|| Arc::from("AIDAIT2UOQQY3AUEKVGXU"));

/// Queues already warned about (their Policy would refuse the topic), so each is logged once.
static WARNED: LazyLock<Mutex<HashSet<String>>> = LazyLock::new(|| Mutex::new(HashSet::new()));

pub fn deliver_all(app: &App, topic_arn: &str, deliveries: Vec<Delivery>, now: Millis) {
    for d in deliveries {
        let Err(reason) = deliver(app, topic_arn, &d.queue_arn, &d, now) else {
            app.sns
                .count_notification(&d.subscription_arn, Outcome::Delivered);
            continue;
        };
        tracing::warn!(
            subscription = %d.subscription_arn,
            queue = %d.queue_arn,
            %reason,
            "SNS delivery failed"
        );
        app.sns.delivery_failed();
        app.sns
            .count_notification(&d.subscription_arn, Outcome::Failed);
        if let Some(dlq) = &d.dead_letter_arn {
            let outcome = match deliver(app, topic_arn, dlq, &d, now) {
                Ok(()) => Outcome::RedrivenToDlq,
                Err(reason) => {
                    tracing::warn!(dead_letter_queue = %dlq, %reason, "SNS dead-letter delivery failed");
                    Outcome::FailedToRedriveToDlq
                }
            };
            app.sns.count_notification(&d.subscription_arn, outcome);
        }
    }
}

fn deliver(
    app: &App,
    topic_arn: &str,
    queue_arn: &str,
    d: &Delivery,
    now: Millis,
) -> Result<(), String> {
    let queue = app
        .registry
        .get_by_arn(queue_arn)
        .ok_or_else(|| "the queue does not exist".to_owned())?;
    if !policy_admits(&queue, topic_arn) {
        if app.config.strict {
            return Err("the queue's Policy does not allow the topic to send (--strict)".into());
        }
        let first = WARNED
            .lock()
            .is_ok_and(|mut w| w.insert(format!("{queue_arn} {topic_arn}")));
        if first {
            tracing::warn!(queue = %queue_arn, topic = %topic_arn, "the queue's Policy would refuse this topic on AWS (sns.amazonaws.com needs sqs:SendMessage); delivered anyway, --strict refuses");
        }
    }
    let attributes = d
        .attributes
        .iter()
        .map(|(name, a)| {
            let data = match &a.data {
                AttrData::Text(t) => SqsData::String(t.clone()),
                AttrData::Binary(b) => SqsData::Binary(b.clone()),
            };
            (
                name.clone(),
                AttrValue {
                    data_type: a.data_type.clone(),
                    data,
                },
            )
        })
        .collect();
    let message = NewMessage {
        body: d.body.clone(),
        attributes,
        delay_seconds: None,
        trace_header: None,
        group_id: d.group_id.clone(),
        deduplication_id: d.deduplication_id.clone().filter(|_| queue.fifo),
        sender_id: SNS_SENDER.clone(),
    };
    queue.send(message, now).map(drop).map_err(|e| e.message)
}

/// Whether the queue's Policy lets SNS send this topic's messages: an Allow statement for
/// the `sns.amazonaws.com` service (or `*`) with a matching action and, if it has one, an
/// `aws:SourceArn` condition naming the topic. Deny statements are not read [a narrow
/// reading of IAM, enough for the policies SNS's console and guides write].
pub(crate) fn policy_admits(queue: &Queue, topic_arn: &str) -> bool {
    let Some(policy) = queue.policy() else {
        return false;
    };
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(policy.text()) else {
        return false;
    };
    let statements = match &doc["Statement"] {
        serde_json::Value::Array(list) => list.clone(),
        one => vec![one.clone()],
    };
    statements.iter().any(|s| {
        s["Effect"] == "Allow"
            && principal_is_sns(&s["Principal"])
            && any_string(&s["Action"], |a| {
                let a = a.to_ascii_lowercase();
                a == "*" || a == "sqs:*" || a == "sqs:sendmessage"
            })
            && source_arn_matches(&s["Condition"], topic_arn)
    })
}

fn any_string(v: &serde_json::Value, f: impl Fn(&str) -> bool) -> bool {
    match v {
        serde_json::Value::String(s) => f(s),
        serde_json::Value::Array(items) => items.iter().filter_map(|i| i.as_str()).any(f),
        _ => false,
    }
}

fn principal_is_sns(p: &serde_json::Value) -> bool {
    p == "*"
        || any_string(&p["Service"], |s| s == "sns.amazonaws.com")
        || any_string(&p["AWS"], |s| s == "*")
}

/// No condition, or an `aws:SourceArn` one (any operator) whose value names the topic
/// (`*` wildcards allowed).
fn source_arn_matches(condition: &serde_json::Value, topic_arn: &str) -> bool {
    let Some(ops) = condition.as_object() else {
        return true;
    };
    ops.values().all(|keys| {
        keys.as_object().is_none_or(|keys| {
            keys.iter()
                .filter(|(k, _)| k.eq_ignore_ascii_case("aws:SourceArn"))
                .all(|(_, v)| any_string(v, |pattern| wildcard(pattern, topic_arn)))
        })
    })
}

fn wildcard(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, rest)) => {
            text.starts_with(head)
                && (0..=text.len() - head.len()).any(|i| {
                    text.is_char_boundary(head.len() + i) && wildcard(rest, &text[head.len() + i..])
                })
        }
    }
}
