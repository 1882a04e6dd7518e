//! One enabled mapping's poller: gathers batches from its queue through the SQS engine's own
//! receive (so receive counts, and with them the queue's RedrivePolicy, apply), invokes the
//! function at most `MaximumConcurrency` times at once, and settles each batch. A batch's
//! event stays within Lambda's 6 MB payload limit: records received past it are carried
//! into the next batch (a standard queue's) or made visible again at once (a FIFO queue's,
//! whose next batch could otherwise run a group's later record beside its earlier one).

use std::collections::HashSet;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::futures::Notified;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};
use tokio::task::JoinSet;

use super::event::{self, Payload, Record, MAX_PAYLOAD_BYTES};
use super::functions::Function;
use super::invoke::{invoke, Outcome};
use super::mapping::Mapping;
use super::response::{verdict, Verdict};
use super::stats::{Ending, LastInvocation, Stats};
use crate::clock::Millis;
use crate::faults::invoke::InvokeTarget;
use crate::sqs::engine::delivery::{Delivered, Pass, ReceiveParams};
use crate::sqs::engine::limits;
use crate::sqs::engine::queue::Queue;
use crate::triggers::Service;

/// Concurrent invocations of a mapping without `MaximumConcurrency`: Lambda starts an SQS
/// mapping with five concurrent batches (Lambda guide, services-sqs-scaling); sqslite does
/// not scale beyond them.
pub const DEFAULT_CONCURRENCY: u32 = 5;

/// What a poller works with.
pub struct Job {
    pub app: Arc<Service>,
    pub mapping: Mapping,
    pub function: Function,
    pub queue: Arc<Queue>,
    pub stats: Arc<Stats>,
    /// Whether the queue's Policy refused the last receive (logged once per refusal).
    pub refused: AtomicBool,
}

/// How long a poller the queue's Policy refuses waits before it asks again, on the server's
/// clock (a send into the queue also wakes it). [unverified] Lambda's own back-off for a role
/// that lost access is not documented; the mapping stays Enabled here, as it does on AWS.
const REFUSED_RETRY_MS: Millis = 5_000;

/// Polls until the queue is deleted or the server shuts down; dropping the future (the
/// mapping disabled, changed or removed) also drops its invocations.
pub async fn run(job: Arc<Job>) {
    let cap = job
        .mapping
        .settings
        .maximum_concurrency
        .unwrap_or(DEFAULT_CONCURRENCY);
    let slots = Arc::new(Semaphore::new(cap as usize));
    let mut invocations = JoinSet::new();
    // Records received past the last batch's payload limit: the next batch's first.
    let mut carry = Vec::new();
    loop {
        let Some(slot) = slot(&job, &slots, &mut carry).await else {
            return;
        };
        while invocations.try_join_next().is_some() {}
        let Some(batch) = gather(&job, &mut carry).await else {
            return;
        };
        let job = job.clone();
        invocations.spawn(async move {
            settle(&job, batch).await;
            drop(slot);
        });
    }
}

/// A free invocation slot, taken before gathering so no batch sits in flight waiting for
/// one. Carried records are made visible again rather than wait for a slot. `None`: the
/// semaphore is closed.
async fn slot(
    job: &Job,
    slots: &Arc<Semaphore>,
    carry: &mut Vec<Record>,
) -> Option<OwnedSemaphorePermit> {
    match slots.clone().try_acquire_owned() {
        Ok(slot) => return Some(slot),
        Err(TryAcquireError::Closed) => return None,
        Err(TryAcquireError::NoPermits) => release(job, carry),
    }
    slots.clone().acquire_owned().await.ok()
}

/// The next batch: up to `BatchSize` records, gathered until the batch is full (by count or
/// by payload) or, once it holds a record, `MaximumBatchingWindowInSeconds` on the server's
/// clock has passed. Starts with the records `carry` holds; leaves there those received past
/// the payload limit. Waits on the queue's notify between passes. `None`: the queue is gone
/// or the server stopping.
async fn gather(job: &Job, carry: &mut Vec<Record>) -> Option<Vec<Record>> {
    let settings = &job.mapping.settings;
    let size = settings.batch_size as usize;
    let window = Millis::from(settings.maximum_batching_window_seconds) * 1000;
    let receive_max = *limits::RECEIVE_MESSAGES.end() as usize;
    let (mut batch, mut window_end) = (Vec::new(), None);
    let mut payload = Payload::new(MAX_PAYLOAD_BYTES);
    for record in std::mem::take(carry) {
        join(record, &mut batch, &mut payload, carry);
    }
    loop {
        if batch.len() >= size || !carry.is_empty() {
            if job.queue.fifo {
                release(job, carry);
            }
            return Some(batch);
        }
        // Registered before looking, so a send between the look and the wait still wakes us.
        let mut notified = pin!(job.queue.notify.notified());
        notified.as_mut().enable();
        if job.queue.is_deleted() {
            return None;
        }
        let now = job.app.now();
        if !may(job, "ReceiveMessage") {
            if !wait(job, notified, Some(now.saturating_add(REFUSED_RETRY_MS))).await {
                return None;
            }
            continue;
        }
        let pass = receive(job, (size - batch.len()).min(receive_max), now)?;
        let got = !pass.delivered.is_empty();
        for record in take(job, &pass.delivered) {
            join(record, &mut batch, &mut payload, carry);
        }
        if batch.len() >= size || !carry.is_empty() {
            continue;
        }
        let mut wake_at = pass.next_change;
        if !batch.is_empty() {
            let end = *window_end.get_or_insert(now.saturating_add(window));
            if now >= end {
                return Some(batch);
            }
            wake_at = Some(wake_at.map_or(end, |t| t.min(end)));
        }
        if got {
            continue;
        }
        if !wait(job, notified, wake_at).await {
            return None;
        }
    }
}

/// One receive pass for up to `max` messages; `None` (logged) if the receive failed.
fn receive(job: &Job, max: usize, now: Millis) -> Option<Pass> {
    let params = ReceiveParams {
        max,
        visibility_timeout: None,
        attempt_id: None,
        short_poll: false,
    };
    let registry = &job.app.sqs.registry;
    match registry.receive_pass(&job.queue, &params, false, now) {
        Ok(pass) => Some(pass),
        Err(e) => {
            tracing::warn!(mapping = %job.mapping.uuid, "receive failed: {e}");
            None
        }
    }
}

/// The records of the delivered messages some filter matches; deletes the others, as
/// Lambda does with messages its FilterCriteria drop.
fn take(job: &Job, delivered: &[Delivered]) -> Vec<Record> {
    let mut kept = Vec::with_capacity(delivered.len());
    for d in delivered {
        let record = event::record(d, &job.mapping.event_source_arn, &job.queue.key.region);
        if passes_filters(job, &record) {
            kept.push(record);
        } else {
            job.stats.filtered();
            delete(job, &record);
        }
    }
    kept
}

/// Adds `record` to the batch if the event stays within the payload limit and nothing is
/// carried already (records keep their order); else carries it.
fn join(record: Record, batch: &mut Vec<Record>, payload: &mut Payload, carry: &mut Vec<Record>) {
    if carry.is_empty() && payload.admit(&record) {
        batch.push(record);
    } else {
        carry.push(record);
    }
}

/// Makes the carried records visible again at once, for a later receive.
fn release(job: &Job, carry: &mut Vec<Record>) {
    let now = job.app.now();
    for record in carry.drain(..) {
        if let Err(e) = job.queue.change_visibility(&record.receipt_handle, 0, now) {
            tracing::debug!(mapping = %job.mapping.uuid, "releasing a record failed: {e}");
        }
    }
}

/// Parks until the queue is poked or the clock reaches `wake_at`; false on shutdown.
async fn wait(job: &Job, notified: Pin<&mut Notified<'_>>, wake_at: Option<Millis>) -> bool {
    job.app.sqs.park_on(&job.queue, notified, wake_at).await
}

fn passes_filters(job: &Job, record: &Record) -> bool {
    job.mapping
        .settings
        .filters
        .criteria()
        .matches_sqs_record(&record.json, &record.body)
}

/// Adds one to `field` of the mapping's series, which its queue's dashboard chart draws.
fn chart(job: &Job, field: &'static str) {
    let name = format!("mapping {}", job.mapping.uuid);
    let now = job.app.now();
    job.app.series.count(&job.queue.arn(), &name, field, now, 1);
}

/// Whether the queue's Policy lets the mapping's account do `operation` now, as SQS checks
/// a client (only with `[[credentials]]`): a Deny added after the mapping was made stops
/// its reads and deletes, as it stops a Lambda execution role's calls on AWS.
fn may(job: &Job, operation: &str) -> bool {
    if !job.app.authenticated {
        return true;
    }
    let account = job.mapping.account();
    let verdict = crate::sqs::actions::admits_account(&job.app.sqs, &job.queue, account, operation);
    let refused = verdict.is_err();
    if job.refused.swap(refused, Ordering::Relaxed) != refused {
        match verdict {
            Err(e) => {
                tracing::warn!(mapping = %job.mapping.uuid, %account, "{operation} refused: {e}");
            }
            Ok(()) => {
                tracing::info!(mapping = %job.mapping.uuid, "the queue's Policy admits the mapping again");
            }
        }
    }
    !refused
}

fn delete(job: &Job, record: &Record) {
    if !may(job, "DeleteMessage") {
        return;
    }
    let now = job.app.now();
    // A handle that no longer deletes (the visibility timeout passed and another receive
    // took the message) leaves the message to that receive, as SQS's DeleteMessage would.
    if let Err(e) = job.queue.delete_message(&record.receipt_handle, now) {
        tracing::debug!(mapping = %job.mapping.uuid, "delete failed: {e}");
    }
}

/// Invokes the function with one batch and deletes what succeeded; a failure leaves its
/// records in flight until the queue's visibility timeout returns them.
async fn settle(job: &Job, batch: Vec<Record>) {
    let started_at = job.app.now();
    job.stats.invoked(batch.len());
    chart(job, "invocations");
    let result = call(job, &batch).await;
    let (ending, failed_records, error) = match &result {
        Err(reason) => {
            job.stats.failed();
            chart(job, "errors");
            tracing::info!(mapping = %job.mapping.uuid, function = %job.function.name, "the batch fails: {reason}");
            (Ending::Error, batch.len(), Some(reason.clone()))
        }
        Ok(failed) if !failed.is_empty() => {
            job.stats.partial();
            (Ending::PartialFailure, failed.len(), None)
        }
        Ok(_) => (Ending::Success, 0, None),
    };
    job.stats.finished(LastInvocation {
        started_at,
        finished_at: job.app.now(),
        records: batch.len() as u64,
        ending,
        failed_records: failed_records as u64,
        error,
    });
    if let Ok(failed) = result {
        for record in batch.iter().filter(|r| !failed.contains(&r.message_id)) {
            delete(job, record);
        }
    }
}

/// Calls the function (or the fault rule that stands in for it) with the batch: the message
/// ids to keep for a retry, or why the whole batch failed.
async fn call(job: &Job, batch: &[Record]) -> Result<HashSet<String>, String> {
    let event = event::event(batch.iter().map(Record::full).collect());
    let outcome = match injected(job).await {
        Some(reason) => Outcome::Failed(reason),
        None => invoke(&job.function, &event, &job.app.outbound).await,
    };
    let failed = match outcome {
        Outcome::Failed(reason) => return Err(format!("invocation failed: {reason}")),
        Outcome::Returned(_) if !job.mapping.settings.reports_batch_item_failures() => {
            return Ok(HashSet::new())
        }
        Outcome::Returned(body) => {
            let ids: HashSet<&str> = batch.iter().map(|r| r.message_id.as_str()).collect();
            match verdict(&body, &ids) {
                Verdict::Success => return Ok(HashSet::new()),
                Verdict::Partial(failed) => failed,
                Verdict::Invalid(reason) => {
                    return Err(format!("invalid partial batch response: {reason}"))
                }
            }
        }
    };
    Ok(if job.queue.fifo {
        stop_failed_groups(batch, failed)
    } else {
        failed
    })
}

/// Applies the first matching Invoke fault rule: waits out its delay (server clock) and
/// latency (wall time); `Some` is the function error it injects instead of the call.
async fn injected(job: &Job) -> Option<String> {
    let faults = &job.app.faults;
    if !faults.armed() {
        return None;
    }
    let target = InvokeTarget {
        function: &job.function.name,
        mapping: &job.mapping.uuid,
        queue: &job.queue.key.name,
    };
    let fault = faults.check_invoke(&target, job.app.now())?;
    tracing::warn!(mapping = %job.mapping.uuid, rule = fault.rule, "fault injected on an invocation");
    if fault.delay > 0 {
        let at = job.app.now().saturating_add(fault.delay);
        job.app.sqs.clock.sleep_until(at).await;
    }
    if let Some(latency) = fault.latency {
        tokio::time::sleep(latency).await;
    }
    fault
        .error
        .map(|e| format!("injected function error (fault rule {}): {e}", fault.rule))
}

/// On a FIFO queue a failed record stops its group: the group's later records in the batch
/// are kept for the retry too, so the group is processed in order.
fn stop_failed_groups(batch: &[Record], mut failed: HashSet<String>) -> HashSet<String> {
    let mut stopped: HashSet<&str> = HashSet::new();
    for r in batch {
        let group = r.group_id.as_deref().unwrap_or_default();
        if stopped.contains(group) {
            failed.insert(r.message_id.clone());
        } else if failed.contains(&r.message_id) {
            stopped.insert(group);
        }
    }
    failed
}

#[cfg(test)]
#[path = "poller_tests.rs"]
mod tests;
