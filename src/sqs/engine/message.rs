//! A message as stored, its attributes, and the send-time rules for bodies and attributes.

use std::collections::BTreeMap;
use std::sync::Arc;

use uuid::Uuid;

use crate::clock::Millis;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

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

/// SQS counts the body plus every attribute's name, type and value toward the size limit.
pub fn size_of(body: &str, attributes: &MessageAttributes) -> usize {
    body.len()
        + attributes
            .iter()
            .map(|(name, v)| {
                name.len()
                    + v.data_type.len()
                    + match &v.data {
                        AttrData::String(s) => s.len(),
                        AttrData::Binary(b) => b.len(),
                    }
            })
            .sum::<usize>()
}

/// The characters SQS accepts in a body or string attribute (XML 1.0's set).
pub fn valid_chars(text: &str) -> bool {
    // Most bodies are printable ASCII: check bytes first, decode characters only otherwise.
    if text.as_bytes().chunks(64).all(plain_ascii) {
        return true;
    }
    text.chars().all(|c| {
        matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
    })
}

/// Whether every byte is printable ASCII, tab, LF or CR. No early exit inside a chunk: the
/// loop is then one the compiler vectorises (about 1 instruction a byte instead of 9).
#[inline]
fn plain_ascii(chunk: &[u8]) -> bool {
    let mut bad = 0u8;
    for &b in chunk {
        let control = u8::from(b < 0x20) & u8::from(!matches!(b, b'\t' | b'\n' | b'\r'));
        bad |= control | u8::from(b >= 0x7f);
    }
    bad == 0
}

/// A body's own rules, checked before its size against the queue's limit ([`check_size`]).
pub fn validate_contents(body: &str) -> SqsResult<()> {
    if body.is_empty() {
        return Err(SqsError::missing("MessageBody"));
    }
    if !valid_chars(body) {
        return Err(SqsError::of(ErrorKind::InvalidMessageContents));
    }
    Ok(())
}

/// `size` is [`size_of`] the body and its attributes.
pub fn check_size(size: usize, max_size: usize) -> SqsResult<()> {
    if size > max_size {
        return Err(SqsError::invalid_parameter(format!(
            "One or more parameters are invalid. Reason: Message must be shorter than {max_size} bytes."
        )));
    }
    Ok(())
}

pub use crate::sqs::engine::limits::MESSAGE_ATTRIBUTES as MAX_ATTRIBUTES;

/// SQS's rules for MessageAttributes: at most ten, each valid by name, type and value.
pub fn validate_attributes(attributes: &MessageAttributes) -> SqsResult<()> {
    if attributes.len() > MAX_ATTRIBUTES {
        return Err(SqsError::invalid_parameter(format!(
            "Number of message attributes [{}] exceeds the allowed maximum [{MAX_ATTRIBUTES}].",
            attributes.len()
        )));
    }
    for (name, value) in attributes {
        validate_attribute(name, value)?;
    }
    Ok(())
}

/// One attribute's rules: name characters and reserved prefixes, DataType, and a non-empty value of
/// that type.
fn validate_attribute(name: &str, value: &AttrValue) -> SqsResult<()> {
    let lower = name.to_ascii_lowercase();
    // Letters and digits of any script: SQS accepts `attr.1øßä` [aws-recorded].
    let name_ok = !name.is_empty()
        && name.chars().count() <= 256
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !name.starts_with('.')
        && !name.ends_with('.')
        && !name.contains("..");
    if !name_ok {
        return Err(SqsError::invalid_parameter(format!(
            "Message (user) attribute name '{name}' is invalid. Names can contain alphanumeric characters, hyphens, underscores and periods, must not start or end with a period or have consecutive periods, and may be up to 256 characters long."
        )));
    }
    if lower.starts_with("aws.") || lower.starts_with("amazon.") {
        return Err(SqsError::invalid_parameter(format!(
            "Message (user) attribute name '{name}' is invalid. Names must not start with AWS. or Amazon. (or any casing variant)."
        )));
    }
    let data_type = value.data_type.as_str();
    let base = data_type.split('.').next().unwrap_or_default();
    let label_ok = data_type.len() <= 256
        && data_type[base.len()..]
            .strip_prefix('.')
            .is_none_or(|label| !label.is_empty());
    if !matches!(base, "String" | "Number" | "Binary") || !label_ok {
        return Err(SqsError::invalid_parameter(format!(
            "The type of message (user) attribute '{name}' is invalid. You must use only the following supported type prefixes: Binary, Number, String."
        )));
    }
    match (&value.data, base) {
        (AttrData::String(s), "String" | "Number") if !s.is_empty() => {
            // A bad value is a bad parameter, unlike a bad body [aws-recorded: U+0008 and
            // U+000B give InvalidParameterValue]; the wording is ours (unverified).
            if !valid_chars(s) {
                return Err(SqsError::invalid_parameter(format!(
                    "Message (user) attribute '{name}' contains invalid characters. {}",
                    ErrorKind::InvalidMessageContents.default_message()
                )));
            }
            if base == "Number" && !is_number(s) {
                return Err(SqsError::invalid_parameter(format!(
                    "Can't cast the value of message (user) attribute '{name}' to a number."
                )));
            }
            Ok(())
        }
        (AttrData::Binary(b), "Binary") if !b.is_empty() => Ok(()),
        _ => {
            let kind = if base == "Binary" { "Binary" } else { "String" };
            Err(SqsError::invalid_parameter(format!(
                "Message (user) attribute '{name}' must contain a non-empty value of type '{kind}'."
            )))
        }
    }
}

/// SQS numbers: decimal, optional sign and exponent, at most 38 significant digits.
fn is_number(text: &str) -> bool {
    let Ok(value) = text.trim().parse::<f64>() else {
        return false;
    };
    let digits = text.bytes().take_while(|b| *b != b'e' && *b != b'E');
    let significant = digits.filter(u8::is_ascii_digit).count();
    value.is_finite() && significant <= 38 && !text.trim().eq_ignore_ascii_case("nan")
}

/// MessageGroupId, MessageDeduplicationId and ReceiveRequestAttemptId share one rule.
pub fn validate_token(parameter: &str, value: &str) -> SqsResult<()> {
    let ok = (1..=128).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_graphic());
    if ok {
        Ok(())
    } else {
        Err(SqsError::invalid_value(
            value,
            parameter,
            &format!("{parameter} can only include alphanumeric and punctuation characters. 1 to 128 in length."),
        ))
    }
}

/// A FIFO send without MessageDeduplicationId to a queue without content-based deduplication.
pub fn no_deduplication_id() -> SqsError {
    SqsError::invalid_parameter(
        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
    )
}

#[cfg(test)]
#[path = "message_tests.rs"]
mod tests;
