//! Dead-letter queues: ListDeadLetterSourceQueues and the message move tasks.

use serde::{Deserialize, Serialize};

use super::queues::paginate;
use super::{in_range, queue};
use crate::app::App;
use crate::error::{ErrorKind, SqsError, SqsResult};
use crate::protocol::Context;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListDeadLetterSourceQueues {
    pub queue_url: String,
    pub next_token: Option<String>,
    pub max_results: Option<i64>,
}

/// `queueUrls` is lowercase and required on the wire.
#[derive(Debug, Serialize)]
pub struct SourceQueuesOutput {
    #[serde(rename = "queueUrls")]
    pub queue_urls: Vec<String>,
    #[serde(rename = "NextToken", skip_serializing_if = "Option::is_none")]
    pub next_token: Option<String>,
}

pub async fn list_dead_letter_source_queues(
    input: ListDeadLetterSourceQueues,
    app: &App,
    ctx: &Context,
) -> SqsResult<SourceQueuesOutput> {
    let dlq = queue(app, ctx, &input.queue_url)?;
    let max = in_range(
        input.max_results,
        "MaxResults",
        1,
        1000,
        "MaxResults must be an integer between 1 and 1000.",
    )?;
    let sources = app.registry.dead_letter_sources(&dlq.arn, app.now());
    let names: Vec<String> = sources.iter().map(|q| q.key.name.clone()).collect();
    let (page, next_token) = paginate(&names, max, input.next_token.as_deref())?;
    let by_name = |n: &String| sources.iter().find(|q| &q.key.name == n);
    Ok(SourceQueuesOutput {
        queue_urls: page
            .iter()
            .filter_map(by_name)
            .map(|q| ctx.queue_url(&q.key))
            .collect(),
        next_token,
    })
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct StartMessageMoveTask {
    pub source_arn: String,
    pub destination_arn: Option<String>,
    pub max_number_of_messages_per_second: Option<i64>,
}

pub async fn start_message_move_task(
    _: StartMessageMoveTask,
    _: &App,
    _: &Context,
) -> SqsResult<()> {
    Err(SqsError::of(ErrorKind::UnsupportedOperation))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListMessageMoveTasks {
    pub source_arn: String,
    pub max_results: Option<i64>,
}

pub async fn list_message_move_tasks(
    _: ListMessageMoveTasks,
    _: &App,
    _: &Context,
) -> SqsResult<()> {
    Err(SqsError::of(ErrorKind::UnsupportedOperation))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct CancelMessageMoveTask {
    pub task_handle: String,
}

pub async fn cancel_message_move_task(
    _: CancelMessageMoveTask,
    _: &App,
    _: &Context,
) -> SqsResult<()> {
    Err(SqsError::of(ErrorKind::UnsupportedOperation))
}
