//! Fault injection: rules that make matching SQS or SNS calls fail, slow down or lose
//! their connection, checked before the action runs so an injected failure never
//! half-applies, and rules that fail SNS's deliveries into queues ([`FaultSpec`]: what a rule
//! says and which calls it hits).
//!
//! The request path pays one relaxed atomic load while no rule exists (`armed`). Rules on
//! Lambda-style invocations live in [`invoke`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::Serialize;

use crate::clock::Millis;

pub mod inject;
pub mod invoke;
mod spec;
pub use spec::{Call, Catalog, FaultSpec, Kinds, Services};

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
    kinds: Kinds,
}

/// What a hit rule does to the call.
#[derive(Debug)]
pub struct Effect {
    pub rule: u64,
    pub latency: Option<Duration>,
    /// The error to answer with, in the table of the service the call is for (SQS's for a
    /// delivery), checked when the rule was added; that service renders it.
    pub error: Option<Injected>,
    pub drop_connection: bool,
}

/// An injected error by its code, with the rule's message or none (the service's own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Injected {
    pub code: String,
    pub message: Option<String>,
}

#[derive(Debug)]
pub struct Faults {
    armed: AtomicBool,
    rules: Mutex<Vec<Rule>>,
    next_id: AtomicU64,
    services: Services,
}

impl Faults {
    /// No rules yet; rules may aim at these services.
    pub fn new(services: Services) -> Self {
        Faults {
            armed: AtomicBool::new(false),
            rules: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(0),
            services,
        }
    }

    /// Whether any rule exists: the one check the SQS path makes.
    pub fn armed(&self) -> bool {
        self.armed.load(Ordering::Relaxed)
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Rule>> {
        self.rules.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn add(&self, spec: FaultSpec, now: Millis) -> Result<Rule, String> {
        let kinds = spec.validate(&self.services)?;
        let ms = |s: f64| (s * 1000.0).round() as Millis;
        let active_from = now.saturating_add(spec.after_seconds.map_or(0, ms));
        let rule = Rule {
            id: self.next_id.fetch_add(1, Ordering::Relaxed) + 1,
            active_until: spec.for_seconds.map(|s| active_from.saturating_add(ms(s))),
            active_from,
            spec,
            hits: 0,
            kinds,
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

    fn retire(&self, rules: &mut Vec<Rule>, now: Millis) {
        rules.retain(|r| {
            r.active_until.is_none_or(|until| now < until)
                && r.spec.count.is_none_or(|c| r.hits < c)
        });
        self.armed.store(!rules.is_empty(), Ordering::Relaxed);
    }

    /// The first live rule matching this SQS call, counted as a hit.
    pub fn check(&self, action: &str, queue: Option<&str>, now: Millis) -> Option<Effect> {
        self.check_call(&Call::Sqs { action, queue }, now)
    }

    /// The first live rule matching this call of either service, or delivery, counted as a
    /// hit.
    pub fn check_call(&self, call: &Call<'_>, now: Millis) -> Option<Effect> {
        let mut rules = self.lock();
        self.retire(&mut rules, now);
        let rule = rules.iter_mut().find(|r| {
            now >= r.active_from
                && r.spec.matches(r.kinds, call)
                && r.spec.probability.is_none_or(|p| roll() < p)
        })?;
        rule.hits += 1;
        let error = rule.spec.error.clone().map(|code| Injected {
            code,
            message: rule.spec.message.clone(),
        });
        let effect = Effect {
            rule: rule.id,
            latency: rule.spec.latency_ms.map(Duration::from_millis),
            error,
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

#[cfg(test)]
#[path = "faults_tests.rs"]
mod tests;
