//! RedrivePolicy and RedriveAllowPolicy: their JSON forms, validation and canonical rendering.

use serde_json::{json, Value};

use crate::sqs::engine::limits;
use crate::sqs::error::{SqsError, SqsResult};

/// Where a queue's poison messages go, and after how many receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedrivePolicy {
    /// deadLetterTargetArn: the dead-letter queue.
    pub dead_letter_target_arn: String,
    /// maxReceiveCount: 1 to 1,000 receives before the move.
    pub max_receive_count: u32,
}

impl RedrivePolicy {
    /// `""` removes the policy (`Ok(None)`).
    pub fn parse(text: &str) -> SqsResult<Option<Self>> {
        if text.is_empty() {
            return Ok(None);
        }
        let invalid = |reason: &str| SqsError::invalid_value(text, "RedrivePolicy", reason);
        let Ok(Value::Object(map)) = serde_json::from_str::<Value>(text) else {
            return Err(invalid("Redrive policy is not a valid JSON map."));
        };
        let Some(arn) = map.get("deadLetterTargetArn") else {
            return Err(invalid(
                "Redrive policy does not contain mandatory attribute: deadLetterTargetArn.",
            ));
        };
        let Some(count) = map.get("maxReceiveCount") else {
            return Err(invalid(
                "Redrive policy does not contain mandatory attribute: maxReceiveCount.",
            ));
        };
        let arn = arn.as_str().unwrap_or_default();
        if crate::sqs::engine::arn::parse(arn).is_none() {
            return Err(invalid("Invalid value for deadLetterTargetArn."));
        }
        let count_text = match count {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match count_text.parse::<u32>() {
            Ok(n) if (1..=1000).contains(&n) => Ok(Some(RedrivePolicy {
                dead_letter_target_arn: arn.to_owned(),
                max_receive_count: n,
            })),
            _ => Err(invalid(&format!(
                "Invalid value for maxReceiveCount: {count_text}, valid values are from 1 to 1000 both inclusive."
            ))),
        }
    }

    /// The policy as GetQueueAttributes returns it.
    pub fn render(&self) -> String {
        json!({
            "deadLetterTargetArn": self.dead_letter_target_arn,
            "maxReceiveCount": self.max_receive_count,
        })
        .to_string()
    }
}

/// Which source queues may use a queue as their dead-letter queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RedriveAllowPolicy {
    /// `allowAll`: any queue of the account (the default).
    AllowAll,
    /// `denyAll`: none.
    DenyAll,
    /// `byQueue`: the listed source queue ARNs, 10 at most.
    ByQueue(Vec<String>),
}

impl RedriveAllowPolicy {
    /// Parses SetQueueAttributes' text; empty removes the policy.
    pub fn parse(text: &str) -> SqsResult<Option<Self>> {
        if text.is_empty() {
            return Ok(None);
        }
        let invalid = |reason: &str| SqsError::invalid_value(text, "RedriveAllowPolicy", reason);
        let Ok(Value::Object(map)) = serde_json::from_str::<Value>(text) else {
            return Err(invalid("Redrive allow policy is not a valid JSON map."));
        };
        let sources = map.get("sourceQueueArns");
        let policy = match map.get("redrivePermission").and_then(Value::as_str) {
            Some("allowAll") if sources.is_none() => RedriveAllowPolicy::AllowAll,
            Some("denyAll") if sources.is_none() => RedriveAllowPolicy::DenyAll,
            Some("allowAll" | "denyAll") => {
                return Err(invalid(
                    "Only when redrivePermission is byQueue can sourceQueueArns be specified.",
                ))
            }
            Some("byQueue") => {
                let arns: Vec<String> = sources
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default();
                if arns.is_empty() || arns.len() > limits::REDRIVE_ALLOW_SOURCES {
                    return Err(invalid(
                        "sourceQueueArns must contain 1 to 10 queue ARNs when redrivePermission is byQueue.",
                    ));
                }
                RedriveAllowPolicy::ByQueue(arns)
            }
            _ => {
                return Err(invalid(
                    "redrivePermission must be one of allowAll, denyAll or byQueue.",
                ))
            }
        };
        Ok(Some(policy))
    }

    /// Whether a queue of `source_arn` may name this one as its dead-letter queue.
    pub fn allows(&self, source_arn: &str) -> bool {
        match self {
            RedriveAllowPolicy::AllowAll => true,
            RedriveAllowPolicy::DenyAll => false,
            RedriveAllowPolicy::ByQueue(arns) => arns.iter().any(|a| a == source_arn),
        }
    }

    /// The policy as GetQueueAttributes returns it.
    pub fn render(&self) -> String {
        match self {
            RedriveAllowPolicy::AllowAll => json!({"redrivePermission": "allowAll"}),
            RedriveAllowPolicy::DenyAll => json!({"redrivePermission": "denyAll"}),
            RedriveAllowPolicy::ByQueue(arns) => {
                json!({"redrivePermission": "byQueue", "sourceQueueArns": arns})
            }
        }
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_as_string_or_number_renders_canonically() {
        let arn = "arn:aws:sqs:us-east-1:000000000000:dlq";
        for text in [
            format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":"3"}}"#),
            format!(r#"{{"maxReceiveCount":3,"deadLetterTargetArn":"{arn}"}}"#),
        ] {
            let p = RedrivePolicy::parse(&text).unwrap().unwrap();
            assert_eq!(
                p.render(),
                format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":3}}"#)
            );
        }
    }

    #[test]
    fn bad_policies_are_invalid_parameter_value() {
        let arn = "arn:aws:sqs:us-east-1:000000000000:dlq";
        let zero = format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":0}}"#);
        assert!(RedrivePolicy::parse(&zero)
            .unwrap_err()
            .message
            .ends_with("valid values are from 1 to 1000 both inclusive."));
        assert!(RedrivePolicy::parse("nope").is_err());
        assert!(RedrivePolicy::parse(r#"{"maxReceiveCount":1}"#).is_err());
        assert_eq!(RedrivePolicy::parse("").unwrap(), None);
    }

    #[test]
    fn allow_policy_by_queue() {
        let p =
            RedriveAllowPolicy::parse(r#"{"redrivePermission":"byQueue","sourceQueueArns":["a"]}"#)
                .unwrap()
                .unwrap();
        assert!(p.allows("a") && !p.allows("b"));
        assert!(RedriveAllowPolicy::parse(r#"{"redrivePermission":"maybe"}"#).is_err());
    }
}
