//! Where the services meet the fault rules: what a hit does to a call ([`take_effect`],
//! for both services), the check before an SNS action runs, and the one before each
//! delivery of a publish into a queue. (The SQS path's own check sits in
//! [`crate::service`], before the SQS action is decoded.)

use crate::app::App;
use crate::clock::Millis;
use crate::sns::error::SnsError;
use crate::sns::protocol::Form;

use super::{target_topic, Call, DropConnection, Effect};

/// Applies the fault rule this SNS call matches, if any: its latency, then its dropped
/// connection or SNS error (the action then never runs).
pub async fn sns(app: &App, action: &str, form: &Form) -> Result<Option<SnsError>, DropConnection> {
    let topic = target_topic(|k| form.get(k).map(str::to_owned));
    let call = Call::Sns {
        action,
        topic: topic.as_deref(),
    };
    let Some(effect) = app.faults.check_call(&call, app.now()) else {
        return Ok(None);
    };
    let error = effect.sns_error.as_ref().map(SnsError::code);
    let target = Target {
        queue: None,
        topic: Some(topic.as_deref().unwrap_or("-")),
    };
    take_effect(app, &effect, action, target, error).await?;
    Ok(effect.sns_error)
}

/// What a hit call names, for its log line: a queue (SQS) or a topic (SNS).
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub queue: Option<&'a str>,
    pub topic: Option<&'a str>,
}

/// A hit on a call of either service: counted and logged, then its latency, then its
/// dropped connection.
pub async fn take_effect(
    app: &App,
    effect: &Effect,
    action: &str,
    target: Target<'_>,
    error: Option<&str>,
) -> Result<(), DropConnection> {
    app.metrics.fault_injected();
    if let Some(queue) = target.queue {
        // The queue chart's mark ("-": an SQS call naming no queue).
        let named = (queue != "-").then_some(queue);
        let what = describe(effect, error);
        app.series
            .fault(app.now(), effect.rule, action, named, what);
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

/// Why a fault rule fails this delivery from the topic into the queue (both by ARN), if
/// one does: the delivery then counts as failed, as a refused send would.
pub fn delivery(app: &App, topic_arn: &str, queue_arn: &str, now: Millis) -> Option<String> {
    if !app.faults.armed() {
        return None;
    }
    let name = |arn: &str| arn.rsplit(':').next().unwrap_or_default().to_owned();
    let (topic, queue) = (name(topic_arn), name(queue_arn));
    let call = Call::Delivery {
        topic: &topic,
        queue: &queue,
    };
    let effect = app.faults.check_call(&call, now)?;
    app.metrics.fault_injected();
    let error = effect.error?;
    tracing::warn!(rule = effect.rule, %topic, %queue, error = error.kind.query_code(), "fault injected into an SNS delivery");
    Some(format!(
        "fault rule {}: {}: {}",
        effect.rule,
        error.kind.query_code(),
        error.message
    ))
}
