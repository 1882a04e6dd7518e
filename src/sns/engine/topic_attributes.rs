//! A topic's settable attributes and SNS's rule for each value.

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
            if serde_json::from_str::<serde_json::Value>(value).is_err() =>
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
