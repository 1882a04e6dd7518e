//! TagQueue, UntagQueue and ListQueueTags.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Sqs;
use super::{is_empty_map, queue};
use crate::error::{SqsError, SqsResult};
use crate::protocol::Context;

use crate::engine::limits::TAGS as MAX_TAGS;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct TagQueue {
    pub queue_url: String,
    pub tags: BTreeMap<String, String>,
}

pub async fn tag_queue(input: TagQueue, sqs: &Sqs, ctx: &Context) -> SqsResult<()> {
    let queue = queue(sqs, ctx, &input.queue_url)?;
    if input.tags.is_empty() {
        return Err(SqsError::missing("Tags"));
    }
    check_tags(&input.tags, queue.name())?;
    queue.edit_tags(sqs.now(), |tags| {
        let mut next = tags.clone();
        next.extend(input.tags);
        if next.len() > MAX_TAGS {
            return Err(too_many_tags(queue.name()));
        }
        *tags = next;
        Ok(())
    })
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct UntagQueue {
    pub queue_url: String,
    pub tag_keys: Vec<String>,
}

pub async fn untag_queue(input: UntagQueue, sqs: &Sqs, ctx: &Context) -> SqsResult<()> {
    let queue = queue(sqs, ctx, &input.queue_url)?;
    if input.tag_keys.is_empty() {
        return Err(bad_key());
    }
    queue.edit_tags(sqs.now(), |tags| {
        for key in &input.tag_keys {
            tags.remove(key);
        }
    });
    Ok(())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListQueueTags {
    pub queue_url: String,
}

#[derive(Debug, Serialize)]
pub struct TagsOutput {
    #[serde(rename = "Tags", skip_serializing_if = "is_empty_map")]
    pub tags: BTreeMap<String, String>,
}

pub async fn list_queue_tags(
    input: ListQueueTags,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<TagsOutput> {
    let queue = queue(sqs, ctx, &input.queue_url)?;
    let tags = queue.lock_settled(sqs.now()).tags.clone();
    Ok(TagsOutput { tags })
}

/// Tag keys are 1-128 characters, values up to 256, at most 50 on a queue. The wording is
/// SQS's as other SQS test suites record it; the value-length message is unverified.
pub fn check_tags(tags: &BTreeMap<String, String>, queue_name: &str) -> SqsResult<()> {
    if tags.len() > MAX_TAGS {
        return Err(too_many_tags(queue_name));
    }
    for (key, value) in tags {
        if key.is_empty() || key.chars().count() > 128 {
            return Err(bad_key());
        }
        if value.chars().count() > 256 {
            return Err(SqsError::invalid_parameter(
                "Tag values must be less than 256 characters in length.",
            ));
        }
    }
    Ok(())
}

fn too_many_tags(queue_name: &str) -> SqsError {
    SqsError::invalid_parameter(format!("Too many tags added for queue {queue_name}."))
}

fn bad_key() -> SqsError {
    SqsError::invalid_parameter("Tag keys must be between 1 and 128 characters in length.")
}
