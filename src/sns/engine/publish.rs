//! Publish: SNS's checks on a message, FIFO deduplication and sequence numbers, and the
//! deliveries one publish makes (one per matching subscription), as plain data.

use std::collections::BTreeMap;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::counts::FilteredOut;
use super::delivery_policy::RetryPolicy;
use super::fanout::{Fanout, Stamped};
use super::publish_checks::{check_attribute, check_fifo};
use super::topics::FirstPublish;
use super::{Sns, Subscription, Topic};
use crate::clock::Millis;
use crate::patterns::{MessageAttribute, Scope};
use crate::sns::error::{SnsError, SnsResult};
use crate::sqs::engine::attributes::DeduplicationScope;

/// SNS's message size limit: the message plus every attribute's name, type and value.
pub const MAX_MESSAGE_BYTES: usize = 262_144;

/// A FIFO topic's sequence numbers: 20 digits as AWS's, counted from a base of their own,
/// so that a queue subscribed to the topic visibly numbers its messages itself (on AWS
/// the envelope's SequenceNumber is the topic's and the SQS attribute the queue's).
const TOPIC_SEQUENCE_BASE: u128 = 10_000_000_000_000_000_000;

/// The topic's `n`th SequenceNumber.
fn sequence_number(n: u64) -> String {
    (TOPIC_SEQUENCE_BASE + u128::from(n)).to_string()
}

/// A message attribute's value: text (String, Number, String.Array) or bytes (Binary).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttrData {
    /// A `String` or `Number` value.
    Text(String),
    /// A `Binary` value, decoded from base64.
    Binary(Vec<u8>),
}

/// One message attribute of a publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    /// `DataType`: `String`, `Number`, `Binary` or `String.Array`, with an optional `.label`.
    pub data_type: String,
    /// The value.
    pub data: AttrData,
}

impl Attribute {
    /// The value as the JSON envelope writes it (binary as base64).
    pub fn envelope_value(&self) -> String {
        match &self.data {
            AttrData::Text(t) => t.clone(),
            AttrData::Binary(b) => STANDARD.encode(b),
        }
    }

    /// Its bytes as SNS's size limit counts them: name aside, type plus value.
    fn size(&self) -> usize {
        self.data_type.len()
            + match &self.data {
                AttrData::Text(t) => t.len(),
                AttrData::Binary(b) => b.len(),
            }
    }
}

/// One message to publish: Publish's input or one PublishBatch entry.
#[derive(Debug, Clone, Default)]
pub struct Publication {
    /// `Message`: the text, or with `json_structure` a JSON object of per-protocol texts.
    pub message: String,
    /// `Subject`: for email and the JSON envelope.
    pub subject: Option<String>,
    /// `MessageStructure=json`: the message is a JSON object of per-protocol messages.
    pub json_structure: bool,
    /// `MessageAttributes`, by name.
    pub attributes: BTreeMap<String, Attribute>,
    /// `MessageGroupId`: FIFO topics only, required there.
    pub group_id: Option<String>,
    /// `MessageDeduplicationId`: FIFO topics only, unless content-based deduplication is on.
    pub deduplication_id: Option<String>,
}

/// What one delivery carries: into a queue, to an HTTP/S endpoint, or into the records.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// The subscription delivered to.
    pub subscription_arn: String,
    /// The endpoint for `sqs` (the queue's ARN); see `endpoint` for every protocol.
    pub queue_arn: String,
    /// The subscription's protocol.
    pub protocol: String,
    /// The subscription's endpoint: a queue ARN, a URL, an address, a number or an ARN.
    pub endpoint: String,
    /// The publish's message id.
    pub message_id: String,
    /// The topic published to.
    pub topic_arn: String,
    /// RawMessageDelivery: `body` is the bare message.
    pub raw: bool,
    /// For HTTP/S: the effective retry policy and Content-Type.
    pub retry: RetryPolicy,
    /// The HTTP `Content-Type` for http/s deliveries.
    pub content_type: String,
    /// The subscription's dead-letter queue, from its RedrivePolicy.
    pub dead_letter_arn: Option<String>,
    /// What the endpoint receives: the JSON envelope, or the bare message when raw (then
    /// shared by every delivery of the same text).
    pub body: std::sync::Arc<str>,
    /// SQS message attributes: the published ones for raw delivery, none otherwise.
    pub attributes: BTreeMap<String, Attribute>,
    /// The MessageGroupId published: a FIFO queue's group, and a standard topic's group
    /// reaches a standard queue too (its fair-queue tenant, as SQS carries it).
    pub group_id: Option<String>,
    /// Whether the topic is FIFO: its group does not make a standard queue's message a
    /// fair queue's \[unverified\].
    pub fifo_topic: bool,
    /// The publish's X-Ray trace header (`X-Amzn-Trace-Id`), the SQS message's
    /// `AWSTraceHeader`; set by the caller, which has the request.
    pub trace_header: Option<String>,
    /// The FIFO deduplication id, for a FIFO queue.
    pub deduplication_id: Option<String>,
}

/// Publish's answer.
#[derive(Debug)]
pub struct Published {
    /// `MessageId`.
    pub message_id: String,
    /// `SequenceNumber`, on FIFO topics.
    pub sequence_number: Option<String>,
    /// The deliveries still to make, a chunk at a time; none for a FIFO duplicate, which SNS
    /// accepts and does not deliver again.
    pub fanout: Fanout,
}

impl Publication {
    /// SNS's checks that need no topic, in the order SNS reports them [unverified order].
    pub fn validate(&self) -> SnsResult<()> {
        if self.message.is_empty() {
            return Err(SnsError::invalid("Empty message"));
        }
        if let Some(subject) = &self.subject {
            if subject.is_empty()
                || subject.chars().count() >= 100
                || subject.chars().any(char::is_control)
            {
                return Err(SnsError::invalid("Subject"));
            }
        }
        for (name, attr) in &self.attributes {
            check_attribute(name, attr)?;
        }
        if self.size() > MAX_MESSAGE_BYTES {
            return Err(SnsError::invalid("Message too long"));
        }
        if self.json_structure {
            self.message_for_sqs()?;
        }
        Ok(())
    }

    /// The size SNS's 256 KiB limit counts: the message plus its attributes.
    pub fn size(&self) -> usize {
        self.message.len()
            + self
                .attributes
                .iter()
                .map(|(n, a)| n.len() + a.size())
                .sum::<usize>()
    }

    /// The message an `sqs` subscription receives: with MessageStructure `json`, the
    /// object's `sqs` key, else its `default` (which SNS requires).
    pub fn message_for_sqs(&self) -> SnsResult<String> {
        self.message_for("sqs")
    }

    /// The message a subscription of `protocol` receives: with MessageStructure `json`,
    /// the object's key for the protocol, else its `default`.
    pub fn message_for(&self, protocol: &str) -> SnsResult<String> {
        if !self.json_structure {
            return Ok(self.message.clone());
        }
        let doc: serde_json::Value = serde_json::from_str(&self.message).map_err(|_| {
            SnsError::invalid("Message Structure - JSON message body failed to parse")
        })?;
        let text = |key: &str| doc.get(key).and_then(serde_json::Value::as_str);
        let default = text("default").ok_or_else(|| {
            SnsError::invalid("Message Structure - No default entry in JSON message body")
        })?;
        Ok(text(protocol).unwrap_or(default).to_owned())
    }

    /// Whether the subscription's filter policy (if any) admits the message.
    fn matches(&self, sub: &Subscription, message: &str) -> bool {
        let Some(filter) = &sub.filter else {
            return true;
        };
        match sub.scope {
            Scope::MessageBody => filter.matches_body(message),
            Scope::MessageAttributes => {
                filter.matches_attributes(self.attributes.iter().map(|(name, a)| {
                    let value = match &a.data {
                        AttrData::Text(t) => t.as_str(),
                        AttrData::Binary(_) => "",
                    };
                    (
                        name.as_str(),
                        MessageAttribute {
                            data_type: &a.data_type,
                            value,
                        },
                    )
                }))
            }
        }
    }
}

/// A message's identity on its topic: a new one, or the first of a FIFO duplicate.
enum Stamp {
    /// The first publish of its deduplication id.
    New(Stamped),
    /// A repeat within the 5-minute window: the first publish's answer, not delivered again.
    Duplicate(Box<Published>),
}

impl Topic {
    /// Gives the message its id and, on a FIFO topic, its sequence number, unless its
    /// deduplication id was seen within the window.
    fn stamp(&mut self, p: &Publication, now: Millis) -> SnsResult<Stamp> {
        let dedup = check_fifo(self, p)?;
        // Topic-wide, over the five minutes SQS's window lasts too (SNS developer guide,
        // "Message deduplication").
        let scope = DeduplicationScope::Queue;
        if let Some(first) = dedup
            .as_ref()
            .and_then(|d| self.dedup.check("", d, scope, now))
        {
            return Ok(Stamp::Duplicate(Box::new(Published {
                message_id: first.message_id,
                sequence_number: Some(first.sequence_number),
                fanout: Fanout::default(),
            })));
        }
        let message_id = uuid::Uuid::new_v4().to_string();
        let sequence_number = self.fifo.then(|| {
            self.sequence += 1;
            sequence_number(self.sequence)
        });
        if let (Some(d), Some(seq)) = (&dedup, &sequence_number) {
            let first = FirstPublish {
                message_id: message_id.clone(),
                sequence_number: seq.clone(),
            };
            self.dedup.record("", d.clone(), first, now);
        }
        Ok(Stamp::New(Stamped {
            message_id,
            sequence_number,
            deduplication_id: dedup,
        }))
    }
}

impl Sns {
    /// The filter reads the message sqs would get (a body-scope policy on a `json` structure
    /// message reads its sqs text) [unverified for the other protocols]; an unconfirmed
    /// subscription receives nothing.
    fn matching(
        &self,
        state: &super::State,
        topic_arn: &str,
        p: &Publication,
        sqs_message: &str,
    ) -> Vec<Subscription> {
        let pass = |s: &&Subscription| {
            let pass = p.matches(s, sqs_message);
            if !pass {
                self.count_filtered_out(&s.arn, FilteredOut::of(p, s, sqs_message));
            }
            pass
        };
        state
            .subscriptions_of(topic_arn)
            .filter(|s| !s.confirmation.pending)
            .filter(pass)
            .cloned()
            .collect()
    }

    /// Publishes one checked message to a topic: its id, its FIFO sequence number, and the
    /// deliveries to every subscription whose filter policy matches, still to be made.
    pub fn publish(&self, topic_arn: &str, p: &Publication, now: Millis) -> SnsResult<Published> {
        p.validate()?;
        let sqs_message = p.message_for_sqs()?;
        let mut state = self.lock();
        let topic = state.topic_mut(topic_arn)?;
        let stamped = match topic.stamp(p, now)? {
            Stamp::Duplicate(first) => return Ok(*first),
            Stamp::New(stamped) => stamped,
        };
        if let Some(id) = &stamped.deduplication_id {
            self.log_dedup(topic, id);
        }
        let topic = topic.clone();
        self.count_published(topic_arn, p.size());
        let matching = self.matching(&state, topic_arn, p, &sqs_message);
        drop(state);
        Ok(Published {
            message_id: stamped.message_id.clone(),
            sequence_number: stamped.sequence_number.clone(),
            fanout: Fanout::new(&stamped, (topic, now), matching, p)?,
        })
    }
}
