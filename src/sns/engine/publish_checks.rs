//! What a publish is checked against before it is stamped: each message attribute, and the
//! FIFO ids against the topic's type.

use std::fmt::Write;

use sha2::{Digest, Sha256};

use super::publish::{AttrData, Attribute, Publication};
use super::Topic;
use crate::sns::error::{SnsError, SnsResult};

/// One attribute against SNS's rules [unverified wording, after SNS's Publish errors as
/// reported by users].
pub(super) fn check_attribute(name: &str, attr: &Attribute) -> SnsResult<()> {
    let refuse = |detail: String| SnsError::invalid(format_args!("MessageAttributes: {detail}"));
    if name.is_empty() || name.len() > 256 {
        return Err(refuse(
            "Message attribute name can not be null or empty".into(),
        ));
    }
    let base = attr.data_type.split('.').next().unwrap_or_default();
    if !matches!(base, "String" | "Number" | "Binary") {
        return Err(refuse(format!("The message attribute '{name}' has an invalid message attribute type, the set of supported type prefixes is Binary, Number, and String.")));
    }
    let empty = match &attr.data {
        AttrData::Text(t) => t.is_empty(),
        AttrData::Binary(b) => b.is_empty(),
    };
    if empty || (base == "Binary") != matches!(attr.data, AttrData::Binary(_)) {
        return Err(refuse(format!("The message attribute '{name}' must contain non-empty message attribute value for message attribute type '{}'.", attr.data_type)));
    }
    if let AttrData::Text(text) = &attr.data {
        if base == "Number" && text.trim().parse::<f64>().is_err() {
            return Err(refuse(format!(
                "Could not cast message attribute '{name}' value to number."
            )));
        }
        if attr.data_type == "String.Array"
            && !matches!(serde_json::from_str(text), Ok(serde_json::Value::Array(_)))
        {
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
            Ok(Some(hex(&Sha256::digest(p.message.as_bytes()))))
        }
        None => Err(SnsError::invalid("The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly")),
    }
}

/// Lower-case hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
}
