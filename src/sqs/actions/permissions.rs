//! AddPermission and RemovePermission, kept in the queue's Policy attribute.

use crate::sqs::engine::queue::Queue;
use serde::Deserialize;
use std::sync::Arc;

use super::Sqs;
use crate::sqs::error::SqsResult;
use crate::sqs::protocol::Context;

/// AddPermission's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct AddPermission {
    /// QueueUrl: the queue whose policy gains the statement.
    pub queue_url: String,
    /// Label: the statement's Sid, unique in the policy.
    pub label: String,
    /// AWSAccountIds: the 12-digit accounts granted the actions.
    #[serde(rename = "AWSAccountIds", default)]
    pub aws_account_ids: Vec<String>,
    /// Actions: SQS action names without the `sqs:` prefix (`SendMessage`, `*`...).
    #[serde(default)]
    pub actions: Vec<String>,
}

/// AddPermission: adds one statement to the queue's policy.
pub fn add_permission(
    input: AddPermission,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<()> {
    let now = sqs.now();
    queue.edit_policy(now, |current| {
        crate::sqs::engine::permissions::add(
            current,
            &queue.arn(),
            &input.label,
            &input.aws_account_ids,
            &input.actions,
        )
        .map(Some)
    })
}

/// RemovePermission's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct RemovePermission {
    /// QueueUrl: the queue whose policy loses the statement.
    pub queue_url: String,
    /// Label: the Sid of the statement to remove.
    pub label: String,
}

/// RemovePermission: removes the statement with the label.
pub fn remove_permission(
    input: RemovePermission,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<()> {
    let now = sqs.now();
    queue.edit_policy(now, |current| {
        crate::sqs::engine::permissions::remove(current, &queue.arn(), &input.label)
    })
}
