//! GetQueueAttributes and SetQueueAttributes.

use crate::sqs::engine::queue::Queue;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::is_empty_map;
use super::Sqs;
use crate::sqs::engine::attribute_table;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::Context;

/// GetQueueAttributes' input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct GetQueueAttributes {
    /// QueueUrl: the queue to read.
    pub queue_url: String,
    /// AttributeNames: the names to return, or `All`; none returns none.
    #[serde(default)]
    pub attribute_names: Vec<String>,
}

/// GetQueueAttributes' answer.
#[derive(Debug, Serialize)]
pub struct AttributesOutput {
    /// `Attributes`: name to string value, only those asked for.
    #[serde(rename = "Attributes", skip_serializing_if = "is_empty_map")]
    pub attributes: BTreeMap<String, String>,
}

/// GetQueueAttributes: the named attributes, computed ones (counts, timestamps) at `now`.
pub fn get_queue_attributes(
    input: GetQueueAttributes,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<AttributesOutput> {
    if let Some(unknown) = input
        .attribute_names
        .iter()
        .find(|n| !attribute_table::readable(n))
    {
        return Err(SqsError::new(
            ErrorKind::InvalidAttributeName,
            format!("Unknown Attribute {unknown}."),
        ));
    }
    let all = input.attribute_names.iter().any(|n| n == "All");
    let attributes = queue
        .attribute_values(sqs.now())
        .into_iter()
        .filter(|(name, _)| all || input.attribute_names.iter().any(|n| n == name))
        .map(|(name, value)| (name.to_owned(), value))
        .collect();
    Ok(AttributesOutput { attributes })
}

/// SetQueueAttributes' input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SetQueueAttributes {
    /// QueueUrl: the queue to change.
    pub queue_url: String,
    /// Attributes: name to string value, each checked against the attribute table.
    pub attributes: BTreeMap<String, String>,
}

/// SetQueueAttributes: all attributes are checked before any is set.
pub fn set_queue_attributes(
    input: SetQueueAttributes,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<()> {
    sqs.registry
        .set_attributes(&queue, &input.attributes, sqs.now())
}
