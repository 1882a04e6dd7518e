//! Dead-letter queues: ListDeadLetterSourceQueues and the message move tasks.

use crate::sqs::engine::queue::Queue;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

use super::in_range;
use super::queues::paginate;
use super::Sqs;
use crate::sqs::engine::move_task::{Mover, Start};
use crate::sqs::error::SqsResult;
use crate::sqs::protocol::Context;
use crate::sqs::protocol::QueueUrls;

/// ListDeadLetterSourceQueues' input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListDeadLetterSourceQueues {
    /// QueueUrl: the dead-letter queue.
    pub queue_url: String,
    /// NextToken: the previous page's token.
    pub next_token: Option<String>,
    /// MaxResults: 1 to 1000 URLs a page; without it no token is returned.
    pub max_results: Option<i64>,
}

/// `queueUrls` is lowercase and required on the wire.
#[derive(Debug, Serialize)]
pub struct SourceQueuesOutput {
    /// `queueUrls` (SQS's own casing): the queues whose RedrivePolicy names this one.
    #[serde(rename = "queueUrls")]
    pub queue_urls: Vec<String>,
    /// `NextToken`: present when more URLs follow.
    #[serde(rename = "NextToken", skip_serializing_if = "Option::is_none")]
    pub next_token: Option<String>,
}

/// ListDeadLetterSourceQueues: the queues whose RedrivePolicy targets this one, paged.
pub fn list_dead_letter_source_queues(
    input: ListDeadLetterSourceQueues,
    dlq: Arc<Queue>,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<SourceQueuesOutput> {
    let sources = sqs.registry.dead_letter_sources(&dlq.arn(), sqs.now());
    let (page, next_token) = paginate(&sources, input.max_results, input.next_token.as_deref())?;
    Ok(SourceQueuesOutput {
        queue_urls: page.iter().map(|q| ctx.queue_url(&q.key)).collect(),
        next_token,
    })
}

/// StartMessageMoveTask's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct StartMessageMoveTask {
    /// SourceArn: the dead-letter queue to move from.
    pub source_arn: String,
    /// DestinationArn: where to move; absent, each message goes back to its source queue.
    pub destination_arn: Option<String>,
    /// MaxNumberOfMessagesPerSecond: 1 to 500; absent, as fast as the ticker moves.
    pub max_number_of_messages_per_second: Option<i64>,
}

/// StartMessageMoveTask's answer.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct StartOutput {
    /// TaskHandle: names the task for CancelMessageMoveTask.
    pub task_handle: String,
}

/// StartMessageMoveTask: starts moving a dead-letter queue's messages; the ticker moves them.
pub fn start_message_move_task(
    input: StartMessageMoveTask,
    _: Option<Arc<Queue>>,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<StartOutput> {
    let rate = in_range(
        input.max_number_of_messages_per_second,
        "MaxNumberOfMessagesPerSecond",
        1,
        500,
        "Must be between 1 and 500, if provided.",
    )?;
    let destination_arn = input.destination_arn.filter(|d| !d.is_empty());
    sqs.registry.step_move_tasks(sqs.now());
    let spec = Start {
        source_arn: input.source_arn,
        destination_arn,
        max_per_second: rate.map(|r| r as u32),
        mover: ctx.principal.as_ref().map(|p| Mover {
            account: p.account.clone(),
            arn: p.arn.clone(),
        }),
    };
    let task_handle = sqs.registry.start_move_task(spec, sqs.now())?;
    // The first move is due at once; make it now rather than whenever the ticker runs.
    sqs.registry.step_move_tasks(sqs.now());
    sqs.ticker.notify_one();
    Ok(StartOutput { task_handle })
}

/// ListMessageMoveTasks' input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListMessageMoveTasks {
    /// SourceArn: the queue whose move tasks to list.
    pub source_arn: String,
    /// MaxResults: 1 to 10 tasks, newest first (1 when absent).
    pub max_results: Option<i64>,
}

/// ListMessageMoveTasks' answer.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListTasksOutput {
    /// `Results`: the tasks, newest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<TaskEntry>,
}

/// One move task in ListMessageMoveTasks' `Results`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct TaskEntry {
    /// TaskHandle: only while the task is RUNNING.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_handle: Option<String>,
    /// Status: RUNNING, COMPLETED, CANCELLING, CANCELLED or FAILED.
    pub status: &'static str,
    /// SourceArn: the dead-letter queue moved from.
    pub source_arn: String,
    /// DestinationArn: when the task named one (else each message's original queue).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination_arn: Option<String>,
    /// MaxNumberOfMessagesPerSecond: when the task named a rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_number_of_messages_per_second: Option<u32>,
    /// ApproximateNumberOfMessagesMoved: moved so far.
    pub approximate_number_of_messages_moved: u64,
    /// ApproximateNumberOfMessagesToMove: the source's depth when the task started.
    pub approximate_number_of_messages_to_move: u64,
    /// FailureReason: why a FAILED task stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    /// StartedTimestamp: epoch milliseconds on the server's clock.
    pub started_timestamp: u64,
}

/// ListMessageMoveTasks: the source's tasks, newest first.
pub fn list_message_move_tasks(
    input: ListMessageMoveTasks,
    source: Option<Arc<Queue>>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<ListTasksOutput> {
    let max = in_range(
        input.max_results,
        "MaxResults",
        1,
        10,
        "Must be between 1 and 10, if provided.",
    )?
    .unwrap_or(1);
    if source.is_none() {
        return Err(crate::sqs::error::SqsError::new(
            crate::sqs::error::ErrorKind::ResourceNotFound,
            "The resource that you specified for the SourceArn parameter doesn't exist.",
        ));
    }
    // Tasks settle lazily too: what a caller sees is exact for the clock's current instant.
    sqs.registry.step_move_tasks(sqs.now());
    let results = sqs
        .registry
        .move_tasks(&input.source_arn, max as usize)
        .into_iter()
        .map(|t| TaskEntry {
            task_handle: (t.status == crate::sqs::engine::move_task::Status::Running)
                .then_some(t.handle),
            status: t.status.as_str(),
            source_arn: t.source_arn,
            destination_arn: t.destination_arn,
            max_number_of_messages_per_second: t.max_per_second,
            approximate_number_of_messages_moved: t.moved,
            approximate_number_of_messages_to_move: t.to_move,
            failure_reason: t.failure_reason,
            started_timestamp: t.started_at,
        })
        .collect();
    Ok(ListTasksOutput { results })
}

/// CancelMessageMoveTask's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct CancelMessageMoveTask {
    /// TaskHandle: as StartMessageMoveTask returned it.
    pub task_handle: String,
}

/// CancelMessageMoveTask's answer.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct CancelOutput {
    /// ApproximateNumberOfMessagesMoved: moved before the cancel.
    pub approximate_number_of_messages_moved: u64,
}

/// CancelMessageMoveTask: stops a running task; what moved stays moved.
pub fn cancel_message_move_task(
    input: CancelMessageMoveTask,
    _: Option<Arc<Queue>>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<CancelOutput> {
    sqs.registry.step_move_tasks(sqs.now());
    let moved = sqs.registry.cancel_move_task(&input.task_handle)?;
    sqs.ticker.notify_one();
    Ok(CancelOutput {
        approximate_number_of_messages_moved: moved,
    })
}
