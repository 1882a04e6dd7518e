//! Queue lifecycle: CreateQueue, GetQueueUrl, ListQueues, DeleteQueue, PurgeQueue.

use super::access::{InAccount, Target};
use std::collections::BTreeMap;
use std::sync::Arc;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use super::in_range;
use super::Sqs;
use crate::sqs::engine::queue::Queue;
use crate::sqs::error::{SqsError, SqsResult};
use crate::sqs::protocol::Context;
use crate::sqs::protocol::QueueUrls;

/// CreateQueue's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct CreateQueue {
    /// QueueName: up to 80 characters, ending in `.fifo` for a FIFO queue.
    pub queue_name: String,
    /// Attributes: name to string value; an existing queue must have the same ones.
    #[serde(default)]
    pub attributes: BTreeMap<String, String>,
    /// `tags` (JSON) or `Tag.N` (Query): the queue's tags at creation, up to 50.
    #[serde(default, rename = "tags", alias = "Tags")]
    pub tags: BTreeMap<String, String>,
}

/// The answer of CreateQueue and GetQueueUrl.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct QueueUrlOutput {
    /// QueueUrl: the queue's URL, minted from the request's endpoint or `public_url`.
    pub queue_url: String,
}

/// CreateQueue: creates the queue, or returns the URL of one with the same attributes.
pub fn create_queue(
    input: CreateQueue,
    _: InAccount,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<QueueUrlOutput> {
    crate::sqs::engine::tags::check(&input.tags, &input.queue_name)?;
    let key = ctx.key(&input.queue_name);
    sqs.registry
        .create(key.clone(), &input.attributes, input.tags, sqs.now())?;
    Ok(QueueUrlOutput {
        queue_url: ctx.queue_url(&key),
    })
}

/// GetQueueUrl's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct GetQueueUrl {
    /// QueueName: the queue to find.
    pub queue_name: String,
    /// QueueOwnerAWSAccountId: the owner, when it is not the caller's account.
    #[serde(rename = "QueueOwnerAWSAccountId")]
    pub queue_owner_aws_account_id: Option<String>,
}

impl GetQueueUrl {
    /// The queue named: QueueName in QueueOwnerAWSAccountId's account, else the caller's.
    pub fn target(&self) -> Target<'_> {
        Target::Name {
            name: &self.queue_name,
            owner: self
                .queue_owner_aws_account_id
                .as_deref()
                .filter(|o| !o.is_empty()),
        }
    }
}

/// GetQueueUrl: the URL of an existing queue (created first with `auto_create`).
pub fn get_queue_url(
    _: GetQueueUrl,
    queue: Arc<Queue>,
    _: &Sqs,
    ctx: &Context,
) -> SqsResult<QueueUrlOutput> {
    Ok(QueueUrlOutput {
        queue_url: ctx.queue_url(&queue.key),
    })
}

/// ListQueues' input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListQueues {
    /// QueueNamePrefix: only names starting with it; empty lists all.
    #[serde(default)]
    pub queue_name_prefix: String,
    /// NextToken: the previous page's token.
    pub next_token: Option<String>,
    /// MaxResults: 1 to 1000 names a page; without it no token is returned.
    pub max_results: Option<i64>,
}

/// ListQueues' answer.
#[derive(Debug, Serialize)]
pub struct ListQueuesOutput {
    /// `QueueUrls`: the page's queues, in name order.
    #[serde(rename = "QueueUrls", skip_serializing_if = "Vec::is_empty")]
    pub queue_urls: Vec<String>,
    /// `NextToken`: present when more names follow.
    #[serde(rename = "NextToken", skip_serializing_if = "Option::is_none")]
    pub next_token: Option<String>,
}

/// ListQueues: the caller's queues in name order, paged.
pub fn list_queues(
    input: ListQueues,
    _: InAccount,
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
    /// How many names a page holds: MaxResults, or 1000 when it is absent.
    limit: usize,
    /// Tokens appear only when `MaxResults` was given, as on SQS.
    max_given: bool,
    /// Names up to this one were listed already.
    after: Option<String>,
}

impl PageRequest {
    /// Reads MaxResults and NextToken, with SQS's errors for bad ones.
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

    /// The token after `last`, when MaxResults was given and more names follow.
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

/// DeleteQueue's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeleteQueue {
    /// QueueUrl: the queue to delete.
    pub queue_url: String,
}

/// DeleteQueue: the queue goes at once, waking every poll parked on it.
pub fn delete_queue(_: DeleteQueue, queue: Arc<Queue>, sqs: &Sqs, _: &Context) -> SqsResult<()> {
    sqs.registry.delete(&queue.key, sqs.now())
}

/// PurgeQueue's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct PurgeQueue {
    /// QueueUrl: the queue to empty.
    pub queue_url: String,
}

/// PurgeQueue: drops every message; with `strict`, once per 60 s.
pub fn purge_queue(_: PurgeQueue, queue: Arc<Queue>, sqs: &Sqs, _: &Context) -> SqsResult<()> {
    sqs.registry.purge(&queue, sqs.now())
}
