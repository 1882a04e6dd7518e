//! Reads a running server into the advisor's [`Snapshot`]: each queue under its own lock, one
//! at a time, plus how its alarms are delivered.

use super::{AlarmView, QueueView, Redrive, Snapshot};
use crate::alarms::AlarmConfig;
use crate::clock::Millis;
use crate::engine::queue::Queue;
use crate::engine::Registry;

/// Every queue in `registry`; `alarms` is how the server delivers its alarms, `endpoint` what
/// the fix commands will name.
pub fn take(registry: &Registry, alarms: &AlarmConfig, endpoint: &str, now: Millis) -> Snapshot {
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
    }
}

fn view(q: &Queue, endpoint: &str, now: Millis) -> QueueView {
    let state = q.lock_settled(now);
    let a = &state.attributes;
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
        messages: state.store.len() as u64,
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
