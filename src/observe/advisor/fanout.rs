//! The advisor's rules for SNS subscriptions into queues: what AWS would do with them that
//! sqslite lets pass (a queue Policy that refuses the topic), what loses notifications (no
//! dead-letter queue, a missing one or one elsewhere), and type mismatches between a topic
//! and its queues.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use super::rules::figures;
use super::{Finding, Fix, QueueView, Severity, Snapshot, SubscriptionView};

pub(super) fn check_all(snap: &Snapshot) -> Vec<Finding> {
    let queues: HashMap<&str, &QueueView> =
        snap.queues.iter().map(|q| (q.arn.as_str(), q)).collect();
    let mut out = Vec::new();
    for s in &snap.subscriptions {
        let Some(queue) = queues.get(s.queue_arn.as_str()) else {
            out.push(queue_missing(s));
            continue;
        };
        out.extend(fifo_mismatch(s, queue));
        out.extend(policy_refuses(snap, s, queue));
        out.extend(dead_letter(snap, s, &queues));
    }
    out.extend(mixed_raw(snap));
    out
}

fn queue_name(arn: &str) -> &str {
    arn.rsplit(':').next().unwrap_or_default()
}

fn finding(rule: &str, severity: Severity, s: &SubscriptionView, message: String) -> Finding {
    Finding {
        rule: rule.to_owned(),
        severity,
        queue: queue_name(&s.queue_arn).to_owned(),
        topic: Some(s.topic.clone()),
        subscription: Some(s.arn.clone()),
        message,
        figures: figures(&[]),
        fix: Fix::default(),
    }
}

/// An ARN's region and account.
fn place(arn: &str) -> Vec<&str> {
    arn.split(':').skip(3).take(2).collect()
}

fn kind(fifo: bool) -> &'static str {
    if fifo {
        "FIFO"
    } else {
        "standard"
    }
}

/// The endpoint queue is gone: every notification fails.
fn queue_missing(s: &SubscriptionView) -> Finding {
    let name = queue_name(&s.queue_arn);
    let mut f = finding(
        "sns_queue_missing",
        Severity::Error,
        s,
        format!("the subscribed queue {name} does not exist: every notification fails"),
    );
    f.fix.summary = format!("create {name} again, or unsubscribe");
    f
}

/// A standard topic cannot deliver into a FIFO queue (SNS refuses the Subscribe; a queue
/// declared later can still disagree). A FIFO topic may deliver into a standard queue (SNS
/// guide, "Message delivery for FIFO topics"), but only with best-effort ordering and
/// at-least-once delivery: worth saying where order or deduplication was the point.
fn fifo_mismatch(s: &SubscriptionView, queue: &QueueView) -> Option<Finding> {
    let mut f = match (s.fifo_topic, queue.fifo) {
        (false, true) => finding(
            "sns_fifo_mismatch",
            Severity::Error,
            s,
            format!(
                "standard topic {} delivers into FIFO queue {}: SNS delivers a standard \
                 topic's messages only to standard queues",
                s.topic, queue.name
            ),
        ),
        (true, false) => finding(
            "sns_fifo_to_standard",
            Severity::Warn,
            s,
            format!(
                "FIFO topic {} delivers into standard queue {}: its order is best-effort and \
                 a message may arrive twice (no MessageGroupId, no deduplication)",
                s.topic, queue.name
            ),
        ),
        _ => return None,
    };
    f.fix.summary = format!("subscribe a {} queue instead", kind(s.fifo_topic));
    Some(f)
}

/// The statement SNS needs in a queue's Policy: the service may send, for this topic only.
fn allow_topic(queue_arn: &str, topic_arn: &str) -> Value {
    json!({
        "Effect": "Allow",
        "Principal": {"Service": "sns.amazonaws.com"},
        "Action": "sqs:SendMessage",
        "Resource": queue_arn,
        "Condition": {"ArnEquals": {"aws:SourceArn": topic_arn}},
    })
}

/// The queue's Policy with the statement added (or a new Policy holding only it).
fn extended_policy(existing: Option<&str>, statement: Value) -> String {
    let mut doc: Value = existing
        .and_then(|p| serde_json::from_str(p).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({"Version": "2012-10-17"}));
    let statements = match doc.get_mut("Statement").map(Value::take) {
        Some(Value::Array(list)) => list,
        Some(one @ Value::Object(_)) => vec![one],
        _ => Vec::new(),
    };
    doc["Statement"] = Value::Array(statements.into_iter().chain([statement]).collect());
    doc.to_string()
}

/// A fix adding [`allow_topic`] to `queue`'s Policy (`existing`, kept).
fn open_to_topic(
    snap: &Snapshot,
    queue: &QueueView,
    existing: Option<&str>,
    s: &SubscriptionView,
) -> Fix {
    let policy = extended_policy(existing, allow_topic(&queue.arn, &s.topic_arn));
    let summary = format!("allow {} to send to {}", s.topic, queue.name);
    super::rules::set_attributes(snap, queue, summary, &[("Policy", policy)])
}

/// On AWS, SNS sends into a queue only where the queue's Policy lets `sns.amazonaws.com`
/// send for the topic; sqslite delivers anyway unless `--strict`.
fn policy_refuses(snap: &Snapshot, s: &SubscriptionView, queue: &QueueView) -> Option<Finding> {
    if s.queue_admits != Some(false) {
        return None;
    }
    let mut f = finding(
        "sns_policy_refuses",
        Severity::Error,
        s,
        format!(
            "the Policy of {} does not let sns.amazonaws.com send messages from {}: on AWS this \
             subscription delivers nothing (sqslite delivers anyway; --strict refuses)",
            queue.name, s.topic
        ),
    );
    f.fix = open_to_topic(snap, queue, s.queue_policy.as_deref(), s);
    Some(f)
}

fn set_subscription(snap: &Snapshot, s: &SubscriptionView, name: &str, value: &str) -> String {
    format!(
        "aws sns set-subscription-attributes --endpoint-url {} --subscription-arn {} \
         --attribute-name {name} --attribute-value '{value}'",
        snap.endpoint, s.arn
    )
}

/// The subscription's dead-letter queue: present, of the topic's type, and open to the topic.
fn dead_letter(
    snap: &Snapshot,
    s: &SubscriptionView,
    queues: &HashMap<&str, &QueueView>,
) -> Option<Finding> {
    let Some(dlq_arn) = &s.dead_letter_arn else {
        return Some(redrive_policy_missing(snap, s));
    };
    let name = queue_name(dlq_arn);
    if place(dlq_arn) != place(&s.topic_arn) {
        let mut f = finding(
            "sns_dlq_elsewhere",
            Severity::Error,
            s,
            format!(
                "the dead-letter queue {dlq_arn} is in another region or account than the \
                 subscription: SNS needs both in the same ones"
            ),
        );
        f.fix.summary = format!(
            "use a dead-letter queue in {}",
            place(&s.topic_arn).join(", ")
        );
        return Some(f);
    }
    let Some(dlq) = queues.get(dlq_arn.as_str()) else {
        let mut f = finding(
            "sns_dlq_missing",
            Severity::Error,
            s,
            format!("the subscription's dead-letter queue {name} does not exist: a failed notification is lost"),
        );
        f.fix.summary = format!("create {name} again, or point the RedrivePolicy elsewhere");
        return Some(f);
    };
    if dlq.fifo != s.fifo_topic {
        let mut f = finding(
            "sns_dlq_type",
            Severity::Error,
            s,
            format!(
                "the dead-letter queue {name} is {}; a {} topic's subscription needs a {} one",
                kind(dlq.fifo),
                kind(s.fifo_topic),
                kind(s.fifo_topic)
            ),
        );
        f.fix.summary = format!("use a {} dead-letter queue", kind(s.fifo_topic));
        return Some(f);
    }
    if s.dead_letter_admits == Some(false) {
        let mut f = finding(
            "sns_dlq_policy_refuses",
            Severity::Error,
            s,
            format!(
                "the Policy of dead-letter queue {name} does not let sns.amazonaws.com send \
                 messages from {}: on AWS failed notifications are lost",
                s.topic
            ),
        );
        f.fix = open_to_topic(snap, dlq, s.dead_letter_policy.as_deref(), s);
        return Some(f);
    }
    None
}

/// No RedrivePolicy: a notification the queue refuses (deleted, Policy, KMS) is dropped.
fn redrive_policy_missing(snap: &Snapshot, s: &SubscriptionView) -> Finding {
    let queue = queue_name(&s.queue_arn);
    let dlq = match queue.strip_suffix(".fifo") {
        Some(base) => format!("{base}-sns-dlq.fifo"),
        None => format!("{queue}-sns-dlq"),
    };
    let prefix = s.queue_arn.rsplit_once(':').map_or("", |(p, _)| p);
    let dlq_arn = format!("{prefix}:{dlq}");
    let mut f = finding(
        "sns_redrive_policy_missing",
        Severity::Warn,
        s,
        format!(
            "the subscription of {queue} to {} has no RedrivePolicy: a notification the queue \
             refuses is lost",
            s.topic
        ),
    );
    let fifo = if s.fifo_topic {
        r#","FifoQueue":"true""#
    } else {
        ""
    };
    let redrive = json!({"deadLetterTargetArn": dlq_arn}).to_string();
    let policy = extended_policy(None, allow_topic(&dlq_arn, &s.topic_arn));
    let policy_attr = json!({"Policy": policy}).to_string();
    f.fix = Fix {
        summary: format!("create {dlq}, let {} send to it, and make it the subscription's dead-letter queue", s.topic),
        queue: None,
        attributes: [("RedrivePolicy".to_owned(), redrive.clone())].into(),
        commands: vec![
            format!(
                "aws sqs create-queue --endpoint-url {} --queue-name {dlq} --attributes \
                 '{{\"MessageRetentionPeriod\":\"1209600\"{fifo}}}'",
                snap.endpoint
            ),
            format!(
                "aws sqs set-queue-attributes --endpoint-url {} --queue-url {}/{}/{dlq} --attributes '{policy_attr}'",
                snap.endpoint,
                snap.endpoint,
                prefix.rsplit(':').next().unwrap_or_default()
            ),
            set_subscription(snap, s, "RedrivePolicy", &redrive),
        ],
    };
    f
}

/// A queue fed raw messages by one subscription and JSON notifications by another: its
/// consumers must tell two shapes apart.
fn mixed_raw(snap: &Snapshot) -> Vec<Finding> {
    let mut shapes: HashMap<&str, HashSet<bool>> = HashMap::new();
    for s in &snap.subscriptions {
        shapes.entry(&s.queue_arn).or_default().insert(s.raw);
    }
    snap.subscriptions
        .iter()
        .filter(|s| {
            !s.raw
                && shapes
                    .get(s.queue_arn.as_str())
                    .is_some_and(|k| k.len() > 1)
        })
        .map(|s| {
            let queue = queue_name(&s.queue_arn);
            let mut f = finding(
                "sns_raw_mixed",
                Severity::Warn,
                s,
                format!(
                    "{queue} receives raw messages from another subscription and SNS's JSON \
                     notifications from {}: its consumers see two message shapes",
                    s.topic
                ),
            );
            f.fix = Fix {
                summary:
                    "turn RawMessageDelivery on for this subscription too (or off for the others)"
                        .into(),
                attributes: [("RawMessageDelivery".to_owned(), "true".to_owned())].into(),
                commands: vec![set_subscription(snap, s, "RawMessageDelivery", "true")],
                ..Fix::default()
            };
            f
        })
        .collect()
}

#[cfg(test)]
#[path = "fanout_tests.rs"]
mod tests;
