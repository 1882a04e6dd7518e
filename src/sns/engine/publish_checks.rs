//! What a publish is checked against before it is stamped: each message attribute, and the
//! FIFO ids against the topic's type.

use super::publish::{AttrData, Attribute, Publication};
use super::Topic;
use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};
use crate::sqs::engine::fifo::content_deduplication_id;

/// SNS's error for a message attribute: `ParameterValueInvalid` with a bare message
/// (recorded for Publish and PublishBatch alike).
fn refuse(message: String) -> SnsError {
    SnsError::new(SnsErrorKind::ParameterValueInvalid, message)
}

/// A message attribute name against SNS's rules, in the order and words AWS records:
/// length, characters, a dot at either end, successive dots. The reserved `AWS.` and
/// `Amazon.` prefixes are refused as SQS refuses them, except SNS's own documented
/// `AWS.SNS.` and `AWS.MM.` attributes (SMS and mobile push) \[unverified wording\].
fn check_name(name: &str) -> SnsResult<()> {
    if name.is_empty() {
        // [unverified wording]
        return Err(refuse(
            "Message attribute name can not be null or empty".into(),
        ));
    }
    if name.len() > 256 {
        return Err(refuse(
            "Length of message attribute name must be less than 256 bytes.".into(),
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(refuse(format!("Invalid non-alphanumeric character '#x{:X}' was found in the message attribute name. Can only include alphanumeric characters, hyphens, underscores, or dots.", u32::from(c))));
    }
    if name.starts_with('.') {
        return Err(refuse(
            "Invalid message attribute name starting with character '.' was found.".into(),
        ));
    }
    if name.ends_with('.') {
        return Err(refuse(
            "Invalid message attribute name ending with character '.' was found.".into(),
        ));
    }
    if name.contains("..") {
        return Err(refuse(
            "Message attribute name can not have successive '.' character.".into(),
        ));
    }
    let lower = name.to_ascii_lowercase();
    let sns_own = lower.starts_with("aws.sns.") || lower.starts_with("aws.mm.");
    if !sns_own && (lower.starts_with("aws.") || lower.starts_with("amazon.")) {
        return Err(refuse(format!(
            "The message attribute name '{name}' is invalid: names must not start with AWS. or Amazon."
        )));
    }
    Ok(())
}

/// One attribute against SNS's rules (recorded wordings, see [`check_name`] for the name).
pub(super) fn check_attribute(name: &str, attr: &Attribute) -> SnsResult<()> {
    check_name(name)?;
    let data_type = attr.data_type.as_str();
    let (base, label) = data_type.split_once('.').unwrap_or((data_type, "x"));
    if !matches!(base, "String" | "Number" | "Binary") || label.is_empty() {
        return Err(refuse(format!("The message attribute '{name}' has an invalid message attribute type, the set of supported type prefixes is Binary, Number, and String.")));
    }
    let binary_type = base == "Binary";
    let (empty, binary_value) = match &attr.data {
        AttrData::Text(t) => (t.is_empty(), false),
        AttrData::Binary(b) => (b.is_empty(), true),
    };
    if !empty && binary_type != binary_value {
        let field = if binary_type { "Binary" } else { "String" };
        return Err(refuse(format!(
            "The message attribute '{name}' with type '{data_type}' must use field '{field}'."
        )));
    }
    if empty || binary_type != binary_value {
        return Err(refuse(format!("The message attribute '{name}' must contain non-empty message attribute value for message attribute type '{data_type}'.")));
    }
    if let AttrData::Text(text) = &attr.data {
        if base == "Number" && text.trim().parse::<f64>().is_err() {
            // [unverified wording]
            return Err(refuse(format!(
                "Could not cast message attribute '{name}' value to number."
            )));
        }
        if data_type == "String.Array"
            && !matches!(serde_json::from_str(text), Ok(serde_json::Value::Array(_)))
        {
            // [unverified wording]
            return Err(refuse(format!(
                "The message attribute '{name}' with type 'String.Array' has an invalid value."
            )));
        }
    }
    Ok(())
}

/// MessageGroupId and MessageDeduplicationId against the topic's type.
pub(super) fn check_fifo(topic: &Topic, p: &Publication) -> SnsResult<Option<String>> {
    if !topic.fifo {
        if p.deduplication_id.is_some() {
            return Err(SnsError::invalid("MessageDeduplicationId Reason: The request includes MessageDeduplicationId parameter that is not valid for this topic type"));
        }
        return Ok(None);
    }
    let token_ok =
        |t: &str| !t.is_empty() && t.len() <= 128 && t.bytes().all(|b| b.is_ascii_graphic());
    match &p.group_id {
        None => {
            return Err(SnsError::invalid(
                "The MessageGroupId parameter is required for FIFO topics",
            ))
        }
        Some(g) if !token_ok(g) => return Err(SnsError::invalid("MessageGroupId")),
        Some(_) => {}
    }
    match &p.deduplication_id {
        Some(d) if !token_ok(d) => Err(SnsError::invalid("MessageDeduplicationId")),
        Some(d) => Ok(Some(d.clone())),
        None if topic.content_based_deduplication() => {
            Ok(Some(content_deduplication_id(&p.message)))
        }
        None => Err(SnsError::invalid("The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly")),
    }
}

impl Topic {
    /// Every check a publish of `p` to this topic makes before it is stamped, without
    /// stamping it: PublishBatch refuses the whole request for one bad entry (recorded).
    pub fn check_publication(&self, p: &Publication) -> SnsResult<()> {
        p.validate()?;
        check_fifo(self, p).map(drop)
    }
}
