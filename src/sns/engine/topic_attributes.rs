//! A topic's settable attributes and SNS's rule for each value.

use serde_json::Value;

use crate::sns::error::{SnsError, SnsResult};

/// How SNS checks one settable attribute's value.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Stored as given.
    Any,
    /// `true` or `false`, in any case.
    Bool,
    /// [`Rule::Bool`], and `true` only on a FIFO topic.
    FifoOnly,
    /// One of these values exactly.
    OneOf(&'static [&'static str]),
    /// A JSON document.
    Json,
    /// A resource policy, as SNS checks one.
    Policy,
}

/// The table of a topic's settable attributes, one row each: their names ([`SETTABLE`], what
/// CreateTopic, SetTopicAttributes and `[[topics]]` accept besides the delivery-status logging
/// ones, `<Protocol>SuccessFeedbackRoleArn`…, taken as given) and their rules.
macro_rules! topic_attributes {
    ($($name:literal => $rule:expr),* $(,)?) => {
        /// Attributes a topic takes besides the delivery-status logging ones.
        pub const SETTABLE: &[&str] = &[$($name),*];
        /// Each settable attribute's rule.
        const RULES: &[(&str, Rule)] = &[$(($name, $rule)),*];
    };
}

topic_attributes! {
    "DeliveryPolicy" => Rule::Json,
    "DisplayName" => Rule::Any,
    "Policy" => Rule::Policy,
    "SignatureVersion" => Rule::OneOf(&["1", "2"]),
    "TracingConfig" => Rule::OneOf(&["PassThrough", "Active"]),
    "KmsMasterKeyId" => Rule::Any,
    "ContentBasedDeduplication" => Rule::FifoOnly,
    "ArchivePolicy" => Rule::Json,
    "FifoThroughputScope" => Rule::Any,
    "DataProtectionPolicy" => Rule::Json,
}

/// The longest DisplayName, in characters (SNS's documented limit; a longer one is
/// recorded refused as `Invalid parameter: Attributes Reason: DisplayName`).
const MAX_DISPLAY_NAME: usize = 100;

/// The longest value of any other topic attribute, in bytes: a Policy's 30 KB, which
/// SNS documents; for the other JSON documents and ARNs SNS records no limit, and sqslite
/// holds them to the same \[unverified\], so no attribute stores megabytes.
const MAX_VALUE_BYTES: usize = 30 * 1024;

/// One attribute's value against SNS's rules; `create` allows FifoTopic.
pub(super) fn check_attribute(name: &str, value: &str, fifo: bool, create: bool) -> SnsResult<()> {
    let too_long = match name {
        "DisplayName" => value.chars().count() > MAX_DISPLAY_NAME,
        // The Policy's own check words its refusal as SNS does.
        "Policy" => false,
        _ => value.len() > MAX_VALUE_BYTES,
    };
    if too_long {
        return Err(SnsError::invalid(format_args!("{name}")));
    }
    let rule = match name {
        "FifoTopic" if create => Rule::Bool,
        _ if is_feedback_attribute(name) => Rule::Any,
        _ => RULES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, rule)| *rule)
            .ok_or_else(|| SnsError::invalid("AttributeName"))?,
    };
    let is_bool = value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false");
    match rule {
        Rule::Bool | Rule::FifoOnly if !is_bool => Err(SnsError::invalid(format_args!("{name}"))),
        Rule::FifoOnly if !fifo && value.eq_ignore_ascii_case("true") => Err(SnsError::invalid(
            "ContentBasedDeduplication Reason: Content based deduplication can only be set for FIFO topics",
        )),
        Rule::Any | Rule::Bool | Rule::FifoOnly => Ok(()),
        Rule::OneOf(values) if values.contains(&value) => Ok(()),
        Rule::Json if serde_json::from_str::<Value>(value).is_ok() => Ok(()),
        Rule::OneOf(_) | Rule::Json => Err(SnsError::invalid(format_args!("{name}"))),
        Rule::Policy => super::access::check_policy(value).map(drop),
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

/// Tags against SNS's limits: keys 1-128 characters, values at most 256.
pub(super) fn check_tags(tags: &std::collections::BTreeMap<String, String>) -> SnsResult<()> {
    for (k, v) in tags {
        if k.is_empty() || k.chars().count() > 128 || v.chars().count() > 256 {
            return Err(SnsError::invalid("Tags"));
        }
    }
    Ok(())
}
