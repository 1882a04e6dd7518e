//! Where the services meet the fault rules: what a hit does to a call
//! ([`Injector::take_effect`], for every service). Each service makes its own check (SQS's in
//! the router before the action runs, SNS's before its action and before each delivery into
//! a queue) and renders the injected error in its own table.

use std::sync::Arc;

use crate::clock::{Millis, SharedClock};
use crate::http::DropConnection;

use super::{Call, Effect, Faults};

/// Where a hit is marked: the dashboard chart's recorder, an observer above the services
/// that call this floor, lent as this one method.
pub trait Marks: Send + Sync {
    /// Marks a hit of rule `rule` on `action` at `now` (on `queue`'s chart when it names one).
    fn fault(&self, now: Millis, rule: u64, action: &str, queue: Option<&str>, effect: String);
}

/// The rules with what a hit touches besides its rule, lent by the composition root: the
/// server's clock, the `/metrics` counter of hits and the chart's marks.
pub struct Injector {
    pub faults: Arc<Faults>,
    /// `sqslite_faults_injected_total`.
    pub counter: prometheus::IntCounter,
    pub marks: Arc<dyn Marks>,
    pub clock: SharedClock,
}

/// What a hit call names, for its log line: a queue (SQS) or a topic (SNS).
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub queue: Option<&'a str>,
    pub topic: Option<&'a str>,
}

impl Injector {
    /// Whether any rule exists: the one check a call makes while none does.
    pub fn armed(&self) -> bool {
        self.faults.armed()
    }

    /// The effect of the rule this call matches now, if any (counted as a hit).
    pub fn check(&self, call: &Call<'_>) -> Option<Effect> {
        self.faults.check_call(call, self.clock.now())
    }

    /// A hit on a call of either service: counted and logged, then its latency, then its
    /// dropped connection.
    pub async fn take_effect(
        &self,
        effect: &Effect,
        action: &str,
        target: Target<'_>,
        error: Option<&str>,
    ) -> Result<(), DropConnection> {
        self.counter.inc();
        if let Some(queue) = target.queue {
            // The queue chart's mark ("-": an SQS call naming no queue).
            let named = (queue != "-").then_some(queue);
            let what = describe(effect, error);
            self.marks
                .fault(self.clock.now(), effect.rule, action, named, what);
        }
        tracing::warn!(
            rule = effect.rule,
            action,
            queue = target.queue,
            topic = target.topic,
            error,
            latency_ms = effect.latency.map(|d| d.as_millis() as u64),
            drop_connection = effect.drop_connection,
            "fault injected"
        );
        if let Some(latency) = effect.latency {
            tokio::time::sleep(latency).await;
        }
        if effect.drop_connection {
            return Err(DropConnection);
        }
        Ok(())
    }
}

/// What a hit does in a few words, for the chart's marks: the error code, the latency, the
/// dropped connection.
fn describe(effect: &Effect, error: Option<&str>) -> String {
    let mut parts: Vec<String> = error.map(str::to_owned).into_iter().collect();
    if let Some(l) = effect.latency {
        parts.push(format!("latency {} ms", l.as_millis()));
    }
    if effect.drop_connection {
        parts.push("dropped connection".to_owned());
    }
    parts.join(", ")
}
