//! Message move tasks (DLQ redrive): their lifecycle, rate, and one step of progress.
//!
//! Tasks do not run on their own: the ticker calls `MoveTasks::step` at the instant the
//! next move falls due, so a task follows the server's clock (manual clocks included).
//! Each change of a task is reported as a whole [`Mutation::MoveTask`] by the one way to
//! change the list (`task_book`), so a durable server resumes a running task after a restart.

use std::sync::{Mutex, PoisonError};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::json;
use uuid::Uuid;

use crate::clock::Millis;
use crate::sqs::engine::mutation::Mutation;
use crate::sqs::engine::task_book::Book;
use crate::sqs::engine::Registry;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

mod status;

pub use status::Status;

/// Moves per step when no rate is given, so one step never holds locks for long.
const UNLIMITED_BATCH: u64 = 1000;

/// ListMessageMoveTasks shows "the most recent message movement tasks (up to 10)" of a source
/// (SQS API Reference); older finished tasks are forgotten.
pub const LISTED: usize = 10;

/// Who started a task: the destination's Policy judges each of the task's sends as theirs.
#[derive(Debug, Clone)]
pub struct Mover {
    /// The caller's 12-digit account.
    pub account: String,
    /// `arn:aws:iam::<account>:root` or `…:user/<name>`.
    pub arn: String,
}

/// A message move task (StartMessageMoveTask) with its progress.
#[derive(Debug, Clone)]
pub struct MoveTask {
    /// Its identity, inside the handle.
    pub task_id: Uuid,
    /// TaskHandle: what CancelMessageMoveTask takes.
    pub handle: String,
    /// SourceArn: the dead-letter queue moved from.
    pub source_arn: String,
    /// DestinationArn; `None` sends each message back to its source queue.
    pub destination_arn: Option<String>,
    /// MaxNumberOfMessagesPerSecond; `None` moves as fast as the ticker runs.
    pub max_per_second: Option<u32>,
    /// Status.
    pub status: Status,
    /// ApproximateNumberOfMessagesMoved.
    pub moved: u64,
    /// ApproximateNumberOfMessagesToMove: the source's depth at the start.
    pub to_move: u64,
    /// FailureReason, when FAILED.
    pub failure_reason: Option<String>,
    /// StartedTimestamp, on the server's clock.
    pub started_at: Millis,
    /// When the next move falls due; not stored: a restored task is due at once.
    pub(crate) next_due: Millis,
    /// The verified caller that started the task (servers with credentials), stored with it:
    /// each send, after a restart too, needs their permission on the destination.
    pub(crate) mover: Option<Mover>,
}

/// Every move task of the server, behind one lock (tasks are few and change rarely).
#[derive(Debug, Default)]
pub struct MoveTasks {
    /// The tasks ListMessageMoveTasks can still show, oldest first.
    tasks: Mutex<Vec<MoveTask>>,
}

/// ResourceNotFound for a SourceArn naming no queue, in SQS's words.
fn source_missing() -> SqsError {
    SqsError::new(
        ErrorKind::ResourceNotFound,
        "The resource that you specified for the SourceArn parameter doesn't exist.",
    )
}

/// Handles are base64 of `{"taskId":…,"sourceArn":…}`, the shape SQS decodes.
fn decode_handle(handle: &str) -> Option<(String, String)> {
    let bytes = STANDARD.decode(handle).ok()?;
    let value: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    Some((
        value.get("taskId")?.as_str()?.to_owned(),
        value.get("sourceArn")?.as_str()?.to_owned(),
    ))
}

/// The source queue ARN a task handle names, for authorizing a cancel.
pub fn handle_source(handle: &str) -> Option<String> {
    decode_handle(handle).map(|(_, source)| source)
}

impl MoveTasks {
    /// Forgets every task (the admin API's reset).
    fn clear(&self, registry: &Registry) {
        self.book(registry).clear();
    }

    /// Takes back a task read from the data directory, replacing an older state of it.
    pub(crate) fn restore(&self, mut task: MoveTask, now: Millis) {
        task.next_due = now;
        let mut tasks = self.lock();
        match tasks.iter_mut().find(|t| t.task_id == task.task_id) {
            Some(known) => *known = task,
            None => tasks.push(task),
        }
    }

    /// Every task, oldest first, as records for a snapshot.
    pub(crate) fn snapshot<E>(
        &self,
        emit: &mut dyn FnMut(&Mutation<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        for task in self.lock().iter() {
            emit(&Mutation::MoveTask(task))?;
        }
        Ok(())
    }

    /// StartMessageMoveTask: the source must be some queue's dead-letter queue and hold no active
    /// task; returns the handle.
    fn start(&self, registry: &Registry, spec: Start, now: Millis) -> SqsResult<String> {
        let Start {
            source_arn,
            destination_arn,
            max_per_second,
            mover,
        } = spec;
        let source_arn = source_arn.as_str();
        let source = registry.get_by_arn(source_arn).ok_or_else(source_missing)?;
        if registry.dead_letter_sources(source_arn, now).is_empty() {
            return Err(SqsError::invalid_parameter(
                "Source queue must be configured as a Dead Letter Queue.",
            ));
        }
        if let Some(dest) = &destination_arn {
            if registry.get_by_arn(dest).is_none() {
                return Err(SqsError::new(
                    ErrorKind::ResourceNotFound,
                    "The resource that you specified for the DestinationArn parameter doesn't exist.",
                ));
            }
        }
        let mut tasks = self.book(registry);
        if tasks
            .iter()
            .any(|t| t.source_arn == source_arn && t.status.active())
        {
            return Err(SqsError::invalid_parameter(
                "There is already a task running. Only one active task is allowed for a source queue arn at a given time.",
            ));
        }
        let task_id = Uuid::new_v4();
        let handle = STANDARD
            .encode(json!({"taskId": task_id.to_string(), "sourceArn": source_arn}).to_string());
        let task = MoveTask {
            task_id,
            handle: handle.clone(),
            source_arn: source_arn.to_owned(),
            destination_arn,
            max_per_second,
            status: Status::Running,
            moved: 0,
            to_move: source.lock_settled_mut(now).store().len() as u64,
            failure_reason: None,
            started_at: now,
            next_due: now,
            mover,
        };
        tasks.push(task);
        prune(&mut tasks, registry);
        Ok(handle)
    }

    /// Asks a running task to stop; returns how many messages it had moved.
    fn cancel(&self, registry: &Registry, handle: &str) -> SqsResult<u64> {
        let (task_id, source_arn) = decode_handle(handle).ok_or_else(|| {
            SqsError::invalid_parameter("Value for parameter TaskHandle is invalid.")
        })?;
        if registry.get_by_arn(&source_arn).is_none() {
            return Err(source_missing());
        }
        let mut tasks = self.book(registry);
        let index = tasks
            .iter()
            .position(|t| t.task_id.to_string() == task_id && t.source_arn == source_arn)
            .ok_or_else(|| SqsError::new(ErrorKind::ResourceNotFound, "Task does not exist."))?;
        if tasks[index].status != Status::Running {
            return Err(SqsError::invalid_parameter(
                "Only active tasks can be cancelled.",
            ));
        }
        Ok(tasks.update(index, |task| {
            task.status = Status::Cancelling;
            task.moved
        }))
    }

    /// The tasks of one source, most recent first.
    fn list(&self, source_arn: &str, max: usize) -> Vec<MoveTask> {
        self.lock()
            .iter()
            .rev()
            .filter(|t| t.source_arn == source_arn)
            .take(max)
            .cloned()
            .collect()
    }

    /// Moves every message that is due by `now`; returns when the next one falls due.
    fn step(&self, registry: &Registry, now: Millis) -> Option<Millis> {
        let mut tasks = self.book(registry);
        let mut next: Option<Millis> = None;
        for index in 0..tasks.len() {
            if !tasks[index].status.active() {
                continue;
            }
            let due = tasks.update(index, |task| {
                if task.status == Status::Cancelling {
                    task.status = Status::Cancelled;
                } else {
                    advance(task, registry, now);
                }
                (task.status == Status::Running).then_some(task.next_due)
            });
            if let Some(due) = due {
                next = Some(next.map_or(due, |n| n.min(due)));
            }
        }
        next
    }

    /// The task list, taken even if a panic poisoned the lock: one failed request must not stop
    /// every move task.
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<MoveTask>> {
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The list locked for a change: every change through it is recorded.
    fn book<'a>(&'a self, registry: &'a Registry) -> Book<'a> {
        Book::new(self.lock(), registry)
    }
}

/// The move tasks live in the registry, beside the queues they move between.
impl Registry {
    /// StartMessageMoveTask; returns the task handle.
    pub fn start_move_task(&self, spec: Start, now: Millis) -> SqsResult<String> {
        self.tasks.start(self, spec, now)
    }

    /// CancelMessageMoveTask; returns how many messages the task had moved.
    pub fn cancel_move_task(&self, handle: &str) -> SqsResult<u64> {
        self.tasks.cancel(self, handle)
    }

    /// The tasks of one source, most recent first.
    pub fn move_tasks(&self, source_arn: &str, max: usize) -> Vec<MoveTask> {
        self.tasks.list(source_arn, max)
    }

    /// Makes every move due by `now`; returns when the next one falls due.
    pub fn step_move_tasks(&self, now: Millis) -> Option<Millis> {
        self.tasks.step(self, now)
    }

    /// Forgets every task (the admin API's reset).
    pub fn clear_move_tasks(&self) {
        self.tasks.clear(self);
    }
}

/// What StartMessageMoveTask asks for.
#[derive(Debug, Clone)]
pub struct Start {
    /// SourceArn: the dead-letter queue to move from.
    pub source_arn: String,
    /// DestinationArn; `None` sends each message back to its source queue.
    pub destination_arn: Option<String>,
    /// MaxNumberOfMessagesPerSecond: 1 to 500.
    pub max_per_second: Option<u32>,
    /// Who starts it; `None` where no policy is checked (declarations, tests).
    pub mover: Option<Mover>,
}

/// Forgets the finished tasks ListMessageMoveTasks can no longer show: beyond the 10 most
/// recent of their source, or of a source queue that is gone.
fn prune(tasks: &mut Book<'_>, registry: &Registry) {
    let mut per_source: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut keep = vec![true; tasks.len()];
    for (i, t) in tasks.iter().enumerate().rev() {
        let seen = per_source.entry(t.source_arn.as_str()).or_default();
        *seen += 1;
        if !t.status.active() && (*seen > LISTED || registry.get_by_arn(&t.source_arn).is_none()) {
            keep[i] = false;
        }
    }
    let mut flags = keep.into_iter();
    tasks.retain(|_| flags.next().unwrap_or(true));
}

/// Moves the messages due by `now`, at most MaxNumberOfMessagesPerSecond (or a batch per step),
/// completing or failing the task.
fn advance(task: &mut MoveTask, registry: &Registry, now: Millis) {
    let interval = task.max_per_second.map(|r| 1000 / Millis::from(r.max(1)));
    let mut budget = if interval.is_some() {
        u64::MAX
    } else {
        UNLIMITED_BATCH
    };
    while task.next_due <= now && budget > 0 && task.status == Status::Running {
        if task.moved >= task.to_move {
            task.status = Status::Completed;
            return;
        }
        let Some(source) = registry.get_by_arn(&task.source_arn) else {
            fail(task, "AWS.SimpleQueueService.NonExistentQueue");
            return;
        };
        let target = task.destination_arn.as_deref();
        match registry.redrive_oldest(&source, target, task.mover.as_ref(), now) {
            Ok(true) => task.moved += 1,
            Ok(false) => {
                task.status = Status::Completed;
                return;
            }
            Err(reason) => {
                fail(task, &reason);
                return;
            }
        }
        budget -= 1;
        if let Some(interval) = interval {
            task.next_due += interval;
        }
    }
    if task.moved >= task.to_move {
        task.status = Status::Completed;
    }
}

/// Ends the task as FAILED with `reason`, ListMessageMoveTasks' FailureReason.
fn fail(task: &mut MoveTask, reason: &str) {
    task.status = Status::Failed;
    task.failure_reason = Some(reason.to_owned());
}

#[cfg(test)]
mod tests;
