//! TagQueue, UntagQueue and ListQueueTags; the tag rules are the engine's
//! ([`crate::sqs::engine::tags`]).

use crate::sqs::engine::queue::Queue;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::is_empty_map;
use super::Sqs;
use crate::sqs::error::{SqsError, SqsResult};
use crate::sqs::protocol::Context;

/// TagQueue's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct TagQueue {
    /// QueueUrl: the queue to tag.
    pub queue_url: String,
    /// Tags: key to value, added or replaced (50 a queue at most).
    pub tags: BTreeMap<String, String>,
}

/// TagQueue: adds or replaces tags, checked by the engine's tag rules.
pub fn tag_queue(input: TagQueue, queue: Arc<Queue>, sqs: &Sqs, _: &Context) -> SqsResult<()> {
    if input.tags.is_empty() {
        return Err(SqsError::missing("Tags"));
    }
    queue.tag(input.tags, sqs.now())
}

/// UntagQueue's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct UntagQueue {
    /// QueueUrl: the queue to untag.
    pub queue_url: String,
    /// TagKeys: the keys to remove; unknown ones are ignored.
    pub tag_keys: Vec<String>,
}

/// UntagQueue: removes the keys.
pub fn untag_queue(input: UntagQueue, queue: Arc<Queue>, sqs: &Sqs, _: &Context) -> SqsResult<()> {
    queue.untag(&input.tag_keys, sqs.now())
}

/// ListQueueTags' input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListQueueTags {
    /// QueueUrl: the queue whose tags to list.
    pub queue_url: String,
}

/// ListQueueTags' answer.
#[derive(Debug, Serialize)]
pub struct TagsOutput {
    /// `Tags`: key to value, absent when there are none.
    #[serde(rename = "Tags", skip_serializing_if = "is_empty_map")]
    pub tags: BTreeMap<String, String>,
}

/// ListQueueTags: the queue's tags.
pub fn list_queue_tags(
    _: ListQueueTags,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<TagsOutput> {
    let tags = queue.lock_settled(sqs.now()).tags().clone();
    Ok(TagsOutput { tags })
}
