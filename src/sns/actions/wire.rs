//! What SNS's inputs share as they travel, and SNS's rules for them that serde cannot
//! express, checked once an input is decoded ([`super::Decode`]): required members and ARNs
//! (refused in SNS's own words, before any other member), string maps, tags and flags.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

use crate::sns::error::{SnsError, SnsResult};

/// One entry of a string map (`Attributes.entry.N.key` / `.value`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub struct Entry {
    /// The attribute's name.
    key: Option<String>,
    /// Its value.
    value: Option<String>,
}

/// The map of `entries`; an entry without its key or its value is skipped, and a later entry
/// of a key wins.
pub fn string_map(entries: Vec<Entry>) -> BTreeMap<String, String> {
    entries
        .into_iter()
        .filter_map(|e| Some((e.key?, e.value?)))
        .collect()
}

/// One tag (`Tags.member.N.Key` / `.Value`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Tag {
    /// Its key; a tag without one is skipped.
    key: Option<String>,
    /// Its value, empty when not sent.
    value: Option<String>,
}

/// The tags as a map; a key given twice is refused (recorded: "Invalid parameter: Duplicated
/// keys are not allowed.").
pub fn tags(list: Vec<Tag>) -> SnsResult<BTreeMap<String, String>> {
    let mut tags = BTreeMap::new();
    for t in list {
        let Some(key) = t.key else { continue };
        if tags.insert(key, t.value.unwrap_or_default()).is_some() {
            return Err(SnsError::invalid("Duplicated keys are not allowed."));
        }
    }
    Ok(tags)
}

/// A `true`/`false` member (`ReturnSubscriptionArn`): anything but `true`, in any case, is
/// false.
pub fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(String::deserialize(d)?.eq_ignore_ascii_case("true"))
}

/// A required member; absent is SNS's validation error.
pub fn required(value: Option<String>, member: &str) -> SnsResult<String> {
    value.ok_or_else(|| SnsError::missing(member))
}

/// A required ARN member: absent (or empty) is SNS's own refusal, not the validation
/// layer's (recorded: "Invalid parameter: SubscriptionArn Reason: no value for required
/// parameter").
pub fn required_arn(value: Option<String>, member: &str) -> SnsResult<String> {
    match value {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(SnsError::invalid(format_args!(
            "{member} Reason: no value for required parameter"
        ))),
    }
}

/// A topic ARN member, checked for shape (SNS: `Invalid parameter: TopicArn`).
pub fn topic_arn(value: Option<String>, member: &str) -> SnsResult<String> {
    let arn = required_arn(value, member)?;
    crate::sns::engine::parse_topic_arn(&arn, member)?;
    Ok(arn)
}

/// A NextToken: an empty one asks for the first page, as none does.
pub fn token(next_token: Option<&str>) -> Option<&str> {
    next_token.filter(|t| !t.is_empty())
}
