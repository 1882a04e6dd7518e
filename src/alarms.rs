//! Alarms, the seeds of on-call: a dead-letter queue holding messages, a queue with work
//! and no progress, a message waiting too long, and a message received too many times. Each
//! moves OK -> ALARM -> OK on the server's clock, evaluated by the ticker (at deadlines, and
//! after requests mark them stale) and whenever they are read. Changes are logged and sent to the webhook on their own task.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde::Serialize;

use crate::admin::settings::AlarmConfig;
use crate::app::App;
use crate::clock::Millis;
use crate::engine::queue::Queue;

#[derive(Debug, Clone, Serialize)]
pub struct Alarm {
    pub name: String,
    /// `dlq_depth`, `stall`, `oldest_message_age` or `receive_count`.
    pub kind: &'static str,
    pub queue: String,
    pub region: String,
    pub account: String,
    pub state: &'static str,
    pub value: u64,
    pub threshold: u64,
    pub reason: String,
    /// When the alarm entered its current state (server clock, ms).
    pub since: Millis,
    pub last_fired_at: Option<Millis>,
    pub times_fired: u64,
}

#[derive(Debug, Default)]
pub struct Alarms {
    stale: AtomicBool,
    next_due: AtomicU64,
    states: Mutex<BTreeMap<String, Alarm>>,
}

/// One queue's condition as of one evaluation.
struct Reading {
    kind: &'static str,
    firing: bool,
    value: u64,
    threshold: u64,
    reason: String,
}

impl Alarms {
    /// Called after each SQS request: the next ticker round re-evaluates. One load when
    /// already stale, so a burst of requests costs one evaluation.
    pub fn touch(&self, ticker: &tokio::sync::Notify) {
        if !self.stale.load(Ordering::Relaxed) && !self.stale.swap(true, Ordering::Relaxed) {
            ticker.notify_one();
        }
    }

    pub fn clear(&self) {
        self.states
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.stale.store(true, Ordering::Relaxed);
    }

    /// For the ticker: evaluates when stale or due; returns the next instant to look again.
    pub fn tick(&self, app: &App, now: Millis) -> Option<Millis> {
        let due = self.next_due.load(Ordering::Relaxed);
        if self.stale.swap(false, Ordering::Relaxed) || (due != 0 && now >= due) {
            self.evaluate(app, now);
        }
        match self.next_due.load(Ordering::Relaxed) {
            0 => None,
            t => Some(t),
        }
    }

    /// Brings every alarm up to `now` and returns them all, by name.
    pub fn evaluate(&self, app: &App, now: Millis) -> Vec<Alarm> {
        let (readings, next) = read_queues(app, &app.config.admin.alarms, now);
        self.next_due.store(next.unwrap_or(0), Ordering::Relaxed);
        let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        let live: HashSet<String> = readings.iter().map(|(k, _)| k.clone()).collect();
        states.retain(|name, _| live.contains(name));
        let mut changed = Vec::new();
        for (name, (queue, r)) in readings {
            let alarm = states.entry(name.clone()).or_insert_with(|| Alarm {
                name,
                kind: r.kind,
                queue: queue.name.clone(),
                region: queue.region.clone(),
                account: queue.account.clone(),
                state: "OK",
                value: 0,
                threshold: r.threshold,
                reason: String::new(),
                since: now,
                last_fired_at: None,
                times_fired: 0,
            });
            alarm.value = r.value;
            alarm.threshold = r.threshold;
            alarm.reason = r.reason;
            let state = if r.firing { "ALARM" } else { "OK" };
            if alarm.state != state {
                alarm.state = state;
                alarm.since = now;
                if r.firing {
                    alarm.last_fired_at = Some(now);
                    alarm.times_fired += 1;
                }
                changed.push(alarm.clone());
            }
        }
        let all = states.values().cloned().collect();
        drop(states);
        for alarm in changed {
            announce(app, alarm);
        }
        all
    }
}

type Readings = Vec<(String, (crate::engine::arn::QueueKey, Reading))>;

/// Every alarm condition of every queue, and the earliest instant one could start firing.
fn read_queues(app: &App, cfg: &AlarmConfig, now: Millis) -> (Readings, Option<Millis>) {
    let queues = app.registry.all();
    let targets: HashSet<String> = queues
        .iter()
        .filter_map(|q| {
            let state = q.lock(now);
            let policy = state.attributes.redrive_policy.as_ref()?;
            Some(policy.dead_letter_target_arn.clone())
        })
        .collect();
    let stall_ms = cfg.stall_seconds.saturating_mul(1000);
    let age_ms = cfg.max_age_seconds.saturating_mul(1000);
    let mut out = Vec::new();
    let mut next: Option<Millis> = None;
    let mut due = |t: Millis| next = Some(next.map_or(t, |n| n.min(t)));
    for q in queues {
        let (depth, work, oldest, last_delete, max_receives) = {
            let s = q.lock(now);
            let work = s.store.visible() + s.store.in_flight();
            (
                s.store.len(),
                work,
                s.store.oldest_enqueued_at(),
                s.stats.last_delete_at,
                s.attributes
                    .redrive_policy
                    .as_ref()
                    .map(|p| p.max_receive_count),
            )
        };
        let id = format!("{}/{}/{}", q.key.region, q.key.account, q.key.name);
        let mut push = |r: Reading| out.push((format!("{}:{id}", r.kind), (q.key.clone(), r)));
        if targets.contains(&q.arn) {
            push(Reading {
                kind: "dlq_depth",
                firing: depth > 0,
                value: depth as u64,
                threshold: 0,
                reason: format!("{depth} message(s) in dead-letter queue {}", q.key.name),
            });
            continue;
        }
        push(receive_count(&q, max_receives, cfg, now));
        let since = last_delete.unwrap_or(0).max(oldest.unwrap_or(now));
        let idle = if work > 0 {
            now.saturating_sub(since)
        } else {
            0
        };
        if work > 0 && idle < stall_ms {
            due(since.saturating_add(stall_ms));
        }
        push(Reading {
            kind: "stall",
            firing: work > 0 && idle >= stall_ms,
            value: idle / 1000,
            threshold: cfg.stall_seconds,
            reason: format!(
                "{work} message(s) waiting, no DeleteMessage for {} s",
                idle / 1000
            ),
        });
        if age_ms > 0 {
            let age = oldest.map_or(0, |t| now.saturating_sub(t));
            if let Some(t) = oldest.filter(|_| age < age_ms) {
                due(t.saturating_add(age_ms));
            }
            push(Reading {
                kind: "oldest_message_age",
                firing: oldest.is_some() && age >= age_ms,
                value: age / 1000,
                threshold: cfg.max_age_seconds,
                reason: format!("oldest message is {} s old", age / 1000),
            });
        }
    }
    (out, next)
}

/// A message received N times: paged before it is dead-lettered (N defaults to the queue's
/// maxReceiveCount - 1), or while it loops on a queue without a dead-letter queue (N = 5).
fn receive_count(q: &Queue, max_receives: Option<u32>, cfg: &AlarmConfig, now: Millis) -> Reading {
    let threshold = cfg
        .receive_count
        .or(max_receives.map(|m| m.saturating_sub(1)))
        .unwrap_or(5)
        .max(1);
    let most = q.receive_count_reaching(threshold, now);
    Reading {
        kind: "receive_count",
        firing: most.is_some(),
        value: u64::from(most.unwrap_or(0)),
        threshold: u64::from(threshold),
        reason: match most {
            Some(n) => format!("a message has been received {n} times (threshold {threshold})"),
            None => format!("no message received {threshold} times"),
        },
    }
}

/// Logs a state change and, with a webhook configured, posts it on its own task.
fn announce(app: &App, alarm: Alarm) {
    if alarm.state == "ALARM" {
        // info, not warn: drills and CI runs fill DLQs on purpose; `sqslite::alarms=warn` in
        // SQSLITE_LOG silences transitions (README, Alarms).
        tracing::info!(alarm = %alarm.name, queue = %alarm.queue, reason = %alarm.reason, "alarm fired");
    } else {
        tracing::info!(alarm = %alarm.name, queue = %alarm.queue, "alarm back to OK");
    }
    let cfg = &app.config.admin.alarms;
    let Some(url) = cfg.webhook.clone() else {
        return;
    };
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let timeout = Duration::from_millis(cfg.webhook_timeout_ms);
    let retries = cfg.webhook_retries;
    runtime.spawn(post_webhook(url, alarm, timeout, retries));
}

async fn post_webhook(url: String, alarm: Alarm, timeout: Duration, retries: u32) {
    let body = serde_json::to_vec(&alarm).unwrap_or_default();
    let headers = [("content-type", "application/json")];
    for attempt in 0..=retries {
        match crate::http_client::request("POST", &url, &headers, body.clone(), timeout).await {
            Ok(reply) if reply.ok() => return,
            Ok(reply) => tracing::debug!(status = reply.status, %url, "webhook refused the alarm"),
            Err(e) => tracing::debug!(error = %e, "webhook unreachable"),
        }
        if attempt < retries {
            // Real time: the receiver's recovery has nothing to do with the server's clock.
            tokio::time::sleep(Duration::from_millis(200 << attempt.min(6))).await;
        }
    }
    tracing::warn!(%url, alarm = %alarm.name, "webhook gave up after {} attempts", retries + 1);
}

/// `sqslite_alarm_firing{alarm,kind,queue}`: 1 in ALARM, 0 when OK.
pub fn metric_families(app: &App) -> Vec<prometheus::proto::MetricFamily> {
    let alarms = app.alarms.evaluate(app, app.now());
    crate::metrics::gauge_family(
        "sqslite_alarm_firing",
        "1 while the alarm is in ALARM state",
        &["alarm", "kind", "queue"],
        alarms.into_iter().map(|a| {
            let v = if a.state == "ALARM" { 1.0 } else { 0.0 };
            (vec![a.name, a.kind.to_owned(), a.queue], v)
        }),
    )
}
