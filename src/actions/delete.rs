//! DeleteMessage and DeleteMessageBatch.

use serde::Deserialize;

use super::batch::{self, Done, Entry};
use super::queue;
use super::Sqs;
use crate::error::SqsResult;
use crate::protocol::Context;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeleteMessage {
    pub queue_url: String,
    pub receipt_handle: String,
}

pub async fn delete_message(input: DeleteMessage, sqs: &Sqs, ctx: &Context) -> SqsResult<()> {
    queue(sqs, ctx, &input.queue_url)?.delete_message(&input.receipt_handle, sqs.now())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeleteMessageBatch {
    pub queue_url: String,
    /// Absent means empty: SDK v1's Query serializer sends no parameter for an empty list, and
    /// SQS answered it EmptyBatchRequest (quoted in localstack#1658, openzipkin/zipkin-aws#167).
    #[serde(default)]
    pub entries: Vec<DeleteEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeleteEntry {
    pub id: String,
    pub receipt_handle: String,
}

impl Entry for DeleteEntry {
    fn id(&self) -> &str {
        &self.id
    }
}

pub async fn delete_message_batch(
    input: DeleteMessageBatch,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<batch::Output<Done>> {
    let queue = queue(sqs, ctx, &input.queue_url)?;
    batch::check(&input.entries, "DeleteMessageBatchRequestEntry")?;
    let now = sqs.now();
    Ok(batch::run(input.entries, |e| {
        queue.delete_message(&e.receipt_handle, now)?;
        Ok(Done { id: e.id.clone() })
    }))
}
