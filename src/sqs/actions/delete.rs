//! DeleteMessage and DeleteMessageBatch.

use crate::sqs::engine::queue::Queue;
use serde::Deserialize;
use std::sync::Arc;

use super::batch::{self, Done, Entry};
use super::Sqs;
use crate::sqs::error::SqsResult;
use crate::sqs::protocol::Context;

/// DeleteMessage's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeleteMessage {
    /// QueueUrl: the queue the message is in.
    pub queue_url: String,
    /// ReceiptHandle: from a receive of the message (any of its receives, on a standard queue).
    pub receipt_handle: String,
}

/// DeleteMessage: deletes the message a handle names; a handle of a gone message succeeds.
pub fn delete_message(
    input: DeleteMessage,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<()> {
    queue.delete_message(&input.receipt_handle, sqs.now())
}

/// DeleteMessageBatch's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeleteMessageBatch {
    /// QueueUrl: the queue the messages are in.
    pub queue_url: String,
    /// Absent means empty: SDK v1's Query serializer sends no parameter for an empty list, and
    /// SQS answered it EmptyBatchRequest (quoted in localstack#1658, openzipkin/zipkin-aws#167).
    #[serde(default, deserialize_with = "batch::entries")]
    pub entries: Vec<DeleteEntry>,
}

/// One DeleteMessageBatchRequestEntry.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeleteEntry {
    /// Id: the caller's name for this entry, unique in the batch (up to 80 characters).
    pub id: String,
    /// ReceiptHandle: from a receive of the message.
    pub receipt_handle: String,
}

impl Entry for DeleteEntry {
    fn id(&self) -> &str {
        &self.id
    }
}

/// DeleteMessageBatch: each entry as DeleteMessage, results in request order.
pub fn delete_message_batch(
    input: DeleteMessageBatch,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<batch::Output<Done>> {
    batch::check(&input.entries, "DeleteMessageBatchRequestEntry")?;
    let now = sqs.now();
    Ok(batch::run(input.entries, |e| {
        queue.delete_message(&e.receipt_handle, now)?;
        Ok(Done {
            id: std::mem::take(&mut e.id),
        })
    }))
}
