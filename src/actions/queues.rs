//! Queue lifecycle: CreateQueue, GetQueueUrl, ListQueues, DeleteQueue, PurgeQueue.

use std::collections::BTreeMap;
use std::sync::Arc;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use super::Sqs;
use super::{in_range, queue};
use crate::engine::queue::Queue;
use crate::error::{SqsError, SqsResult};
use crate::protocol::Context;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct CreateQueue {
    pub queue_name: String,
    #[serde(default)]
    pub attributes: BTreeMap<String, String>,
    #[serde(default, rename = "tags", alias = "Tags")]
    pub tags: BTreeMap<String, String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct QueueUrlOutput {
    pub queue_url: String,
}

pub async fn create_queue(
    input: CreateQueue,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<QueueUrlOutput> {
    crate::engine::tags::check(&input.tags, &input.queue_name)?;
    let key = ctx.key(&input.queue_name);
    sqs.registry
        .create(key.clone(), &input.attributes, input.tags, sqs.now())?;
    Ok(QueueUrlOutput {
        queue_url: ctx.queue_url(&key),
    })
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct GetQueueUrl {
    pub queue_name: String,
    #[serde(rename = "QueueOwnerAWSAccountId")]
    pub queue_owner_aws_account_id: Option<String>,
}

pub async fn get_queue_url(
    input: GetQueueUrl,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<QueueUrlOutput> {
    let mut key = ctx.key(&input.queue_name);
    if let Some(owner) = input.queue_owner_aws_account_id.filter(|o| !o.is_empty()) {
        key.account = owner;
    }
    super::authorize(sqs, ctx, &*sqs.registry.get(&key)?)?;
    Ok(QueueUrlOutput {
        queue_url: ctx.queue_url(&key),
    })
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListQueues {
    #[serde(default)]
    pub queue_name_prefix: String,
    pub next_token: Option<String>,
    pub max_results: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct ListQueuesOutput {
    #[serde(rename = "QueueUrls", skip_serializing_if = "Vec::is_empty")]
    pub queue_urls: Vec<String>,
    #[serde(rename = "NextToken", skip_serializing_if = "Option::is_none")]
    pub next_token: Option<String>,
}

pub async fn list_queues(
    input: ListQueues,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<ListQueuesOutput> {
    let request = PageRequest::parse(input.max_results, input.next_token.as_deref())?;
    // From the registry's ordered index: O(log n + page), not every match sorted.
    let (page, more) = sqs.registry.list_page(
        (&ctx.region, &ctx.account),
        &input.queue_name_prefix,
        request.after.as_deref(),
        request.limit,
    );
    Ok(ListQueuesOutput {
        queue_urls: page.iter().map(|q| ctx.queue_url(&q.key)).collect(),
        next_token: request.next_token(page.last(), more),
    })
}

/// A listing's MaxResults (1 to 1000) and NextToken (the last name returned,
/// base64-encoded), as SQS reads them.
struct PageRequest {
    limit: usize,
    /// Tokens appear only when `MaxResults` was given, as on SQS.
    max_given: bool,
    /// Names up to this one were listed already.
    after: Option<String>,
}

impl PageRequest {
    fn parse(max_results: Option<i64>, token: Option<&str>) -> SqsResult<PageRequest> {
        let max = in_range(
            max_results,
            "MaxResults",
            1,
            1000,
            "MaxResults must be an integer between 1 and 1000.",
        )?;
        let after = match token.filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => Some(
                STANDARD
                    .decode(t)
                    .ok()
                    .and_then(|b| String::from_utf8(b).ok())
                    .ok_or_else(|| SqsError::invalid_parameter("Invalid NextToken value."))?,
            ),
        };
        Ok(PageRequest {
            limit: max.map_or(1000, |m| m as usize),
            max_given: max.is_some(),
            after,
        })
    }

    fn next_token(&self, last: Option<&Arc<Queue>>, more: bool) -> Option<String> {
        (self.max_given && more)
            .then(|| last.map(|last| STANDARD.encode(last.name())))
            .flatten()
    }
}

/// One page of queues sorted by name, under SQS's MaxResults and NextToken rules.
pub fn paginate<'a>(
    queues: &'a [Arc<Queue>],
    max_results: Option<i64>,
    token: Option<&str>,
) -> SqsResult<(&'a [Arc<Queue>], Option<String>)> {
    let request = PageRequest::parse(max_results, token)?;
    let start = request
        .after
        .as_deref()
        .map_or(0, |after| queues.partition_point(|q| q.name() <= after));
    let end = (start + request.limit).min(queues.len());
    let page = &queues[start..end];
    Ok((page, request.next_token(page.last(), end < queues.len())))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeleteQueue {
    pub queue_url: String,
}

pub async fn delete_queue(input: DeleteQueue, sqs: &Sqs, ctx: &Context) -> SqsResult<()> {
    let key = ctx.queue_key(&input.queue_url)?;
    super::authorize(sqs, ctx, &*sqs.registry.get(&key)?)?;
    sqs.registry.delete(&key, sqs.now())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct PurgeQueue {
    pub queue_url: String,
}

pub async fn purge_queue(input: PurgeQueue, sqs: &Sqs, ctx: &Context) -> SqsResult<()> {
    let queue = queue(sqs, ctx, &input.queue_url)?;
    sqs.registry.purge(&queue, sqs.now())
}
