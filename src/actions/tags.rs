//! TagQueue, UntagQueue and ListQueueTags; the tag rules are the engine's
//! ([`crate::engine::tags`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Sqs;
use super::{is_empty_map, queue};
use crate::error::{SqsError, SqsResult};
use crate::protocol::Context;

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
    queue.tag(input.tags, sqs.now())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct UntagQueue {
    pub queue_url: String,
    pub tag_keys: Vec<String>,
}

pub async fn untag_queue(input: UntagQueue, sqs: &Sqs, ctx: &Context) -> SqsResult<()> {
    let queue = queue(sqs, ctx, &input.queue_url)?;
    queue.untag(&input.tag_keys, sqs.now())
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
    let tags = queue.lock_settled(sqs.now()).tags().clone();
    Ok(TagsOutput { tags })
}
