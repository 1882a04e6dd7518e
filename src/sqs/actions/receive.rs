//! ReceiveMessage: validation, long polling, and choosing which attributes a message carries.

use crate::sqs::engine::queue::Queue;
use std::collections::BTreeMap;
use std::pin::pin;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::in_range;
use super::send::WireAttribute;
use super::Sqs;
use crate::sqs::engine::delivery::{Delivered, ReceiveParams};
use crate::sqs::engine::message;
use crate::sqs::engine::{limits, md5};
use crate::sqs::error::{SqsError, SqsResult};
use crate::sqs::protocol::Context;

/// ReceiveMessage's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ReceiveMessage {
    /// QueueUrl: the queue to receive from.
    pub queue_url: String,
    /// AttributeNames: system attributes to return (deprecated name of the next one).
    #[serde(default)]
    pub attribute_names: Vec<String>,
    /// MessageSystemAttributeNames: system attributes to return, or `All`.
    #[serde(default)]
    pub message_system_attribute_names: Vec<String>,
    /// MessageAttributeNames: message attributes to return, `All` or `prefix.*`.
    #[serde(default)]
    pub message_attribute_names: Vec<String>,
    /// MaxNumberOfMessages: 1 to 10 (1 when absent).
    pub max_number_of_messages: Option<i64>,
    /// VisibilityTimeout: seconds the messages stay hidden; the queue's when absent.
    pub visibility_timeout: Option<i64>,
    /// WaitTimeSeconds: 0 to 20 seconds of long polling; the queue's when absent.
    pub wait_time_seconds: Option<i64>,
    /// ReceiveRequestAttemptId: on FIFO queues, repeats a receive's answer for 5 minutes.
    pub receive_request_attempt_id: Option<String>,
}

/// ReceiveMessage's answer.
#[derive(Debug, Serialize)]
pub struct ReceiveOutput {
    /// `Messages`: what was received, absent when none.
    #[serde(rename = "Messages", skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<OutMessage>,
}

/// One received message, as the wire carries it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct OutMessage {
    /// MessageId: the UUID SendMessage returned.
    pub message_id: String,
    /// ReceiptHandle: names this receive, for delete and visibility changes.
    pub receipt_handle: String,
    /// `MD5OfBody`: hex MD5 of the body.
    #[serde(rename = "MD5OfBody")]
    pub md5_of_body: String,
    /// Body: as sent.
    pub body: String,
    /// Attributes: the system attributes asked for (SentTimestamp...), as strings.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<&'static str, String>,
    /// `MD5OfMessageAttributes`: of the attributes returned, when any are.
    #[serde(
        rename = "MD5OfMessageAttributes",
        skip_serializing_if = "Option::is_none"
    )]
    pub md5_of_message_attributes: Option<String>,
    /// MessageAttributes: the message attributes asked for.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub message_attributes: BTreeMap<String, WireAttribute>,
}

/// ReceiveMessage: receives at once, or parks until a message, the wait's end or shutdown.
pub async fn receive_message(
    input: ReceiveMessage,
    queue: Arc<Queue>,
    sqs: &Sqs,
    _: &Context,
) -> SqsResult<ReceiveOutput> {
    let (max, visibility, wait) = checked_numbers(&input)?;
    let start = sqs.now();
    let wait = wait.map_or_else(
        || {
            queue
                .lock_settled(start)
                .attributes()
                .receive_message_wait_time_seconds
        },
        |w| w as u32,
    );
    let params = ReceiveParams {
        max: max as usize,
        visibility_timeout: visibility.map(|v| v as u32),
        attempt_id: input.receive_request_attempt_id.clone(),
        short_poll: wait == 0,
    };
    let deadline = start.saturating_add(u64::from(wait) * 1000);
    let selection = Selection::new(&input);
    let mut closing = false;
    loop {
        // Registered before looking, so a send between the look and the wait still wakes us.
        let mut notified = pin!(queue.notify.notified());
        notified.as_mut().enable();
        if queue.is_deleted() {
            return Err(SqsError::queue_does_not_exist());
        }
        let now = sqs.now();
        let last = now >= deadline || closing;
        let pass = sqs.registry.receive_pass(&queue, &params, last, now)?;
        if !pass.is_empty() || last {
            return Ok(ReceiveOutput {
                messages: pass
                    .delivered
                    .into_iter()
                    .map(|d| selection.render(d))
                    .collect(),
            });
        }
        let wake_at = pass.next_change.map_or(deadline, |t| t.min(deadline));
        // Shutdown answers a parked poll with what it has (nothing), not a cut connection.
        closing = !sqs.park_on(&queue, notified, Some(wake_at)).await;
    }
}

/// MaxNumberOfMessages, VisibilityTimeout and WaitTimeSeconds, each checked against SQS's
/// range (and the attempt id's form) before the queue is looked at.
#[inline]
fn checked_numbers(input: &ReceiveMessage) -> SqsResult<(i64, Option<i64>, Option<i64>)> {
    let max = in_range(
        input.max_number_of_messages,
        "MaxNumberOfMessages",
        i64::from(*limits::RECEIVE_MESSAGES.start()),
        i64::from(*limits::RECEIVE_MESSAGES.end()),
        "Must be between 1 and 10, if provided.",
    )?
    .unwrap_or(1);
    let visibility = in_range(
        input.visibility_timeout,
        "VisibilityTimeout",
        i64::from(*limits::VISIBILITY_TIMEOUT.start()),
        i64::from(*limits::VISIBILITY_TIMEOUT.end()),
        format_args!(
            "Must be >= 0 and <= {}, if provided.",
            limits::VISIBILITY_TIMEOUT.end()
        ),
    )?;
    let wait = in_range(
        input.wait_time_seconds,
        "WaitTimeSeconds",
        i64::from(*limits::WAIT_TIME_SECONDS.start()),
        i64::from(*limits::WAIT_TIME_SECONDS.end()),
        "Must be >= 0 and <= 20, if provided.",
    )?;
    if let Some(id) = &input.receive_request_attempt_id {
        message::validate_token("ReceiveRequestAttemptId", id)?;
    }
    Ok((max, visibility, wait))
}

/// Which system and message attributes the caller asked for.
struct Selection {
    /// The system attribute names asked for, deprecated AttributeNames included.
    system: Vec<String>,
    /// Whether `All` was among them.
    all_system: bool,
    /// The message attribute names (or prefixes ending in `.*`, or `All`) asked for.
    message: Vec<String>,
}

impl Selection {
    /// What `input` asks for, deprecated and current names merged.
    fn new(input: &ReceiveMessage) -> Self {
        let system: Vec<String> = input
            .attribute_names
            .iter()
            .chain(&input.message_system_attribute_names)
            .cloned()
            .collect();
        Selection {
            all_system: system.iter().any(|n| n == "All"),
            system,
            message: input.message_attribute_names.clone(),
        }
    }

    /// Whether the system attribute `name` was asked for.
    fn wants_system(&self, name: &str) -> bool {
        self.all_system || self.system.iter().any(|n| n == name)
    }

    /// Whether the message attribute `name` was asked for (by name, prefix or `All`).
    fn wants_message(&self, name: &str) -> bool {
        self.message.iter().any(|pattern| match pattern.as_str() {
            // All three mean every attribute [aws-recorded].
            "All" | ".*" | "*" => true,
            p => p
                .strip_suffix(".*")
                .map_or(p == name, |prefix| name.starts_with(prefix)),
        })
    }

    /// The wire form of one delivered message with the attributes asked for.
    fn render(&self, d: Delivered) -> OutMessage {
        let m = &d.message;
        let attributes = if self.system.is_empty() {
            BTreeMap::new()
        } else {
            m.system_attributes(d.sequence_number)
                .into_iter()
                .filter(|(name, _)| self.wants_system(name))
                .collect()
        };
        let chosen: Vec<_> = m
            .attributes()
            .into_iter()
            .flatten()
            .filter(|(name, _)| self.wants_message(name))
            .collect();
        let md5_of_message_attributes = md5::of_attributes(chosen.iter().copied());
        let message_attributes = chosen
            .into_iter()
            .map(|(n, v)| (n.clone(), WireAttribute::from_value(v)))
            .collect();
        OutMessage {
            message_id: message::id_text(&m.id),
            receipt_handle: d.receipt_handle,
            md5_of_body: md5::hex(&m.md5_of_body),
            attributes,
            md5_of_message_attributes,
            message_attributes,
            // The delivered copy is ours: hand its body over instead of copying it again.
            body: d.message.body.into(),
        }
    }
}
