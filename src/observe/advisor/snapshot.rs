//! Reads a running server into the advisor's [`Snapshot`]: each queue under its own lock, one
//! at a time, how its alarms are delivered, and the SNS subscriptions into queues (through the
//! SNS engine's view, each queue's Policy read as SNS's delivery reads it).

use super::{AlarmView, QueueView, Redrive, Snapshot, SubscriptionView};
use crate::clock::Millis;
use crate::observe::alarms::AlarmConfig;
use crate::sns::engine::Sns;
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;

/// Every queue in `registry` and every subscription of `sns`; `alarms` is how the server
/// delivers its alarms, `endpoint` what the fix commands will name.
pub fn take(
    registry: &Registry,
    sns: &Sns,
    alarms: &AlarmConfig,
    endpoint: &str,
    now: Millis,
) -> Snapshot {
    let mut queues: Vec<QueueView> = registry
        .all()
        .iter()
        .map(|q| view(q, endpoint, now))
        .collect();
    queues.sort_by(|a, b| a.arn.cmp(&b.arn));
    Snapshot {
        endpoint: endpoint.to_owned(),
        queues,
        alarms: alarm_view(alarms),
        subscriptions: subscriptions(registry, sns),
    }
}

/// Every `sqs` subscription, with what its queues' Policies say to its topic.
fn subscriptions(registry: &Registry, sns: &Sns) -> Vec<SubscriptionView> {
    // Whether the queue's Policy admits the topic, and the Policy's text.
    let policy = |queue_arn: &str, topic_arn: &str| {
        registry.get_by_arn(queue_arn).map(|q| {
            let admits = crate::sns::engine::queue_access::policy_admits(&q, topic_arn);
            (admits, q.policy().map(|p| p.text().to_owned()))
        })
    };
    let mut out = Vec::new();
    for t in sns.view() {
        for s in t.subscriptions.into_iter().filter(|s| s.protocol == "sqs") {
            let queue = policy(&s.endpoint, &t.arn);
            let dlq = s.dead_letter_arn.as_deref().and_then(|d| policy(d, &t.arn));
            out.push(SubscriptionView {
                arn: s.arn,
                topic: t.name.clone(),
                topic_arn: t.arn.clone(),
                fifo_topic: t.fifo,
                queue_arn: s.endpoint,
                raw: s.raw,
                dead_letter_arn: s.dead_letter_arn,
                queue_admits: queue.as_ref().map(|q| q.0),
                dead_letter_admits: dlq.as_ref().map(|q| q.0),
                queue_policy: queue.and_then(|q| q.1),
                dead_letter_policy: dlq.and_then(|q| q.1),
            });
        }
    }
    out
}

fn view(q: &Queue, endpoint: &str, now: Millis) -> QueueView {
    let state = q.lock_settled(now);
    let a = &state.attributes();
    QueueView {
        name: q.key.name.clone(),
        arn: q.arn(),
        url: format!("{endpoint}/{}/{}", q.key.account, q.key.name),
        fifo: q.fifo,
        visibility_timeout: a.visibility_timeout,
        retention_seconds: a.message_retention_period,
        redrive: a.redrive_policy.as_ref().map(|p| Redrive {
            target_arn: p.dead_letter_target_arn.clone(),
            max_receive_count: p.max_receive_count,
        }),
        redrive_allow: a.redrive_allow_policy.clone(),
        messages: state.store().len() as u64,
        received: state.stats.received,
        processing: state.processing().deleted.summary(),
        extended: state.processing().extended.count(),
        redelivered_then_deleted: state.processing().redelivered_then_deleted,
    }
}

/// The worst case from an alarm firing to the webhook's last attempt: every attempt times
/// out, with the ticker's backoff between them (see `alarms::post_webhook`).
pub fn alarm_view(cfg: &AlarmConfig) -> AlarmView {
    let attempts = u64::from(cfg.webhook_retries) + 1;
    let backoff_ms: u64 = (0..cfg.webhook_retries).map(|i| 200u64 << i.min(6)).sum();
    let delay_ms = attempts
        .saturating_mul(cfg.webhook_timeout_ms)
        .saturating_add(backoff_ms);
    AlarmView {
        webhook: cfg.webhook.is_some(),
        page_delay_seconds: delay_ms.div_ceil(1000),
    }
}
