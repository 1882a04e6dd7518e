//! A message as stored and its attributes; the send-time rules for bodies and attributes are
//! in [`super::message_rules`].

use std::collections::BTreeMap;
use std::sync::Arc;

use uuid::Uuid;

use crate::clock::Millis;

/// A message attribute's value (StringValue or BinaryValue).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttrData {
    /// A `String` or `Number` value.
    String(String),
    /// A `Binary` value, as bytes.
    Binary(Vec<u8>),
}

/// One message attribute: its DataType and value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttrValue {
    /// DataType: `String`, `Number` or `Binary`, with an optional `.label`.
    pub data_type: String,
    /// The value.
    pub data: AttrData,
}

/// Sorted by name in byte order, which is also the order the MD5 digest needs.
pub type MessageAttributes = BTreeMap<String, AttrValue>;

/// What a sender supplies; the engine adds identity and timing.
#[derive(Debug, Clone, Default)]
pub struct NewMessage {
    /// MessageBody, already checked.
    pub body: String,
    /// MessageAttributes.
    pub attributes: MessageAttributes,
    /// DelaySeconds as sent; the queue's when `None`, checked by the send.
    pub delay_seconds: Option<i64>,
    /// AWSTraceHeader, from the request's system attribute or its X-Amzn-Trace-Id.
    pub trace_header: Option<String>,
    /// MessageGroupId (FIFO, or fair queues on standard ones).
    pub group_id: Option<String>,
    /// MessageDeduplicationId (FIFO).
    pub deduplication_id: Option<String>,
    /// SenderId: the caller's principal id (the access key's, or anonymous).
    pub sender_id: Arc<str>,
}

/// Rarely-present parts, boxed so a plain message stays small.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extra {
    /// MessageAttributes.
    pub attributes: MessageAttributes,
    /// AWSTraceHeader.
    pub trace_header: Option<String>,
    /// MessageDeduplicationId.
    pub deduplication_id: Option<String>,
    /// DeadLetterQueueSourceArn: the queue a dead-lettered message came from.
    pub dead_letter_source_arn: Option<Arc<str>>,
}

/// A message as the queue holds it.
#[derive(Debug, Clone)]
pub struct Message {
    /// MessageId.
    pub id: Uuid,
    /// Body.
    pub body: Box<str>,
    /// Kept from the send so a receive does not digest the body again.
    pub md5_of_body: [u8; 16],
    /// What most messages lack, boxed: attributes, trace header, deduplication id, source.
    pub extra: Option<Box<Extra>>,
    /// MessageGroupId.
    pub group_id: Option<Arc<str>>,
    /// SenderId.
    pub sender_id: Arc<str>,
    /// SentTimestamp, epoch milliseconds.
    pub sent_at: Millis,
    /// Retention counts from here; a dead-lettered standard message keeps its source's value.
    pub enqueued_at: Millis,
    /// ApproximateFirstReceiveTimestamp, once received.
    pub first_received_at: Option<Millis>,
    /// When it can next be received: after its delay or visibility timeout.
    pub visible_at: Millis,
    /// ApproximateReceiveCount: receives so far.
    pub receive_count: u32,
    /// Milliseconds from `first_received_at` to the latest receive: a u32 in the padding
    /// after `receive_count` keeps Message at its size (retention caps it at 14 days).
    pub last_receive_offset: u32,
    /// FIFO sequence number (0 on standard queues).
    pub sequence: u64,
}

impl Message {
    /// Every system attribute the message has, as SQS names and formats them (ReceiveMessage
    /// and the trigger event both read them here); `sequence_number` on FIFO queues.
    pub fn system_attributes(
        &self,
        sequence_number: Option<String>,
    ) -> Vec<(&'static str, String)> {
        let m = self;
        let mut out = vec![
            ("SenderId", m.sender_id.to_string()),
            ("SentTimestamp", m.sent_at.to_string()),
            ("ApproximateReceiveCount", m.receive_count.to_string()),
            (
                "ApproximateFirstReceiveTimestamp",
                m.first_received_at.unwrap_or(m.sent_at).to_string(),
            ),
        ];
        let optional = [
            ("AWSTraceHeader", m.trace_header().map(str::to_owned)),
            ("MessageGroupId", m.group_id.as_deref().map(str::to_owned)),
            (
                "MessageDeduplicationId",
                sequence_number
                    .is_some()
                    .then(|| m.deduplication_id().map(str::to_owned))
                    .flatten(),
            ),
            ("SequenceNumber", sequence_number),
            (
                "DeadLetterQueueSourceArn",
                m.dead_letter_source_arn().map(str::to_owned),
            ),
        ];
        out.extend(optional.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))));
        out
    }

    /// MessageAttributes, if the sender gave any.
    pub fn attributes(&self) -> Option<&MessageAttributes> {
        self.extra.as_ref().map(|e| &e.attributes)
    }

    /// The AWSTraceHeader system attribute, if sent.
    pub fn trace_header(&self) -> Option<&str> {
        self.extra.as_ref()?.trace_header.as_deref()
    }

    /// MessageDeduplicationId (FIFO): the sender's or, with content-based deduplication, the body's
    /// SHA-256.
    pub fn deduplication_id(&self) -> Option<&str> {
        self.extra.as_ref()?.deduplication_id.as_deref()
    }

    /// DeadLetterQueueSourceArn: set on a message moved to this queue by a redrive policy.
    pub fn dead_letter_source_arn(&self) -> Option<&str> {
        self.extra.as_ref()?.dead_letter_source_arn.as_deref()
    }

    /// When the latest receive happened, for the observed processing time.
    pub fn last_received_at(&self) -> Option<Millis> {
        self.first_received_at
            .map(|first| first.saturating_add(Millis::from(self.last_receive_offset)))
    }

    /// Records a receive at `now`.
    pub fn mark_received(&mut self, now: Millis) {
        self.receive_count += 1;
        let first = *self.first_received_at.get_or_insert(now);
        self.last_receive_offset = u32::try_from(now.saturating_sub(first)).unwrap_or(u32::MAX);
    }

    /// Whether a receive has hidden the message until after `now`; a delayed message never received
    /// is not in flight.
    pub fn in_flight(&self, now: Millis) -> bool {
        self.receive_count > 0 && self.visible_at > now
    }
}

/// A message or request id in its usual text form, written without `fmt` (it is on every
/// request's path).
pub fn id_text(id: &Uuid) -> String {
    crate::http::uuid_text(id)
}

pub use super::message_rules::{
    check_size, no_deduplication_id, size_of, valid_chars, validate_attributes, validate_contents,
    validate_token,
};
