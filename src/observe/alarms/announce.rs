//! An alarm's change told: logged under the target the guide names and, with a webhook
//! configured, posted on its own task.

use std::sync::Arc;

use std::time::Duration;

use super::{render, Alarm, AlarmConfig};

/// The log target the guide names (docs/src/alarms-and-metrics.md) (`SQSLITE_LOG=info,sqslite::alarms=debug`), kept as it
/// was when alarms sat at the crate's top level.
const LOG_TARGET: &str = "sqslite::alarms";

/// Logs a state change and, with a webhook configured, posts it on its own task.
pub(super) fn announce(
    cfg: &AlarmConfig,
    (series, outbound): (
        &crate::observe::series::Recorder,
        &Arc<crate::http::outbound::Outbound>,
    ),
    alarm: &Alarm,
) {
    let (name, queue) = (render::name(alarm), alarm.queue.name());
    let kind = alarm.kind().as_str();
    series.alarm(alarm.since(), &alarm.queue, kind, alarm.firing());
    // At info only when `[alarms]` is configured: test runs fill DLQs and redeliver messages
    // on purpose, and their CI logs stay quiet by default (the guide's Alarms section). Never warn.
    macro_rules! log {
        ($($field:tt)*) => {
            if cfg.configured {
                tracing::info!(target: LOG_TARGET, $($field)*);
            } else {
                tracing::debug!(target: LOG_TARGET, $($field)*);
            }
        };
    }
    if alarm.firing() {
        let reason = render::reason(alarm);
        log!(alarm = %name, queue = %queue, reason = %reason, "alarm fired");
    } else {
        log!(alarm = %name, queue = %queue, "alarm back to OK");
    }
    let Some(url) = cfg.webhook.clone() else {
        return;
    };
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let timeout = Duration::from_millis(cfg.webhook_timeout_ms);
    let retries = cfg.webhook_retries;
    // Serialized now: the task holds bytes, not the queue.
    let body = serde_json::to_vec(alarm).unwrap_or_default();
    let post = Webhook {
        url,
        alarm: name.to_string(),
        outbound: outbound.clone(),
    };
    runtime.spawn(post.send(body, timeout, retries));
}

/// One alarm's POST to the webhook, under the server's outbound rule.
struct Webhook {
    url: String,
    alarm: String,
    outbound: Arc<crate::http::outbound::Outbound>,
}

/// The most of a webhook's answer read: only its status matters.
const WEBHOOK_REPLY_BYTES: usize = 64 * 1024;

impl Webhook {
    async fn send(self, body: Vec<u8>, timeout: Duration, retries: u32) {
        let (url, name) = (&self.url, &self.alarm);
        let headers = [("content-type", "application/json")];
        for attempt in 0..=retries {
            let call = crate::http::client::Call {
                method: "POST",
                url,
                headers: &headers,
                outbound: Some(&self.outbound),
                chosen_by: crate::http::outbound::ChosenBy::Operator,
                max_reply: WEBHOOK_REPLY_BYTES,
            };
            match crate::http::client::call(call, body.clone(), timeout).await {
                Ok(reply) if reply.ok() => return,
                Ok(reply) => {
                    tracing::debug!(target: LOG_TARGET, status = reply.status, %url, "webhook refused the alarm");
                }
                Err(e) => tracing::debug!(target: LOG_TARGET, error = %e, "webhook unreachable"),
            }
            if attempt < retries {
                // Real time: the receiver's recovery has nothing to do with the server's clock.
                tokio::time::sleep(Duration::from_millis(200 << attempt.min(6))).await;
            }
        }
        tracing::warn!(target: LOG_TARGET, %url, alarm = %name, "webhook gave up after {} attempts", retries + 1);
    }
}
