//! A message as Publish and each PublishBatch entry send it, and SNS's reading of it into a
//! [`Publication`]: its structure, its required Message and its attributes.

use std::collections::BTreeMap;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::Deserialize;

use super::wire;
use crate::sns::engine::publish::{AttrData, Attribute};
use crate::sns::engine::Publication;
use crate::sns::error::{SnsError, SnsResult};

/// A message as Publish sends it, and as each PublishBatch entry does: one shape for both,
/// which differ only in what stands beside the message (Publish's target, an entry's Id).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct MessageWire {
    /// PhoneNumber: a Publish's SMS target.
    pub phone_number: Option<String>,
    /// TopicArn: a Publish's topic.
    pub topic_arn: Option<String>,
    /// TargetArn: a Publish's topic or platform endpoint.
    pub target_arn: Option<String>,
    /// Id: a batch entry's, empty when not sent.
    #[serde(default)]
    pub id: String,
    /// Message: required, after the MessageStructure check.
    message: Option<String>,
    /// Subject: for email endpoints.
    subject: Option<String>,
    /// MessageStructure: `json`, or not sent.
    message_structure: Option<String>,
    /// MessageAttributes.entry.N: the message's attributes.
    #[serde(default)]
    message_attributes: Vec<AttributeWire>,
    /// MessageGroupId: a FIFO topic's group.
    message_group_id: Option<String>,
    /// MessageDeduplicationId: a FIFO topic's deduplication id.
    message_deduplication_id: Option<String>,
}

/// One message attribute, `MessageAttributes.entry.N.Name` /
/// `.Value.DataType|StringValue|BinaryValue`.
#[derive(Debug, Deserialize)]
pub struct AttributeWire {
    /// Name: the attribute's name, empty when not sent (then refused as a name).
    #[serde(rename = "Name", default)]
    name: String,
    /// Value.DataType: required; its absence is the validation layer's refusal.
    #[serde(rename = "Value.DataType")]
    data_type: Option<String>,
    /// Value.StringValue: for String and Number types.
    #[serde(rename = "Value.StringValue")]
    string_value: Option<String>,
    /// Value.BinaryValue: base64, for Binary types.
    #[serde(rename = "Value.BinaryValue")]
    binary_value: Option<String>,
}

/// The attributes by name; `path` names the member in a missing DataType's validation error
/// (`messageAttributes`, or `publishBatchRequestEntries.N.member.messageAttributes` in a
/// batch, as recorded).
fn attributes(list: Vec<AttributeWire>, path: &str) -> SnsResult<BTreeMap<String, Attribute>> {
    list.into_iter()
        .map(|a| {
            let name = a.name;
            let data_type = a.data_type.ok_or_else(|| {
                SnsError::missing(&format!("{path}.{name}.member.dataType"))
            })?;
            let data = match (a.string_value, a.binary_value) {
                (Some(text), _) if !text.is_empty() => AttrData::Text(text),
                (_, Some(b64)) => AttrData::Binary(STANDARD.decode(b64.trim()).map_err(|_| {
                    SnsError::invalid(format_args!(
                        "MessageAttributes: The message attribute '{name}' has an invalid binary value."
                    ))
                })?),
                (text, None) => AttrData::Text(text.unwrap_or_default()),
            };
            Ok((name, Attribute { data_type, data }))
        })
        .collect()
}

/// Reads the message, its subject, structure, attributes and FIFO ids; `path` as for
/// [`attributes`].
pub fn publication(m: MessageWire, path: &str) -> SnsResult<Publication> {
    let structure = m.message_structure;
    if structure.as_deref().is_some_and(|s| s != "json") {
        return Err(SnsError::invalid("MessageStructure"));
    }
    Ok(Publication {
        message: wire::required(m.message, "Message")?,
        subject: m.subject,
        json_structure: structure.is_some(),
        attributes: attributes(m.message_attributes, path)?,
        group_id: m.message_group_id,
        deduplication_id: m.message_deduplication_id,
    })
}
