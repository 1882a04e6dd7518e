//! AddPermission and RemovePermission, kept in the queue's Policy attribute.

use serde::Deserialize;

use super::queue;
use super::Sqs;
use crate::engine::policy;
use crate::error::SqsResult;
use crate::protocol::Context;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct AddPermission {
    pub queue_url: String,
    pub label: String,
    #[serde(rename = "AWSAccountIds", default)]
    pub aws_account_ids: Vec<String>,
    #[serde(default)]
    pub actions: Vec<String>,
}

pub async fn add_permission(input: AddPermission, sqs: &Sqs, ctx: &Context) -> SqsResult<()> {
    let queue = queue(sqs, ctx, &input.queue_url)?;
    let now = sqs.now();
    queue.edit_policy(now, |current| {
        policy::add(
            current,
            &queue.arn(),
            &input.label,
            &input.aws_account_ids,
            &input.actions,
        )
        .map(Some)
    })
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct RemovePermission {
    pub queue_url: String,
    pub label: String,
}

pub async fn remove_permission(input: RemovePermission, sqs: &Sqs, ctx: &Context) -> SqsResult<()> {
    let queue = queue(sqs, ctx, &input.queue_url)?;
    let now = sqs.now();
    queue.edit_policy(now, |current| {
        policy::remove(current, &queue.arn(), &input.label)
    })
}
