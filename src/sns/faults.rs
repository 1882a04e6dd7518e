//! How SNS meets the fault rules: the check before an action runs, the one before each
//! delivery into a queue, the topic a request names, and SNS's error for an injected code.

use crate::clock::Millis;
use crate::faults::inject::{Injector, Target};
use crate::faults::{Call, Catalog, Injected};
use crate::http::DropConnection;

use super::actions::Action;
use super::error::{SnsError, SnsErrorKind};
use super::protocol::Form;

/// What a fault rule may name in SNS: its actions and its error codes.
pub const FAULT_CATALOG: Catalog = Catalog {
    actions: Action::NAMES,
    knows_code: |code| SnsErrorKind::from_name(code).is_some(),
};

/// Applies the rule this call matches, if any: its latency, then its dropped connection or
/// its SNS error (the action then never runs).
pub async fn on_call(
    faults: &Injector,
    action: &str,
    form: &Form,
) -> Result<Option<SnsError>, DropConnection> {
    let topic = target_topic(|k| form.get(k).map(str::to_owned));
    let call = Call::Sns {
        action,
        topic: topic.as_deref(),
    };
    let Some(effect) = faults.check(&call) else {
        return Ok(None);
    };
    let error = effect.error.as_ref().map(injected);
    let target = Target {
        queue: None,
        topic: Some(topic.as_deref().unwrap_or("-")),
    };
    let code = error.as_ref().map(SnsError::code);
    faults.take_effect(&effect, action, target, code).await?;
    Ok(error)
}

/// Why a rule fails this delivery from the topic into the queue (both by ARN), if one does:
/// the delivery then counts as failed, as a refused send would, with SQS's error.
pub fn on_delivery(
    faults: &Injector,
    topic_arn: &str,
    queue_arn: &str,
    now: Millis,
) -> Option<String> {
    if !faults.armed() {
        return None;
    }
    let name = |arn: &str| arn.rsplit(':').next().unwrap_or_default().to_owned();
    let (topic, queue) = (name(topic_arn), name(queue_arn));
    let call = Call::Delivery {
        topic: &topic,
        queue: &queue,
    };
    let effect = faults.faults.check_call(&call, now)?;
    faults.counter.inc();
    let injected = effect.error.as_ref()?;
    let error = crate::sqs::error::SqsError::by_code(&injected.code, injected.message.as_deref());
    let code = error.kind.query_code();
    tracing::warn!(rule = effect.rule, %topic, %queue, error = code, "fault injected into an SNS delivery");
    Some(format!(
        "fault rule {}: {code}: {}",
        effect.rule, error.message
    ))
}

/// SNS's error for an injected code (known to its table: rules are checked when added), with
/// the rule's message or the one SNS gives.
fn injected(e: &Injected) -> SnsError {
    let kind = SnsErrorKind::from_name(&e.code).unwrap_or(SnsErrorKind::InternalError);
    let message = e.message.clone().unwrap_or_else(|| {
        match kind {
            SnsErrorKind::Throttled => "Rate exceeded",
            SnsErrorKind::InternalError => "Internal Error",
            SnsErrorKind::ServiceUnavailable => {
                "The request has failed due to a temporary failure of the server."
            }
            other => other.code(),
        }
        .to_owned()
    });
    SnsError::new(kind, message)
}

/// The topic an SNS request names: by TopicArn, TargetArn or ResourceArn, or the topic of
/// its SubscriptionArn (`<topic ARN>:<id>`).
pub fn target_topic(get: impl Fn(&str) -> Option<String>) -> Option<String> {
    let topic_arn = ["TopicArn", "TargetArn", "ResourceArn"]
        .iter()
        .find_map(|k| get(k))
        .or_else(|| Some(get("SubscriptionArn")?.rsplit_once(':')?.0.to_owned()))?;
    topic_arn.rsplit(':').next().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::target_topic;

    #[test]
    fn the_topic_comes_from_any_arn_an_sns_call_names() {
        let from = |k: &'static str, v: &'static str| {
            target_topic(move |key| (key == k).then(|| v.to_owned()))
        };
        let topic = "arn:aws:sns:us-east-1:000000000000:orders";
        assert_eq!(from("TopicArn", topic).as_deref(), Some("orders"));
        assert_eq!(from("ResourceArn", topic).as_deref(), Some("orders"));
        let sub = "arn:aws:sns:us-east-1:000000000000:orders:5f1c";
        assert_eq!(from("SubscriptionArn", sub).as_deref(), Some("orders"));
        assert_eq!(from("Other", topic), None);
    }
}
