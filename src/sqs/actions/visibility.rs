//! ChangeMessageVisibility and ChangeMessageVisibilityBatch.

use crate::sqs::engine::queue::Queue;
use serde::Deserialize;
use std::sync::Arc;

use super::batch::{self, Done, Entry};
use super::in_range;
use super::Sqs;
use crate::sqs::engine::limits;
use crate::sqs::error::{SqsError, SqsResult};
use crate::sqs::protocol::Context;

/// ChangeMessageVisibility's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ChangeMessageVisibility {
    /// QueueUrl: the queue the message is in.
    pub queue_url: String,
    /// ReceiptHandle: from a receive of the message (the latest, on a FIFO queue).
    pub receipt_handle: String,
    /// VisibilityTimeout: 0 to 43,200 seconds from now.
    pub visibility_timeout: i64,
}

/// Visibility timeouts are 0 to 43200 seconds ([`limits::VISIBILITY_TIMEOUT`]).
pub fn seconds(value: Option<i64>) -> SqsResult<u32> {
    let Some(v) = in_range(
        value,
        "VisibilityTimeout",
        0,
        i64::from(*limits::VISIBILITY_TIMEOUT.end()),
        format_args!(
            "Must be between 0 and {}, if provided.",
            limits::VISIBILITY_TIMEOUT.end()
        ),
    )?
    else {
        return Err(SqsError::missing("VisibilityTimeout"));
    };
    Ok(v as u32)
}

/// ChangeMessageVisibility: hides an in-flight message again for the given seconds from now.
pub fn change_message_visibility(
    input: ChangeMessageVisibility,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<()> {
    let seconds = seconds(Some(input.visibility_timeout))?;
    queue.change_visibility(&input.receipt_handle, seconds, sqs.now())
}

/// ChangeMessageVisibilityBatch's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ChangeMessageVisibilityBatch {
    /// QueueUrl: the queue the messages are in.
    pub queue_url: String,
    /// Absent means empty: SDK v1's Query serializer sends no parameter for an empty list, and
    /// SQS answered it EmptyBatchRequest (quoted in localstack#1658, openzipkin/zipkin-aws#167).
    #[serde(default, deserialize_with = "batch::entries")]
    pub entries: Vec<VisibilityEntry>,
}

/// One ChangeMessageVisibilityBatchRequestEntry.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct VisibilityEntry {
    /// Id: the caller's name for this entry, unique in the batch.
    pub id: String,
    /// ReceiptHandle: from a receive of the message.
    pub receipt_handle: String,
    /// VisibilityTimeout: 0 to 43,200 seconds from now; 0 when absent.
    pub visibility_timeout: Option<i64>,
}

impl Entry for VisibilityEntry {
    fn id(&self) -> &str {
        &self.id
    }
}

/// ChangeMessageVisibilityBatch: each entry as ChangeMessageVisibility.
pub fn change_message_visibility_batch(
    input: ChangeMessageVisibilityBatch,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<batch::Output<Done>> {
    batch::check(&input.entries, "ChangeMessageVisibilityBatchRequestEntry")?;
    let now = sqs.now();
    Ok(batch::run(input.entries, |e| {
        let seconds = seconds(Some(e.visibility_timeout.unwrap_or(0)))?;
        queue.change_visibility_in_batch(&e.receipt_handle, seconds, now)?;
        Ok(Done {
            id: std::mem::take(&mut e.id),
        })
    }))
}
