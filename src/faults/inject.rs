//! Where the services meet the fault rules: what a hit does to a call
//! ([`Injector::take_effect`], for both services), the check before an SNS action runs, and
//! the one before each delivery of a publish into a queue. (The SQS path's own check sits in
//! the router, `service.rs`, before the SQS action is decoded.)

use std::sync::Arc;

use crate::clock::{Millis, SharedClock};
use crate::http::DropConnection;
use crate::series::Recorder;
use crate::sns::error::SnsError;
use crate::sns::protocol::Form;

use super::{target_topic, Call, Effect, Faults};

/// The rules with what a hit touches besides its rule, lent by the composition root: the
/// server's clock, the `/metrics` counter of hits and the chart's marks.
pub struct Injector {
    pub faults: Arc<Faults>,
    /// `sqslite_faults_injected_total`.
    pub counter: prometheus::IntCounter,
    pub series: Arc<Recorder>,
    pub clock: SharedClock,
}

/// What a hit call names, for its log line: a queue (SQS) or a topic (SNS).
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub queue: Option<&'a str>,
    pub topic: Option<&'a str>,
}

impl Injector {
    /// Applies the fault rule this SNS call matches, if any: its latency, then its dropped
    /// connection or SNS error (the action then never runs).
    pub async fn sns(&self, action: &str, form: &Form) -> Result<Option<SnsError>, DropConnection> {
        let topic = target_topic(|k| form.get(k).map(str::to_owned));
        let call = Call::Sns {
            action,
            topic: topic.as_deref(),
        };
        let Some(effect) = self.faults.check_call(&call, self.clock.now()) else {
            return Ok(None);
        };
        let error = effect.sns_error.as_ref().map(SnsError::code);
        let target = Target {
            queue: None,
            topic: Some(topic.as_deref().unwrap_or("-")),
        };
        self.take_effect(&effect, action, target, error).await?;
        Ok(effect.sns_error)
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
            self.series
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

    /// Why a fault rule fails this delivery from the topic into the queue (both by ARN), if
    /// one does: the delivery then counts as failed, as a refused send would.
    pub fn delivery(&self, topic_arn: &str, queue_arn: &str, now: Millis) -> Option<String> {
        if !self.faults.armed() {
            return None;
        }
        let name = |arn: &str| arn.rsplit(':').next().unwrap_or_default().to_owned();
        let (topic, queue) = (name(topic_arn), name(queue_arn));
        let call = Call::Delivery {
            topic: &topic,
            queue: &queue,
        };
        let effect = self.faults.check_call(&call, now)?;
        self.counter.inc();
        let error = effect.error?;
        tracing::warn!(rule = effect.rule, %topic, %queue, error = error.kind.query_code(), "fault injected into an SNS delivery");
        Some(format!(
            "fault rule {}: {}: {}",
            effect.rule,
            error.kind.query_code(),
            error.message
        ))
    }
}

/// SNS meets the rules through this, lent as its [`crate::sns::FaultRules`].
impl crate::sns::FaultRules for Injector {
    fn armed(&self) -> bool {
        self.faults.armed()
    }

    fn on_call<'a>(&'a self, action: &'a str, form: &'a Form) -> crate::sns::service::Hit<'a> {
        Box::pin(self.sns(action, form))
    }

    fn on_delivery(&self, topic_arn: &str, queue_arn: &str, now: Millis) -> Option<String> {
        self.delivery(topic_arn, queue_arn, now)
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
