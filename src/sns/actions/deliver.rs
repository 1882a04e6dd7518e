//! Deliveries from a topic: into sqslite's queues through the SQS engine's own send
//! ([`crate::sqs::engine::queue::Queue::send`], what SendMessage calls), never by writing queue
//! state; to HTTP/S endpoints through [`super::http`]; into the records for the protocols
//! sqslite cannot reach. A delivery that fails goes to the subscription's dead-letter queue
//! when it has one; either way the publish itself succeeds, as on SNS.

use std::sync::{Arc, LazyLock};

use crate::clock::Millis;
use crate::sns::engine::counts::{LastFailure, Outcome, Undeliverable};
use crate::sns::engine::endpoints::{self, Reach};
use crate::sns::engine::outbox::{MessageType, Post, Record};
use crate::sns::engine::publish::AttrData;
use crate::sns::engine::Delivery;
use crate::sns::Service;
use crate::sqs::engine::message::{AttrData as SqsData, AttrValue, NewMessage};
use crate::sqs::engine::queue::Queue;

/// The SenderId SQS shows on messages SNS delivers.
static SNS_SENDER: LazyLock<Arc<str>> = LazyLock::new(|| Arc::from("AIDAIT2UOQQY3AUEKVGXU"));

/// Sends each delivery its way: into its queue now, to its HTTP/S endpoint through the
/// outbox (never holding up the publish), or into the records.
pub fn deliver_all(app: &Service, topic_arn: &str, deliveries: Vec<Delivery>, now: Millis) {
    for d in deliveries {
        match endpoints::reach(&d.protocol) {
            Some(Reach::Http) => super::http::enqueue(app, post(d), now),
            Some(Reach::Recorded) => {
                app.topics
                    .count_notification(&d.subscription_arn, Outcome::Delivered);
                app.topics.outbox.record(Record {
                    subscription_arn: Some(d.subscription_arn.clone()),
                    protocol: d.protocol.clone(),
                    endpoint: d.endpoint.clone(),
                    message_type: MessageType::Notification,
                    message_id: d.message_id.clone(),
                    payload: d.body,
                    at: now,
                });
            }
            Some(Reach::Queue) | None => to_queue(app, topic_arn, &d, now),
        }
    }
}

/// A notification for an HTTP/S endpoint, dead-lettered as it is once retries are spent.
fn post(d: Delivery) -> Post {
    Post {
        message_type: MessageType::Notification,
        url: d.endpoint.clone(),
        message_id: d.message_id.clone(),
        topic_arn: d.topic_arn.clone(),
        subscription_arn: d.subscription_arn.clone(),
        raw: d.raw,
        content_type: d.content_type.clone(),
        body: d.body.clone(),
        retry: d.retry,
        retries: 0,
        since: None,
        dead_letter: Some(d),
    }
}

/// Into the subscription's queue; a `Deliver` fault rule fails it as a refused send would.
fn to_queue(app: &Service, topic_arn: &str, d: &Delivery, now: Millis) {
    let sent = match crate::sns::faults::on_delivery(&app.faults, topic_arn, &d.queue_arn, now) {
        Some(injected) => Err(injected),
        None => deliver(app, topic_arn, &d.queue_arn, d, now),
    };
    let Err(reason) = sent else {
        app.topics
            .count_notification(&d.subscription_arn, Outcome::Delivered);
        return;
    };
    tracing::warn!(
        subscription = %d.subscription_arn,
        queue = %d.queue_arn,
        %reason,
        "SNS delivery failed"
    );
    failed(app, d, now, Undeliverable::QueueRefused, reason);
}

/// A delivery that failed for good, `why` and with what `reason`: counted, then into its
/// subscription's dead-letter queue if it has one.
pub fn failed(app: &Service, d: &Delivery, now: Millis, why: Undeliverable, reason: String) {
    app.topics
        .count_notification(&d.subscription_arn, Outcome::Failed);
    let mut dead_lettered = false;
    if let Some(dlq) = &d.dead_letter_arn {
        let outcome = match deliver(app, &d.topic_arn, dlq, d, now) {
            Ok(()) => {
                dead_lettered = true;
                Outcome::RedrivenToDlq
            }
            Err(reason) => {
                tracing::warn!(dead_letter_queue = %dlq, %reason, "SNS dead-letter delivery failed");
                Outcome::FailedToRedriveToDlq
            }
        };
        app.topics.count_notification(&d.subscription_arn, outcome);
    }
    let failure = LastFailure {
        why,
        reason,
        at: now,
        dead_lettered,
    };
    app.topics.count_undeliverable(&d.subscription_arn, failure);
}

/// Sends one delivery into the queue `queue_arn` through SQS's own send, once the queue
/// admits the topic ([`admitted`]).
fn deliver(
    app: &Service,
    topic_arn: &str,
    queue_arn: &str,
    d: &Delivery,
    now: Millis,
) -> Result<(), String> {
    let queue = app
        .sqs
        .registry
        .get_by_arn(queue_arn)
        .ok_or_else(|| "the queue does not exist".to_owned())?;
    let attributes = d
        .attributes
        .iter()
        .map(|(name, a)| {
            let data = match &a.data {
                AttrData::Text(t) => SqsData::String(t.clone()),
                AttrData::Binary(b) => SqsData::Binary(b.clone()),
            };
            (
                name.clone(),
                AttrValue {
                    data_type: a.data_type.clone(),
                    data,
                },
            )
        })
        .collect();
    let message = NewMessage {
        body: d.body.to_string(),
        attributes,
        delay_seconds: None,
        trace_header: d.trace_header.clone(),
        // A FIFO topic's message enters a standard queue as a plain one; a standard topic's
        // MessageGroupId makes it a fair queue's tenant, as on SQS.
        group_id: d.group_id.clone().filter(|_| queue.fifo || !d.fifo_topic),
        deduplication_id: d.deduplication_id.clone().filter(|_| queue.fifo),
        sender_id: SNS_SENDER.clone(),
    };
    send(app, topic_arn, &queue, message, now)
}

/// A SubscriptionConfirmation for a pending `sqs` subscription (another account's queue):
/// into the queue as a notification would go, so its owner reads the token there. On a FIFO
/// queue the subscription is its group and the message id its deduplication id
/// \[unverified: AWS documents no FIFO case\].
pub fn confirmation(
    app: &Service,
    c: &crate::sns::engine::confirm::Confirmation,
    (message_id, body): (&str, String),
    now: Millis,
) {
    let Some(queue) = app.sqs.registry.get_by_arn(&c.endpoint) else {
        tracing::warn!(queue = %c.endpoint, "SubscriptionConfirmation not sent: the queue does not exist");
        return;
    };
    let fifo = queue.fifo.then_some(());
    let message = NewMessage {
        body,
        attributes: std::collections::BTreeMap::new(),
        delay_seconds: None,
        trace_header: None,
        group_id: fifo.map(|()| c.subscription_arn.clone()),
        deduplication_id: fifo.map(|()| message_id.to_owned()),
        sender_id: SNS_SENDER.clone(),
    };
    if let Err(reason) = send(app, &c.topic_arn, &queue, message, now) {
        tracing::warn!(queue = %c.endpoint, %reason, "SubscriptionConfirmation not delivered");
    }
}

/// Into the queue through SQS's own send, once it admits the topic.
fn send(
    app: &Service,
    topic_arn: &str,
    queue: &Queue,
    message: NewMessage,
    now: Millis,
) -> Result<(), String> {
    admitted(app, queue, topic_arn, now)?;
    // At-least-once delivery: SNS may deliver a notification twice too, the same body (and so
    // the same SNS MessageId) in two SQS messages.
    let again = queue.delivers_twice().then(|| message.clone());
    for message in std::iter::once(message).chain(again) {
        queue.send(message, now).map_err(|e| e.message)?;
    }
    Ok(())
}

/// Whether the queue takes the topic's messages. SNS sends as the `sns.amazonaws.com` service
/// for the topic (aws:SourceArn, aws:SourceAccount), and the queue's Policy decides as it does
/// for every caller ([`Queue::admits`]): a Policy that does not allow it refuses, in the
/// topic's own account too, as on AWS. One test-friendly difference: a queue with no Policy
/// at all takes its own account's topics, unless `--strict` (on AWS it would need one).
fn admitted(app: &Service, queue: &Queue, topic_arn: &str, now: Millis) -> Result<(), String> {
    if crate::sns::engine::queue_access::sns_may_send_at(queue, topic_arn, now) {
        return Ok(());
    }
    let topic_account = crate::sns::engine::topic_account(topic_arn);
    if !app.strict && queue.policy().is_none() && queue.key.account == topic_account {
        tracing::debug!(queue = %queue.arn(), topic = %topic_arn, "a queue without a Policy takes its own account's topic (--strict refuses, as AWS does)");
        return Ok(());
    }
    let why = if queue.policy().is_none() {
        "the queue has no Policy allowing sns.amazonaws.com to send this topic's messages"
    } else {
        "the queue's Policy does not allow sns.amazonaws.com to send this topic's messages"
    };
    Err(format!(
        "{why} (sqs:SendMessage with aws:SourceArn {topic_arn})"
    ))
}
