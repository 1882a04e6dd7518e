//! A topic's settable attributes and SNS's rule for each value.

use serde_json::Value;

use crate::sns::error::{SnsError, SnsResult};

/// Attributes a topic takes besides the delivery-status logging ones
/// (`<Protocol>SuccessFeedbackRoleArn`…, accepted as given).
pub const SETTABLE: &[&str] = &[
    "DeliveryPolicy",
    "DisplayName",
    "Policy",
    "SignatureVersion",
    "TracingConfig",
    "KmsMasterKeyId",
    "ContentBasedDeduplication",
    "ArchivePolicy",
    "FifoThroughputScope",
    "DataProtectionPolicy",
];

/// One attribute's value against SNS's rules; `create` allows FifoTopic.
pub(super) fn check_attribute(name: &str, value: &str, fifo: bool, create: bool) -> SnsResult<()> {
    let bool_value = || {
        if value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false") {
            Ok(())
        } else {
            Err(SnsError::invalid(format_args!("{name}")))
        }
    };
    match name {
        "FifoTopic" if create => bool_value(),
        "ContentBasedDeduplication" => {
            bool_value()?;
            if !fifo && value.eq_ignore_ascii_case("true") {
                return Err(SnsError::invalid(
                    "ContentBasedDeduplication Reason: Content based deduplication can only be set for FIFO topics",
                ));
            }
            Ok(())
        }
        "SignatureVersion" if value != "1" && value != "2" => {
            Err(SnsError::invalid("SignatureVersion"))
        }
        "TracingConfig" if value != "PassThrough" && value != "Active" => {
            Err(SnsError::invalid("TracingConfig"))
        }
        "Policy" => super::access::check_policy(value).map(drop),
        "DeliveryPolicy" | "ArchivePolicy" | "DataProtectionPolicy"
            if serde_json::from_str::<Value>(value).is_err() =>
        {
            Err(SnsError::invalid(format_args!("{name}")))
        }
        _ if SETTABLE.contains(&name) || is_feedback_attribute(name) => Ok(()),
        _ => Err(SnsError::invalid("AttributeName")),
    }
}

/// Whether `name` is one of the delivery-status logging attributes SNS accepts and sqslite only stores.
pub fn is_feedback_attribute(name: &str) -> bool {
    [
        "SuccessFeedbackRoleArn",
        "SuccessFeedbackSampleRate",
        "FailureFeedbackRoleArn",
    ]
    .iter()
    .any(|suffix| name.strip_suffix(suffix).is_some_and(|p| !p.is_empty()))
}

/// The members of a topic's `http` delivery policy in the order AWS writes them.
const HTTP_ORDER: &[&str] = &[
    "defaultHealthyRetryPolicy",
    "defaultSicklyRetryPolicy",
    "defaultThrottlePolicy",
    "disableSubscriptionOverrides",
    "defaultRequestPolicy",
];

/// A topic's DeliveryPolicy as AWS stores it (recorded, `test_topic_delivery_policy_crud`):
/// in its `http` part, members set to null are dropped and `disableSubscriptionOverrides`
/// is added as `false` when not given; a later policy replaces the earlier one whole.
pub(super) fn stored_delivery_policy(given: &str) -> String {
    let Ok(Value::Object(mut doc)) = serde_json::from_str::<Value>(given) else {
        return given.to_owned();
    };
    if let Some(Value::Object(http)) = doc.get_mut("http") {
        http.retain(|_, v| !v.is_null());
        http.entry("disableSubscriptionOverrides")
            .or_insert(Value::Bool(false));
        *http = ordered(std::mem::take(http));
    }
    Value::Object(doc).to_string()
}

/// A topic's EffectiveDeliveryPolicy: SNS's defaults with the stored policy's `http` members
/// laid over them, each retry or request policy member by member (recorded).
pub(super) fn effective_delivery_policy(stored: Option<&str>) -> String {
    let mut effective = serde_json::json!({"http": {
        "defaultHealthyRetryPolicy": {
            "minDelayTarget": 20, "maxDelayTarget": 20, "numRetries": 3,
            "numMaxDelayRetries": 0, "numNoDelayRetries": 0, "numMinDelayRetries": 0,
            "backoffFunction": "linear"
        },
        "disableSubscriptionOverrides": false,
        "defaultRequestPolicy": {"headerContentType": "text/plain; charset=UTF-8"}
    }});
    let given = stored.and_then(|s| serde_json::from_str::<Value>(s).ok());
    if let (Some(Value::Object(given)), Value::Object(out)) = (given, &mut effective) {
        for (key, value) in given {
            match (out.get_mut(&key), value) {
                (Some(Value::Object(base)), Value::Object(over)) if key == "http" => {
                    for (member, value) in over {
                        match (base.get_mut(&member), value) {
                            (Some(Value::Object(b)), Value::Object(o)) => b.extend(o),
                            (_, Value::Null) => {}
                            (_, v) => {
                                base.insert(member, v);
                            }
                        }
                    }
                    *base = ordered(std::mem::take(base));
                }
                (_, value) => {
                    out.insert(key, value);
                }
            }
        }
    }
    effective.to_string()
}

/// The `http` members in AWS's order, any others after them.
fn ordered(mut members: serde_json::Map<String, Value>) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    for key in HTTP_ORDER {
        if let Some(v) = members.remove(*key) {
            out.insert((*key).to_owned(), v);
        }
    }
    out.extend(members);
    out
}
