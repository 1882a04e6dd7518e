//! A subscription's settable attributes with SNS's rules: RawMessageDelivery, FilterPolicy
//! and its scope, RedrivePolicy, and the JSON ones taken as given.

use crate::patterns::{FilterPolicy, Scope, SnsVia};
use crate::sns::error::{SnsError, SnsResult};

use super::subscriptions::Subscription;

/// The attributes Subscribe and SetSubscriptionAttributes take.
pub const SETTABLE: &[&str] = &[
    "DeliveryPolicy",
    "FilterPolicy",
    "FilterPolicyScope",
    "RawMessageDelivery",
    "RedrivePolicy",
    "SubscriptionRoleArn",
    "ReplayPolicy",
];

/// The longest value of a subscription attribute, in bytes: a FilterPolicy's 256 KB (SNS's
/// quota on a filter policy's size), 30 KB for the other documents and ARNs, which SNS
/// records no limit for \[unverified\]: no attribute stores megabytes.
fn max_value_bytes(name: &str) -> usize {
    if name == "FilterPolicy" {
        256 * 1024
    } else {
        30 * 1024
    }
}

impl Subscription {
    /// The dead-letter queue a RedrivePolicy names, or why it cannot be this one's.
    fn dead_letter(&self, value: &str) -> Result<String, String> {
        let dlq = dead_letter_arn(value)?;
        // A FIFO queue's subscription to a FIFO topic dead-letters into a FIFO queue only; a
        // standard queue's may use a standard one (recorded).
        let fifo = super::topics::is_fifo_name;
        if fifo(&self.topic_arn) && self.protocol == "sqs" && fifo(&self.endpoint) && !fifo(&dlq) {
            return Err("RedrivePolicy: must use a FIFO queue as DLQ for a FIFO Subscription to a FIFO Topic.".into());
        }
        Ok(dlq)
    }

    /// Applies one attribute after checking it; `via` words a filter-policy refusal.
    pub(super) fn apply(&mut self, name: &str, value: &str, via: SnsVia) -> SnsResult<()> {
        let reason = |detail: &str| match via {
            SnsVia::Subscribe => SnsError::invalid(format_args!("Attributes Reason: {detail}")),
            SnsVia::SetSubscriptionAttributes => SnsError::invalid(detail),
        };
        if value.len() > max_value_bytes(name) {
            return Err(reason(&format!("{name}: too long")));
        }
        match name {
            "RawMessageDelivery" => {
                self.raw = parse_bool(value).ok_or_else(|| {
                    reason(&format!(
                        "RawMessageDelivery: Invalid value [{value}]. Must be true or false."
                    ))
                })?;
            }
            "FilterPolicyScope" => {
                self.scope = match value {
                    "MessageAttributes" => Scope::MessageAttributes,
                    "MessageBody" => Scope::MessageBody,
                    _ => {
                        return Err(reason(&format!(
                            "FilterPolicyScope: Invalid value [{value}]. Please use either MessageBody or MessageAttributes"
                        )))
                    }
                };
                self.reparse_filter(via)?;
            }
            "FilterPolicy" if value.is_empty() => {
                self.filter = None;
                self.set.remove(name);
                return Ok(());
            }
            "FilterPolicy" => {
                self.filter = Some(FilterPolicy::parse_sns(value, self.scope).map_err(|e| {
                    SnsError::new(
                        crate::sns::error::SnsErrorKind::InvalidParameter,
                        e.sns_message(via),
                    )
                })?);
            }
            "RedrivePolicy" => {
                self.dead_letter_arn = Some(self.dead_letter(value).map_err(|d| reason(&d))?);
            }
            "DeliveryPolicy" | "ReplayPolicy"
                if serde_json::from_str::<serde_json::Value>(value).is_err() =>
            {
                return Err(reason(&format!("{name}: failed to parse JSON.")));
            }
            _ if SETTABLE.contains(&name) => {}
            _ => return Err(SnsError::invalid("AttributeName")),
        }
        self.set.insert(name.to_owned(), value.to_owned());
        Ok(())
    }

    /// A scope change re-reads the policy under the new scope.
    fn reparse_filter(&mut self, via: SnsVia) -> SnsResult<()> {
        if let Some(text) = self.set.get("FilterPolicy") {
            self.filter = Some(FilterPolicy::parse_sns(text, self.scope).map_err(|e| {
                SnsError::new(
                    crate::sns::error::SnsErrorKind::InvalidParameter,
                    e.sns_message(via),
                )
            })?);
        }
        Ok(())
    }
}

/// Whether a repeated Subscribe asks for other attributes than the subscription has: each
/// attribute it gives must equal the subscription's value, or SNS's default where the
/// subscription never set it; attributes it leaves out are not compared. Recorded: after
/// `RawMessageDelivery=true`, a repeat with no attributes, `{}`,
/// `{FilterPolicyScope: MessageAttributes}` or `{RawMessageDelivery: true}` finds the same
/// subscription; `{RawMessageDelivery: false, FilterPolicyScope: MessageBody}` is refused.
pub(super) fn asks_otherwise(
    existing: &std::collections::BTreeMap<String, String>,
    given: &std::collections::BTreeMap<String, String>,
) -> bool {
    given.iter().any(|(name, value)| {
        spelled(name, value) != existing.get(name).and_then(|v| spelled(name, v))
    })
}

/// One attribute's value in one spelling: booleans in lower case, JSON documents parsed, and
/// a default as `None` (recorded: `RawMessageDelivery=True` after `true`,
/// `FilterPolicyScope=MessageAttributes` spelled out).
fn spelled(name: &str, value: &str) -> Option<serde_json::Value> {
    match (name, parse_bool(value)) {
        ("RawMessageDelivery", Some(false)) => None,
        ("FilterPolicyScope", _) if value == "MessageAttributes" => None,
        (_, _) if value.is_empty() => None,
        (_, Some(b)) => Some(serde_json::Value::Bool(b)),
        _ => Some(
            serde_json::from_str(value)
                .unwrap_or_else(|_| serde_json::Value::String(value.to_owned())),
        ),
    }
}

/// `true` or `false`, any case, as SNS reads booleans.
fn parse_bool(value: &str) -> Option<bool> {
    if value.eq_ignore_ascii_case("true") {
        Some(true)
    } else if value.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// The SQS queue ARN of a RedrivePolicy `{"deadLetterTargetArn": "arn:aws:sqs:…"}`
/// [unverified wording of the refusals].
fn dead_letter_arn(policy: &str) -> Result<String, String> {
    let doc: serde_json::Value = serde_json::from_str(policy)
        .map_err(|_| "RedrivePolicy: failed to parse JSON.".to_owned())?;
    let arn = doc
        .get("deadLetterTargetArn")
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| "RedrivePolicy: deadLetterTargetArn is missing".to_owned())?;
    if crate::sqs::engine::arn::parse(arn).is_none() {
        return Err("RedrivePolicy: deadLetterTargetArn is an invalid arn".to_owned());
    }
    Ok(arn.to_owned())
}
