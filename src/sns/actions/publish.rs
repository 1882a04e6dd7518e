//! Publish and PublishBatch: their targets and entries (each message read by
//! [`super::message`]), published in the engine, then each delivery handed to
//! [`super::deliver`]; a Publish to a phone number or a platform endpoint is recorded.

use std::collections::HashSet;

use serde::Deserialize;

use super::access::Resource;
use super::message::{publication, MessageWire};
use super::wire::topic_arn;
use super::{deliver, in_region, Decode};
use crate::http::Context;
use crate::sns::engine::endpoints;
use crate::sns::engine::envelope::Origin;
use crate::sns::engine::outbox::{MessageType, Record};
use crate::sns::engine::publish::MAX_MESSAGE_BYTES;
use crate::sns::engine::{parse_topic_arn, Publication, Published};
use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};
use crate::sns::protocol::xml::Xml;
use crate::sns::Service;

/// PublishBatch takes at most 10 entries (SNS API reference, PublishBatch).
const MAX_BATCH: usize = 10;

/// Where a Publish goes: a topic, or straight to one phone or one platform endpoint.
#[derive(Debug)]
enum Target {
    /// TopicArn (or a topic's TargetArn): to every subscription.
    Topic(String),
    /// PhoneNumber: an SMS, recorded.
    Phone(String),
    /// TargetArn of a platform application endpoint: a push, recorded.
    Endpoint(String),
}

/// Publish's input.
#[derive(Debug)]
pub struct Publish {
    /// TopicArn, TargetArn or PhoneNumber: where the message goes.
    target: Target,
    /// The message with its subject, attributes and FIFO ids.
    publication: Publication,
}

impl Decode for Publish {
    type Wire = MessageWire;

    fn check(mut m: MessageWire) -> SnsResult<Self> {
        let target = match (m.phone_number.take(), m.topic_arn.take()) {
            (Some(phone), _) if !endpoints::phone(&phone) => {
                return Err(SnsError::invalid(format_args!(
                    "PhoneNumber Reason: {phone} is not valid to publish to"
                )))
            }
            (Some(phone), _) => Target::Phone(phone),
            (None, Some(topic)) => Target::Topic(topic),
            (None, None) => match m.target_arn.take() {
                Some(arn) if endpoints::is_platform_endpoint(&arn) => Target::Endpoint(arn),
                Some(arn) => Target::Topic(arn),
                None => {
                    return Err(SnsError::invalid(
                        "TopicArn or TargetArn Reason: no value for required parameter",
                    ))
                }
            },
        };
        if let Target::Topic(arn) = &target {
            parse_topic_arn(arn, "TopicArn")?;
        }
        Ok(Publish {
            target,
            publication: publication(m, "messageAttributes")?,
        })
    }
}

/// A Publish to a phone number or a platform endpoint: checked as any message, then
/// recorded with what would be sent (the message's `sms` text, or its platform's key).
fn publish_direct(
    app: &Service,
    (protocol, endpoint, key): (&str, &str, &str),
    p: &Publication,
) -> SnsResult<Published> {
    p.validate()?;
    let message_id = uuid::Uuid::new_v4().to_string();
    app.topics.outbox.record(Record {
        subscription_arn: None,
        protocol: protocol.to_owned(),
        endpoint: endpoint.to_owned(),
        message_type: MessageType::Notification,
        message_id: message_id.clone(),
        payload: p.message_for(key)?.into(),
        at: app.now(),
    });
    Ok(Published {
        message_id,
        sequence_number: None,
        fanout: crate::sns::engine::fanout::Fanout::default(),
    })
}

/// What a delivery's links start with: the server's own address, never the request's Host.
fn origin(app: &Service) -> Origin<'_> {
    Origin {
        base_url: app.links(),
    }
}

/// Publishes one message and makes its deliveries, each carrying the caller's trace header.
pub(super) fn publish_one(
    app: &Service,
    trace_header: Option<&String>,
    topic_arn: &str,
    p: &Publication,
) -> SnsResult<Published> {
    let now = app.now();
    let mut published = app.topics.publish(topic_arn, p, now)?;
    let origin = origin(app);
    // A chunk is handed over before the next is built: a publish to thousands of
    // subscriptions never holds all their bodies at once.
    while !published.fanout.is_empty() {
        let mut chunk = published.fanout.next_chunk(p, &origin);
        for d in &mut chunk {
            d.trace_header = trace_header.cloned();
        }
        deliver::deliver_all(app, topic_arn, chunk, now);
    }
    Ok(published)
}

/// Publish: to a topic's subscriptions, or recorded for a phone or endpoint.
pub async fn publish(input: Publish, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    let published = match &input.target {
        Target::Topic(arn) => {
            in_region(ctx, arn)?;
            publish_one(app, ctx.trace_header.as_ref(), arn, &input.publication)?
        }
        Target::Phone(phone) => publish_direct(app, ("sms", phone, "sms"), &input.publication)?,
        Target::Endpoint(arn) if !app.topics.knows_endpoint(arn) => {
            return Err(SnsError::invalid(
                "TargetArn Reason: No endpoint found for the target arn specified",
            ));
        }
        Target::Endpoint(arn) => {
            // `arn:…:endpoint/<PLATFORM>/<app>/<id>`: MessageStructure keys are platforms.
            let platform = arn.split('/').nth(1).unwrap_or_default();
            let target = ("application", arn.as_str(), platform);
            publish_direct(app, target, &input.publication)?
        }
    };
    let mut xml = Xml::default();
    xml.text("MessageId", &published.message_id)
        .opt("SequenceNumber", published.sequence_number.as_deref());
    Ok(xml)
}

impl Resource for Publish {
    /// The topic or platform endpoint published to; a phone number is the caller's own send.
    fn resource(&self) -> Option<&str> {
        match &self.target {
            Target::Topic(arn) | Target::Endpoint(arn) => Some(arn),
            Target::Phone(_) => None,
        }
    }
}

/// PublishBatch's input.
#[derive(Debug)]
pub struct PublishBatch {
    /// TopicArn: the topic every entry is published to.
    topic_arn: String,
    /// Each entry's Id and its decoded message (or why it could not be decoded).
    entries: Vec<(String, SnsResult<Publication>)>,
}

/// PublishBatch as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct PublishBatchWire {
    /// TopicArn: the topic every entry is published to.
    topic_arn: Option<String>,
    /// PublishBatchRequestEntries.member.N: the entries, in index order.
    #[serde(rename = "PublishBatchRequestEntries", default)]
    entries: Vec<MessageWire>,
}

impl Decode for PublishBatch {
    type Wire = PublishBatchWire;

    fn check(wire: PublishBatchWire) -> SnsResult<Self> {
        let topic_arn = topic_arn(wire.topic_arn, "TopicArn")?;
        let mut entries = Vec::new();
        for (i, mut e) in wire.entries.into_iter().enumerate() {
            let path = format!(
                "publishBatchRequestEntries.{}.member.messageAttributes",
                i + 1
            );
            let id = std::mem::take(&mut e.id);
            let entry = publication(e, &path);
            // The validation layer's refusal fails the request, not the entry (recorded).
            if let Err(err) = &entry {
                if err.kind == SnsErrorKind::ValidationError {
                    return Err(err.clone());
                }
            }
            entries.push((id, entry));
        }
        Ok(PublishBatch { topic_arn, entries })
    }
}

impl Resource for PublishBatch {
    fn resource(&self) -> Option<&str> {
        Some(&self.topic_arn)
    }
}

/// An entry Id: 1 to 80 of letters, digits, `-` and `_`; each refusal names it (recorded).
fn check_entry_id(id: &str) -> SnsResult<()> {
    let refuse = |why: &str| {
        Err(SnsError::new(
            SnsErrorKind::InvalidBatchEntryId,
            format!("The Id of a batch entry in the batch request {why}: {id}"),
        ))
    };
    if id.len() > 80 {
        return refuse("is too long");
    }
    if id.is_empty()
        || !id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return refuse("contains an impermissible character");
    }
    Ok(())
}

/// The whole-batch refusals, in SNS's wording (SNS API reference, PublishBatch errors).
fn check_batch(entries: &[(String, SnsResult<Publication>)]) -> SnsResult<()> {
    let fail = |kind, message: &'static str| Err(SnsError::new(kind, message));
    if entries.is_empty() {
        return fail(
            SnsErrorKind::EmptyBatchRequest,
            "The batch request doesn't contain any entries.",
        );
    }
    if entries.len() > MAX_BATCH {
        return fail(
            SnsErrorKind::TooManyEntriesInBatchRequest,
            "The batch request contains more entries than permissible.",
        );
    }
    for (id, _) in entries {
        check_entry_id(id)?;
    }
    let mut seen = HashSet::new();
    if !entries.iter().all(|(id, _)| seen.insert(id.as_str())) {
        return fail(
            SnsErrorKind::BatchEntryIdsNotDistinct,
            "Two or more batch entries in the request have the same Id.",
        );
    }
    let total: usize = entries
        .iter()
        .filter_map(|(_, p)| p.as_ref().ok())
        .map(Publication::size)
        .sum();
    if total > MAX_MESSAGE_BYTES {
        return fail(
            SnsErrorKind::BatchRequestTooLong,
            "The length of all the messages put together is more than the limit.",
        );
    }
    Ok(())
}

/// PublishBatch: each entry as Publish, results in request order.
pub async fn publish_batch(input: PublishBatch, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    in_region(ctx, &input.topic_arn)?;
    check_batch(&input.entries)?;
    // A missing topic fails the request, not each entry; so does an entry of a FIFO topic
    // without its group (recorded).
    let topic = app.topics.topic(&input.topic_arn)?;
    for (_, entry) in &input.entries {
        entry
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|p| topic.check_publication(p))?;
    }
    let mut successful = Vec::new();
    let mut failed = Vec::new();
    for (id, entry) in input.entries {
        match entry.and_then(|p| publish_one(app, ctx.trace_header.as_ref(), &input.topic_arn, &p))
        {
            Ok(published) => successful.push((id, published)),
            Err(e) => failed.push((id, e)),
        }
    }
    // Recorded (go-cloud's TestConformanceSNSTopic*/TestBatching.replay, 2026-03): `Failed`
    // comes first and stays, empty, when nothing failed.
    let mut xml = Xml::default();
    xml.members("Failed", &failed, |x, (id, e)| {
        x.text("Id", id)
            .text("Code", e.code())
            .text("Message", &e.message)
            .text("SenderFault", "true");
    })
    .members("Successful", &successful, |x, (id, p)| {
        // Recorded order (TestFIFO/TestSNSTopic/TestSendReceiveValid.replay).
        x.opt("SequenceNumber", p.sequence_number.as_deref())
            .text("MessageId", &p.message_id)
            .text("Id", id);
    });
    Ok(xml)
}
