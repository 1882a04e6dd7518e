//! One look at the server: each of the drill's queues (counts, oldest age, deletes, its
//! messages) and the alarms, at one instant of the server's clock; and what a probe reads
//! from a look.

use std::collections::BTreeMap;

use serde_json::Value;

use super::spec::Probe;
use crate::drill::{Endpoint, KIND_ATTRIBUTE, RUN_ATTRIBUTE};

/// A queue as one look saw it.
#[derive(Debug, Clone, Default)]
pub struct QueueLook {
    /// Messages ready to receive.
    pub visible: u64,
    /// Messages received and not yet deleted or back.
    pub in_flight: u64,
    /// Messages not yet visible for their delay.
    pub delayed: u64,
    /// The oldest message's age, seconds.
    pub oldest_age: u64,
    /// DeleteMessage calls that took a message, so far.
    pub deleted: u64,
    /// ReceiveMessage calls, empty ones included, so far.
    pub polls: u64,
    /// Every message, as the admin API lists them; emptied once a later look is taken.
    pub messages: Vec<Value>,
}

/// The server at one instant.
#[derive(Debug, Clone, Default)]
pub struct Look {
    /// Server time, ms.
    pub t: u64,
    /// By queue name.
    pub queues: BTreeMap<String, QueueLook>,
    /// The alarms, as the admin API lists them.
    pub alarms: Vec<Value>,
    /// Each fault rule's queue (empty for any) and hits so far, by rule id.
    pub faults: BTreeMap<u64, (String, u64)>,
}

/// Takes one look at `queues`.
pub async fn take(ep: &Endpoint, queues: &[String]) -> Result<Look, String> {
    let mut look = Look {
        t: ep.clock().await?.0,
        ..Look::default()
    };
    for name in queues {
        let info = ep.get(&format!("/_sqslite/queues/{name}")).await?;
        let n = |v: &Value| v.as_u64().unwrap_or(0);
        let messages = crate::drill::messages(ep, name).await?;
        look.queues.insert(
            name.clone(),
            QueueLook {
                visible: n(&info["visible"]),
                in_flight: n(&info["in_flight"]),
                delayed: n(&info["delayed"]),
                oldest_age: n(&info["oldest_message_age_seconds"]),
                deleted: n(&info["stats"]["deleted"]),
                // The server's counts are summed without trusting them to be small.
                polls: n(&info["stats"]["received"])
                    .saturating_add(n(&info["stats"]["empty_receives"])),
                messages,
            },
        );
    }
    let alarms = ep.get("/_sqslite/alarms").await?;
    look.alarms = alarms["alarms"].as_array().cloned().unwrap_or_default();
    let faults = ep.get("/_sqslite/faults").await?;
    for rule in faults["faults"].as_array().into_iter().flatten() {
        if let Some(id) = rule["id"].as_u64() {
            let queue = rule["queue"].as_str().unwrap_or_default().to_owned();
            look.faults
                .insert(id, (queue, rule["hits"].as_u64().unwrap_or(0)));
        }
    }
    Ok(look)
}

/// A message attribute of ours, from the admin API's listing of a message.
fn attribute(m: &Value, name: &str) -> Option<String> {
    crate::drill::attribute_of(&m["message_attributes"], &m["body"], name)
}

/// The kind a drill's message was sent as (`valid`, `poison`, ...).
pub fn kind_of(m: &Value) -> Option<String> {
    attribute(m, KIND_ATTRIBUTE)
}

/// Whether `m` is one of this run's messages of `kind` (`*`: any kind).
pub fn is_ours(m: &Value, run: &str, kind: &str) -> bool {
    attribute(m, RUN_ATTRIBUTE).as_deref() == Some(run)
        && (kind == "*" || attribute(m, KIND_ATTRIBUTE).as_deref() == Some(kind))
}

/// This run's messages of `kind` in one queue.
pub fn ours<'a>(q: &'a QueueLook, run: &'a str, kind: &'a str) -> impl Iterator<Item = &'a Value> {
    q.messages.iter().filter(move |m| is_ours(m, run, kind))
}

/// What a look reads for a counting probe; `None` for `alarm`, or a queue not looked at.
pub fn value(p: &Probe, look: &Look, history: &[Look], run: &str) -> Option<f64> {
    if p.measure() == "fault_hits" {
        return Some(fault_hits(p, history) as f64);
    }
    let name = p.queue.as_ref()?.get_ref();
    let q = look.queues.get(name)?;
    let v = match p.measure() {
        "depth" => match (&p.kind, &p.group) {
            (None, None) => q
                .visible
                .saturating_add(q.in_flight)
                .saturating_add(q.delayed),
            (kind, group) => q
                .messages
                .iter()
                .filter(|m| kind.as_deref().is_none_or(|k| is_ours(m, run, k)))
                .filter(|m| group.as_deref().is_none_or(|g| m["message_group_id"] == g))
                .count() as u64,
        },
        "visible" => q.visible,
        "in_flight" => q.in_flight,
        "oldest_age" => q.oldest_age,
        "processed_more_than_once" => repeated(q),
        "deletes" => {
            let window = p.interval_seconds.unwrap_or(60).saturating_mul(1000);
            let since = look.t.saturating_sub(window);
            let base = history
                .iter()
                .rev()
                .find(|l| l.t <= since)
                .or(history.first())
                .and_then(|l| l.queues.get(name))
                .map_or(q.deleted, |b| b.deleted);
            q.deleted.saturating_sub(base)
        }
        _ => return None,
    };
    Some(v as f64)
}

/// `processed_more_than_once`: the queue holds the consumer's side effects (a charge, a
/// shipment), one message each, whose body names what was processed; each body seen before
/// counts once more.
fn repeated(q: &QueueLook) -> u64 {
    let mut seen = std::collections::HashSet::new();
    q.messages
        .iter()
        .filter(|m| !seen.insert(m["body"].as_str().unwrap_or_default()))
        .count() as u64
}

/// The hits of the fault rules added during the drill (not there at its first look), on the
/// probe's queue if it names one; a rule that ended keeps the hits it was last seen with.
fn fault_hits(p: &Probe, history: &[Look]) -> u64 {
    let Some(first) = history.first() else {
        return 0;
    };
    let wanted = p.queue.as_ref().map(|q| q.get_ref().as_str());
    let mut most: BTreeMap<u64, u64> = BTreeMap::new();
    for look in history {
        for (id, (queue, hits)) in &look.faults {
            let on_queue = wanted.is_none_or(|w| queue == w);
            if on_queue && !first.faults.contains_key(id) {
                let seen = most.entry(*id).or_default();
                *seen = (*seen).max(*hits);
            }
        }
    }
    most.values().sum()
}

/// Whether the alarm a probe names is in its state; for `ALARM`, also one that fired since
/// `since` and has cleared again.
pub fn alarm_holds(p: &Probe, look: &Look, since: u64) -> bool {
    let (Some(kind), Some(state), Some(queue)) = (&p.alarm, &p.state, &p.queue) else {
        return false;
    };
    look.alarms.iter().any(|a| {
        a["kind"] == kind.as_str()
            && a["queue"] == queue.get_ref().as_str()
            && (a["state"] == state.as_str()
                || (state == "ALARM" && a["last_fired_at"].as_u64().is_some_and(|t| t >= since)))
    })
}

/// Whether a counted value is within the probe's tolerance.
pub fn within(p: &Probe, v: f64) -> bool {
    p.min.is_none_or(|m| v >= m)
        && p.max.is_none_or(|m| v <= m)
        && p.equals.is_none_or(|e| (v - e).abs() < f64::EPSILON)
}

/// The tolerance in words: `<= 0`, `>= 3`, `= 1`.
pub fn tolerance(p: &Probe) -> String {
    let mut parts = Vec::new();
    if let Some(m) = p.min {
        parts.push(format!(">= {m}"));
    }
    if let Some(m) = p.max {
        parts.push(format!("<= {m}"));
    }
    if let Some(e) = p.equals {
        parts.push(format!("= {e}"));
    }
    if let (Some(a), Some(s)) = (&p.alarm, &p.state) {
        parts.push(format!("alarm {a} {s}"));
    }
    parts.join(" and ")
}
