//! SendMessage and SendMessageBatch, and the wire form of message attributes.

use std::collections::BTreeMap;
use std::sync::Arc;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use super::batch::{self, Entry};
use super::Sqs;
use crate::clock::Millis;
use crate::sqs::engine::message::{self, AttrData, AttrValue, MessageAttributes, NewMessage};
use crate::sqs::engine::queue::{Queue, Sent};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::Context;

/// A message attribute as it travels: binary values are base64.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct WireAttribute {
    /// DataType: `String`, `Number` or `Binary`, with an optional `.label`.
    pub data_type: String,
    /// StringValue: for `String` and `Number` types.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub string_value: Option<String>,
    /// BinaryValue: base64, for `Binary` types.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary_value: Option<String>,
}

impl WireAttribute {
    /// The wire form of an engine attribute value (binary as base64).
    pub fn from_value(v: &AttrValue) -> Self {
        let (string_value, binary_value) = match &v.data {
            AttrData::String(s) => (Some(s.clone()), None),
            AttrData::Binary(b) => (None, Some(STANDARD.encode(b))),
        };
        WireAttribute {
            data_type: v.data_type.clone(),
            string_value,
            binary_value,
        }
    }
}

/// Decodes the wire attributes, refusing binary values that are not base64.
fn attributes(wire: BTreeMap<String, WireAttribute>) -> SqsResult<MessageAttributes> {
    // Most messages have none, and an empty map's consuming iterator still costs its set-up.
    if wire.is_empty() {
        return Ok(MessageAttributes::default());
    }
    wire.into_iter()
        .map(|(name, w)| {
            let data = if w.data_type.starts_with("Binary") {
                let text = w.binary_value.unwrap_or_default();
                AttrData::Binary(STANDARD.decode(text.trim()).map_err(|_| {
                    SqsError::invalid_parameter(format!(
                        "The message attribute '{name}' has an invalid binary value: it must be base64-encoded."
                    ))
                })?)
            } else {
                AttrData::String(w.string_value.unwrap_or_default())
            };
            Ok((
                name,
                AttrValue {
                    data_type: w.data_type,
                    data,
                },
            ))
        })
        .collect()
}

/// Only `AWSTraceHeader` exists as a message system attribute.
fn trace_header(system: BTreeMap<String, WireAttribute>) -> SqsResult<Option<String>> {
    if system.is_empty() {
        return Ok(None);
    }
    let mut trace = None;
    for (name, value) in system {
        if name != "AWSTraceHeader" {
            return Err(SqsError::invalid_parameter(format!(
                "Message system attribute name '{name}' is invalid."
            )));
        }
        if value.data_type != "String" || value.string_value.as_deref().is_none_or(str::is_empty) {
            return Err(SqsError::invalid_parameter(
                "Message system attribute 'AWSTraceHeader' must contain a non-empty value of type 'String'.",
            ));
        }
        trace = value.string_value;
    }
    Ok(trace)
}

/// SendMessage's input and a SendMessageBatch entry are one shape (the queue URL on the
/// former, the `Id` on the latter); one flat type, because serde's `flatten` buffers every
/// member and was a measurable part of each send.
pub type SendMessage = MessageFields;
/// One SendMessageBatchRequestEntry.
pub type SendEntry = MessageFields;

/// The members of SendMessage and of a SendMessageBatch entry.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct MessageFields {
    /// Empty in batch entries; an empty QueueUrl on SendMessage is a missing parameter.
    #[serde(default)]
    pub queue_url: String,
    /// Empty outside batches.
    #[serde(default)]
    pub id: String,
    /// MessageBody: 1 byte to the queue's MaximumMessageSize, of XML-safe characters.
    pub message_body: String,
    /// DelaySeconds: 0 to 900 seconds hidden after sending; the queue's when absent.
    pub delay_seconds: Option<i64>,
    /// MessageAttributes: up to 10, name to typed value.
    #[serde(default)]
    pub message_attributes: BTreeMap<String, WireAttribute>,
    /// MessageSystemAttributes: only `AWSTraceHeader`.
    #[serde(default)]
    pub message_system_attributes: BTreeMap<String, WireAttribute>,
    /// MessageDeduplicationId: FIFO only; without content-based deduplication, required.
    pub message_deduplication_id: Option<String>,
    /// MessageGroupId: FIFO only, required there; the order group.
    pub message_group_id: Option<String>,
}

impl MessageFields {
    /// The engine's message, with the caller as sender and the trace header of the request.
    fn into_new(self, ctx: &Context) -> SqsResult<NewMessage> {
        Ok(NewMessage {
            body: self.message_body,
            attributes: attributes(self.message_attributes)?,
            delay_seconds: self.delay_seconds,
            // The header counts only when the request names no AWSTraceHeader itself.
            trace_header: trace_header(self.message_system_attributes)?
                .or_else(|| ctx.trace_header.clone()),
            group_id: self.message_group_id,
            deduplication_id: self.message_deduplication_id,
            sender_id: ctx.sender_id.clone(),
        })
    }
}

/// SendMessage's answer, and one SendMessageBatchResultEntry.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct SendOutput {
    /// The batch entry's `Id`; absent on SendMessage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// MessageId: a fresh UUID, or the first one's for a deduplicated FIFO send.
    pub message_id: String,
    /// `MD5OfMessageBody`: hex MD5 of the body.
    #[serde(rename = "MD5OfMessageBody")]
    pub md5_of_message_body: String,
    /// `MD5OfMessageAttributes`: when any were sent.
    #[serde(
        rename = "MD5OfMessageAttributes",
        skip_serializing_if = "Option::is_none"
    )]
    pub md5_of_message_attributes: Option<String>,
    /// `MD5OfMessageSystemAttributes`: when AWSTraceHeader was sent.
    #[serde(
        rename = "MD5OfMessageSystemAttributes",
        skip_serializing_if = "Option::is_none"
    )]
    pub md5_of_message_system_attributes: Option<String>,
    /// SequenceNumber: FIFO only, increasing per queue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_number: Option<String>,
}

impl SendOutput {
    /// The answer for what the engine sent (`id` in a batch).
    fn new(id: Option<String>, sent: Sent) -> Self {
        SendOutput {
            id,
            message_id: message::id_text(&sent.message_id),
            md5_of_message_body: sent.md5_of_body,
            md5_of_message_attributes: sent.md5_of_attributes,
            md5_of_message_system_attributes: sent.md5_of_system_attributes,
            sequence_number: sent.sequence_number,
        }
    }
}

/// SendMessage: checks the message against the queue, then sends it.
pub fn send_message(
    input: SendMessage,
    queue: Arc<Queue>,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<SendOutput> {
    let sent = queue.send(input.into_new(ctx)?, sqs.now())?;
    Ok(SendOutput::new(None, sent))
}

/// SendMessageBatch's input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SendMessageBatch {
    /// QueueUrl: the queue every entry goes to.
    pub queue_url: String,
    /// Absent means empty: SDK v1's Query serializer sends no parameter for an empty list, and
    /// SQS answered it EmptyBatchRequest (quoted in localstack#1658, openzipkin/zipkin-aws#167).
    #[serde(default, deserialize_with = "batch::entries")]
    pub entries: Vec<SendEntry>,
}

impl Entry for MessageFields {
    fn id(&self) -> &str {
        &self.id
    }
}

/// SendMessageBatch: each entry as SendMessage, within the batch's 1 MiB total.
pub fn send_message_batch(
    input: SendMessageBatch,
    queue: Arc<Queue>,
    sqs: &Sqs,
    ctx: &Context,
) -> SqsResult<batch::Output<SendOutput>> {
    batch::check(&input.entries, "SendMessageBatchRequestEntry")?;
    let now = sqs.now();
    if queue.fifo {
        check_fifo_entries(&input.entries, &queue, now)?;
    }
    let mut total = 0;
    let mut prepared = Vec::with_capacity(input.entries.len());
    for mut entry in input.entries {
        let id = std::mem::take(&mut entry.id);
        let new = entry.into_new(ctx);
        if let Ok(m) = &new {
            total += message::size_of(&m.body, &m.attributes);
        }
        prepared.push(Prepared { id, new: Some(new) });
    }
    if total > batch::MAX_BATCH_BYTES {
        return Err(SqsError::new(
            ErrorKind::BatchRequestTooLong,
            format!(
                "Batch requests cannot be longer than {} bytes. You have sent {total} bytes.",
                batch::MAX_BATCH_BYTES
            ),
        ));
    }
    Ok(batch::run(prepared, |p| {
        // Each entry is run once, so its message is always there to take.
        let new = p
            .new
            .take()
            .unwrap_or_else(|| Err(SqsError::of(ErrorKind::InternalError)));
        let sent = queue.send(new?, now)?;
        Ok(SendOutput::new(Some(std::mem::take(&mut p.id)), sent))
    }))
}

/// On a FIFO queue an entry without its group, or without a deduplication id the queue
/// cannot derive, fails the whole batch, not the entry [aws-recorded].
fn check_fifo_entries(entries: &[SendEntry], queue: &Queue, now: Millis) -> SqsResult<()> {
    let content_based = queue
        .lock_settled(now)
        .attributes()
        .content_based_deduplication;
    for entry in entries {
        if entry.message_group_id.is_none() {
            return Err(SqsError::invalid_parameter(
                "The request must contain the parameter MessageGroupId.",
            ));
        }
        if entry.message_deduplication_id.is_none() && !content_based {
            return Err(message::no_deduplication_id());
        }
    }
    Ok(())
}

/// One batch entry decoded ahead of sending.
struct Prepared {
    /// The entry's `Id`.
    id: String,
    /// The decoded message, or why the entry is refused; taken when the entry is run.
    new: Option<SqsResult<NewMessage>>,
}

impl Entry for Prepared {
    fn id(&self) -> &str {
        &self.id
    }
}
