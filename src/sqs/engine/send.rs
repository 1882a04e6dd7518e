//! Sending: the body, attribute and FIFO rules a message must pass, deduplication, and
//! filing it in the store.

use std::sync::Arc;

use uuid::Uuid;

use crate::clock::Millis;
use crate::sqs::engine::fifo::{self, Original};
use crate::sqs::engine::limits;
use crate::sqs::engine::md5;
use crate::sqs::engine::message::{self, Extra, Message, NewMessage};
use crate::sqs::engine::queue::{Queue, QueueState, Sent};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

/// What a send can check and compute without its queue: done before the queue's lock is
/// taken, so that the lock (which every sender and receiver of the queue contends for) is
/// held for the queue's own rules and the insert only. A lock holder descheduled on a busy
/// machine stalls every other request to that queue.
pub(crate) struct Prepared {
    /// The message as the request gave it, body and attributes moved out.
    msg: NewMessage,
    /// The body, in the form the store keeps.
    body: Box<str>,
    /// Body plus attributes, as MaximumMessageSize counts them.
    size: usize,
    /// The MessageId, made before the lock.
    id: Uuid,
    /// The body's MD5 digest, for MD5OfMessageBody.
    digest: [u8; 16],
    /// MD5OfMessageAttributes, when there are any.
    md5_of_attributes: Option<String>,
    /// MD5OfMessageSystemAttributes, when there is a trace header.
    md5_of_system_attributes: Option<String>,
}

impl Prepared {
    /// Checks and digests a message before the queue's lock is taken: attributes, body, size, MD5s
    /// and id.
    pub(crate) fn new(mut msg: NewMessage) -> SqsResult<Self> {
        message::validate_attributes(&msg.attributes)?;
        message::validate_contents(&msg.body)?;
        let size = message::size_of(&msg.body, &msg.attributes);
        let digest = md5::digest(&msg.body);
        let md5_of_attributes = md5::of_attributes(&msg.attributes);
        let md5_of_system_attributes = msg
            .trace_header
            .as_ref()
            .and_then(|t| md5::of_attributes(&system_attributes(t)));
        let body = std::mem::take(&mut msg.body).into_boxed_str();
        Ok(Prepared {
            msg,
            body,
            size,
            id: Uuid::new_v4(),
            digest,
            md5_of_attributes,
            md5_of_system_attributes,
        })
    }
}

impl QueueState {
    /// Stores a prepared message: size against MaximumMessageSize, delay, FIFO deduplication and
    /// sequence number.
    pub(crate) fn send(&mut self, q: &Queue, prepared: Prepared, now: Millis) -> SqsResult<Sent> {
        let Prepared {
            mut msg,
            body,
            size,
            id,
            digest,
            md5_of_attributes,
            md5_of_system_attributes,
        } = prepared;
        // In SQS's order: the size limit is the queue's, so it is checked here, after the
        // body's own rules and before the trace header's.
        message::check_size(size, self.attributes().maximum_message_size as usize)?;
        check_trace_header(&msg)?;
        let delay = self.delay_for(q, &msg)?;
        let dedup_id = self.dedup_id_for(q, &mut msg, &body)?;
        let mut sent = Sent {
            message_id: Uuid::nil(),
            md5_of_body: md5::hex(&digest),
            md5_of_attributes,
            md5_of_system_attributes,
            sequence_number: None,
        };
        if let Some(id) = &dedup_id {
            let group = msg.group_id.as_deref().unwrap_or_default();
            if let Some(original) = self.ledger().duplicate_of(group, id, q.dedup_scope, now) {
                sent.message_id = original.id;
                sent.sequence_number = Some(fifo::sequence_number(original.sequence));
                return Ok(sent);
            }
        }
        self.stats.sent += 1;
        self.stats.sent_bytes += body.len() as u64;
        let sender_id = self.intern_sender(msg.sender_id);
        let extra = extra_of(msg.attributes, msg.trace_header, msg.deduplication_id);
        let group_id: Option<Arc<str>> = msg.group_id.map(Arc::from);
        let (_, sequence) = self.ledger().put(
            Message {
                id,
                body,
                md5_of_body: digest,
                extra,
                group_id: group_id.clone(),
                sender_id,
                sent_at: now,
                enqueued_at: now,
                first_received_at: None,
                visible_at: now.saturating_add(Millis::from(delay) * 1000),
                receive_count: 0,
                last_receive_offset: 0,
                sequence: 0,
            },
            now,
        );
        if let Some(dedup_id) = dedup_id {
            let group = group_id.as_deref().unwrap_or_default();
            self.ledger()
                .remember(group, dedup_id, Original { id, sequence }, now);
        }
        sent.message_id = id;
        sent.sequence_number = q.fifo.then(|| fifo::sequence_number(sequence));
        Ok(sent)
    }

    /// A FIFO send's deduplication id (explicit or content-based); a standard send has none.
    #[inline]
    fn dedup_id_for(
        &self,
        q: &Queue,
        msg: &mut NewMessage,
        body: &str,
    ) -> SqsResult<Option<String>> {
        if !q.fifo {
            check_standard_ids(msg)?;
            return Ok(None);
        }
        let id = self.dedup_id(msg, body)?;
        // Content-based ids are returned as MessageDeduplicationId like explicit ones.
        msg.deduplication_id = Some(id.clone());
        Ok(Some(id))
    }

    /// One shared copy of each SenderId; past 10,000 senders new ones are not kept, so memory stays
    /// bounded.
    fn intern_sender(&mut self, sender: Arc<str>) -> Arc<str> {
        const MAX_SENDERS: usize = 10_000;
        if let Some(known) = self.senders.get(&*sender) {
            return known.clone();
        }
        if self.senders.len() < MAX_SENDERS {
            self.senders.insert(sender.clone());
        }
        sender
    }

    /// The message's delay in seconds: its own DelaySeconds (standard queues only; FIFO accepts
    /// only 0) or the queue's.
    fn delay_for(&self, q: &Queue, msg: &NewMessage) -> SqsResult<u32> {
        match msg.delay_seconds {
            Some(d) if !u32::try_from(d).is_ok_and(|d| limits::DELAY_SECONDS.contains(&d)) => {
                Err(SqsError::invalid_value(
                    d,
                    "DelaySeconds",
                    &format!(
                        "DelaySeconds must be >= 0 and <= {}.",
                        limits::DELAY_SECONDS.end()
                    ),
                ))
            }
            Some(d) if q.fifo && d != 0 => Err(SqsError::invalid_value(
                d,
                "DelaySeconds",
                "The request include parameter that is not valid for this queue type.",
            )),
            Some(d) if !q.fifo => Ok(d as u32),
            _ => Ok(self.attributes().delay_seconds),
        }
    }

    /// FIFO sends need a group, and a deduplication id unless content-based dedup is on.
    fn dedup_id(&self, msg: &NewMessage, body: &str) -> SqsResult<String> {
        let Some(group) = &msg.group_id else {
            return Err(SqsError::missing("MessageGroupId"));
        };
        message::validate_token("MessageGroupId", group)?;
        let id = match &msg.deduplication_id {
            Some(id) => {
                message::validate_token("MessageDeduplicationId", id)?;
                id.clone()
            }
            None if self.attributes().content_based_deduplication => {
                fifo::content_deduplication_id(body)
            }
            None => return Err(message::no_deduplication_id()),
        };
        Ok(id)
    }
}

/// The system-attribute map SQS digests for MD5OfMessageSystemAttributes.
fn system_attributes(trace: &str) -> message::MessageAttributes {
    let mut map = message::MessageAttributes::new();
    map.insert(
        "AWSTraceHeader".into(),
        message::AttrValue {
            data_type: "String".into(),
            data: message::AttrData::String(trace.into()),
        },
    );
    map
}

/// AWSTraceHeader must hold only characters SQS accepts in a body.
#[inline]
fn check_trace_header(msg: &NewMessage) -> SqsResult<()> {
    match &msg.trace_header {
        Some(trace) if !message::valid_chars(trace) => {
            Err(SqsError::of(ErrorKind::InvalidMessageContents))
        }
        _ => Ok(()),
    }
}

/// A standard queue has no deduplication and takes a group id only as a well-formed token.
#[inline]
fn check_standard_ids(msg: &NewMessage) -> SqsResult<()> {
    if let Some(group) = &msg.group_id {
        message::validate_token("MessageGroupId", group)?;
    }
    if let Some(id) = &msg.deduplication_id {
        return Err(SqsError::invalid_value(
            id,
            "MessageDeduplicationId",
            "The request include parameter that is not valid for this queue type.",
        ));
    }
    Ok(())
}

/// Boxes the rarely-present parts only when one is there, so a plain message stays small.
#[inline]
fn extra_of(
    attributes: message::MessageAttributes,
    trace_header: Option<String>,
    deduplication_id: Option<String>,
) -> Option<Box<Extra>> {
    (!attributes.is_empty() || trace_header.is_some() || deduplication_id.is_some()).then(|| {
        Box::new(Extra {
            attributes,
            trace_header,
            deduplication_id,
            dead_letter_source_arn: None,
        })
    })
}
