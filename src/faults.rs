//! Fault injection: rules that make matching SQS calls fail, slow down or lose their
//! connection, checked before the action runs so an injected failure never half-applies.
//!
//! The SQS path pays one relaxed atomic load while no rule exists (`armed`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::actions::Action;
use crate::clock::Millis;
use crate::error::{ErrorKind, SqsError};

/// A rule as written by a user, in the admin API's JSON or a `[[faults]]` table.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FaultSpec {
    /// Matches this SQS action only (e.g. `ReceiveMessage`); any action when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Matches calls naming this queue (by QueueUrl or QueueName); any queue when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<String>,
    /// An error code of the SQS error table, e.g. `ServiceUnavailable` or `KMS.ThrottlingException`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Wall-clock delay before the call proceeds (or fails): clients time out in real time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drop_connection: bool,
    /// Chance in (0, 1] that a matching call is hit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<f64>,
    /// The rule retires after this many hits ("the next 3 calls").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// The window on the server's clock, from when the rule is added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_seconds: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_seconds: Option<f64>,
}

/// A live rule: the spec plus what it has done so far.
#[derive(Debug, Clone, Serialize)]
pub struct Rule {
    pub id: u64,
    #[serde(flatten)]
    pub spec: FaultSpec,
    pub active_from: Millis,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_until: Option<Millis>,
    pub hits: u64,
    #[serde(skip)]
    kind: Option<ErrorKind>,
}

/// What a hit rule does to the call.
#[derive(Debug)]
pub struct Effect {
    pub rule: u64,
    pub latency: Option<Duration>,
    pub error: Option<SqsError>,
    pub drop_connection: bool,
}

impl Effect {
    /// What it does in a few words, for the chart's marks: the error code, the latency,
    /// the dropped connection.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(e) = &self.error {
            parts.push(e.kind.query_code().to_owned());
        }
        if let Some(l) = self.latency {
            parts.push(format!("latency {} ms", l.as_millis()));
        }
        if self.drop_connection {
            parts.push("dropped connection".to_owned());
        }
        parts.join(", ")
    }
}

/// Returned by the service to make hyper close the connection without answering.
#[derive(Debug)]
pub struct DropConnection;

impl std::fmt::Display for DropConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection dropped by a fault rule")
    }
}

impl std::error::Error for DropConnection {}

#[derive(Debug, Default)]
pub struct Faults {
    armed: AtomicBool,
    rules: Mutex<Vec<Rule>>,
    next_id: AtomicU64,
    injected: AtomicU64,
}

impl FaultSpec {
    /// Checks the rule; the message names the field at fault.
    pub fn validate(&self) -> Result<Option<ErrorKind>, String> {
        if let Some(action) = &self.action {
            if !Action::NAMES.contains(&action.as_str()) {
                let hint = Action::NAMES
                    .iter()
                    .map(|n| (strsim::levenshtein(n, action), n))
                    .filter(|(d, _)| *d <= 3)
                    .min_by_key(|(d, _)| *d)
                    .map(|(_, n)| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                return Err(format!("`action`: `{action}` is not an SQS action{hint}"));
            }
        }
        let kind = match &self.error {
            Some(code) => Some(ErrorKind::from_name(code).ok_or_else(|| {
                format!("`error`: `{code}` is not an error code of the SQS error table")
            })?),
            None => None,
        };
        if kind.is_none() && self.latency_ms.is_none() && !self.drop_connection {
            return Err(
                "a rule needs an effect: `error`, `latency_ms` or `drop_connection`".into(),
            );
        }
        if let Some(p) = self.probability {
            if !(p > 0.0 && p <= 1.0) {
                return Err(format!("`probability` must be in (0, 1], not {p}"));
            }
        }
        if self.count == Some(0) {
            return Err("`count` must be at least 1".into());
        }
        for (name, v) in [
            ("after_seconds", self.after_seconds),
            ("for_seconds", self.for_seconds),
        ] {
            if v.is_some_and(|s| !(s.is_finite() && s >= 0.0)) {
                return Err(format!("`{name}` must be a number of seconds >= 0"));
            }
        }
        Ok(kind)
    }
}

impl Faults {
    /// Whether any rule exists: the one check the SQS path makes.
    pub fn armed(&self) -> bool {
        self.armed.load(Ordering::Relaxed)
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Rule>> {
        self.rules.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn add(&self, spec: FaultSpec, now: Millis) -> Result<Rule, String> {
        let kind = spec.validate()?;
        let ms = |s: f64| (s * 1000.0).round() as Millis;
        let active_from = now.saturating_add(spec.after_seconds.map_or(0, ms));
        let rule = Rule {
            id: self.next_id.fetch_add(1, Ordering::Relaxed) + 1,
            active_until: spec.for_seconds.map(|s| active_from.saturating_add(ms(s))),
            active_from,
            spec,
            hits: 0,
            kind,
        };
        let mut rules = self.lock();
        rules.push(rule.clone());
        self.armed.store(true, Ordering::Relaxed);
        Ok(rule)
    }

    /// Live rules, dropping those whose window has closed.
    pub fn list(&self, now: Millis) -> Vec<Rule> {
        let mut rules = self.lock();
        self.retire(&mut rules, now);
        rules.clone()
    }

    pub fn remove(&self, id: u64) -> bool {
        let mut rules = self.lock();
        let before = rules.len();
        rules.retain(|r| r.id != id);
        self.armed.store(!rules.is_empty(), Ordering::Relaxed);
        rules.len() != before
    }

    pub fn clear(&self) {
        self.lock().clear();
        self.armed.store(false, Ordering::Relaxed);
    }

    /// How many calls a rule has hit since startup.
    pub fn injected(&self) -> u64 {
        self.injected.load(Ordering::Relaxed)
    }

    fn retire(&self, rules: &mut Vec<Rule>, now: Millis) {
        rules.retain(|r| {
            r.active_until.is_none_or(|until| now < until)
                && r.spec.count.is_none_or(|c| r.hits < c)
        });
        self.armed.store(!rules.is_empty(), Ordering::Relaxed);
    }

    /// The first live rule matching this call, counted as a hit.
    pub fn check(&self, action: &str, queue: Option<&str>, now: Millis) -> Option<Effect> {
        let mut rules = self.lock();
        self.retire(&mut rules, now);
        let rule = rules.iter_mut().find(|r| {
            now >= r.active_from
                && r.spec.action.as_deref().is_none_or(|a| a == action)
                && r.spec.queue.as_deref().is_none_or(|q| Some(q) == queue)
                && r.spec.probability.is_none_or(|p| roll() < p)
        })?;
        rule.hits += 1;
        self.injected.fetch_add(1, Ordering::Relaxed);
        let effect = Effect {
            rule: rule.id,
            latency: rule.spec.latency_ms.map(Duration::from_millis),
            error: rule.kind.map(|k| match &rule.spec.message {
                Some(m) => SqsError::new(k, m.clone()),
                None => SqsError::of(k),
            }),
            drop_connection: rule.spec.drop_connection,
        };
        self.retire(&mut rules, now);
        Some(effect)
    }
}

/// A uniform number in [0, 1) from the v4 UUID generator the crate already uses.
fn roll() -> f64 {
    let bits = uuid::Uuid::new_v4().as_u128() >> 75;
    bits as f64 / (1u64 << 53) as f64
}

/// The queue a raw request names, by QueueUrl (its last path segment) or QueueName.
pub fn target_queue(
    json_body: &[u8],
    params: &crate::protocol::Params<'_>,
    path: Option<&str>,
) -> Option<String> {
    let from_url = |url: &str| {
        url.trim_end_matches('/')
            .rsplit('/')
            .next()
            .map(str::to_owned)
    };
    let lookup = |key: &str| params.get(key).map(str::to_owned);
    if let Some(url) = lookup("QueueUrl") {
        return from_url(&url);
    }
    if let Some(name) = lookup("QueueName") {
        return Some(name);
    }
    if let Some(path) = path {
        return from_url(path);
    }
    let body: Value = serde_json::from_slice(json_body).ok()?;
    if let Some(url) = body.get("QueueUrl").and_then(Value::as_str) {
        return from_url(url);
    }
    body.get("QueueName")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Params;

    fn spec(json: &str) -> FaultSpec {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn count_retires_the_rule_and_disarms() {
        let faults = Faults::default();
        faults
            .add(
                spec(r#"{"action":"SendMessage","error":"RequestThrottled","count":2}"#),
                0,
            )
            .unwrap();
        assert!(faults.check("ReceiveMessage", None, 0).is_none());
        assert!(faults.check("SendMessage", Some("q"), 0).is_some());
        assert!(faults.check("SendMessage", Some("q"), 0).is_some());
        assert!(faults.check("SendMessage", Some("q"), 0).is_none());
        assert!(!faults.armed());
    }

    #[test]
    fn window_follows_the_server_clock() {
        let faults = Faults::default();
        faults
            .add(
                spec(r#"{"queue":"q","drop_connection":true,"after_seconds":10,"for_seconds":5}"#),
                1_000,
            )
            .unwrap();
        assert!(faults.check("SendMessage", Some("q"), 10_999).is_none());
        assert!(faults.check("SendMessage", Some("other"), 11_000).is_none());
        assert!(faults.check("SendMessage", Some("q"), 11_000).is_some());
        assert!(faults.check("SendMessage", Some("q"), 16_000).is_none());
        assert!(!faults.armed());
    }

    #[test]
    fn bad_rules_name_the_problem() {
        let err = |j: &str| spec(j).validate().unwrap_err();
        assert!(err(r#"{"action":"SendMesage","error":"InternalError"}"#).contains("SendMessage"));
        assert!(err(r#"{"error":"NoSuchCode"}"#).contains("NoSuchCode"));
        assert!(err(r#"{"action":"SendMessage"}"#).contains("effect"));
        assert!(err(r#"{"error":"InternalError","probability":2}"#).contains("probability"));
    }

    #[test]
    fn queue_comes_from_url_name_or_body() {
        let p = Params::parse(Some("QueueUrl=http://h/1/orders"), None).unwrap();
        assert_eq!(target_queue(b"", &p, None).as_deref(), Some("orders"));
        let body = br#"{"QueueName":"jobs"}"#;
        let none = Params::default();
        assert_eq!(target_queue(body, &none, None).as_deref(), Some("jobs"));
    }
}
