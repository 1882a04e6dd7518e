//! Deliveries from a topic: into sqslite's queues through the SQS engine's own send
//! ([`crate::engine::queue::Queue::send`], what SendMessage calls), never by writing queue
//! state; to HTTP/S endpoints through [`super::http`]; into the records for the protocols
//! sqslite cannot reach. A delivery that fails goes to the subscription's dead-letter queue
//! when it has one; either way the publish itself succeeds, as on SNS.

use std::collections::HashSet;
use std::sync::{Arc, LazyLock, Mutex};

use crate::clock::Millis;
use crate::engine::message::{AttrData as SqsData, AttrValue, NewMessage};
use crate::engine::policy;
use crate::engine::queue::Queue;
use crate::sns::engine::counts::Outcome;
use crate::sns::engine::endpoints::{self, Reach};
use crate::sns::engine::outbox::{MessageType, Post, Record};
use crate::sns::engine::publish::AttrData;
use crate::sns::engine::Delivery;
use crate::sns::Service;

/// The SenderId SQS shows on messages SNS delivers.
static SNS_SENDER: LazyLock<Arc<str>> = LazyLock::new(|| Arc::from("AIDAIT2UOQQY3AUEKVGXU"));

/// Queues already warned about (their Policy would refuse the topic), so each is logged once.
static WARNED: LazyLock<Mutex<HashSet<String>>> = LazyLock::new(|| Mutex::new(HashSet::new()));

/// Sends each delivery its way: into its queue now, to its HTTP/S endpoint through the
/// outbox (never holding up the publish), or into the records.
pub fn deliver_all(app: &Service, topic_arn: &str, deliveries: Vec<Delivery>, now: Millis) {
    for d in deliveries {
        match endpoints::reach(&d.protocol) {
            Some(Reach::Http) => super::http::enqueue(app, post(d), now),
            Some(Reach::Recorded) => {
                app.sns
                    .count_notification(&d.subscription_arn, Outcome::Delivered);
                app.sns.outbox.record(Record {
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
        dead_letter: Some(d),
    }
}

/// Into the subscription's queue; a `Deliver` fault rule fails it as a refused send would.
fn to_queue(app: &Service, topic_arn: &str, d: &Delivery, now: Millis) {
    let sent = match app.faults.on_delivery(topic_arn, &d.queue_arn, now) {
        Some(injected) => Err(injected),
        None => deliver(app, topic_arn, &d.queue_arn, d, now),
    };
    let Err(reason) = sent else {
        app.sns
            .count_notification(&d.subscription_arn, Outcome::Delivered);
        return;
    };
    tracing::warn!(
        subscription = %d.subscription_arn,
        queue = %d.queue_arn,
        %reason,
        "SNS delivery failed"
    );
    failed(app, d, now);
}

/// A delivery that failed for good: counted, then into its subscription's dead-letter queue
/// if it has one.
pub fn failed(app: &Service, d: &Delivery, now: Millis) {
    app.sns
        .count_notification(&d.subscription_arn, Outcome::Failed);
    if let Some(dlq) = &d.dead_letter_arn {
        let outcome = match deliver(app, &d.topic_arn, dlq, d, now) {
            Ok(()) => Outcome::RedrivenToDlq,
            Err(reason) => {
                tracing::warn!(dead_letter_queue = %dlq, %reason, "SNS dead-letter delivery failed");
                Outcome::FailedToRedriveToDlq
            }
        };
        app.sns.count_notification(&d.subscription_arn, outcome);
    }
}

/// Sends one delivery into the queue `queue_arn` through SQS's own send; a queue Policy that
/// would refuse the topic on AWS is a warning, or with `strict` a failure.
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
    if !policy_admits_at(&queue, topic_arn, now) {
        if app.strict {
            return Err("the queue's Policy does not allow the topic to send (--strict)".into());
        }
        let first = WARNED
            .lock()
            .is_ok_and(|mut w| w.insert(format!("{queue_arn} {topic_arn}")));
        if first {
            tracing::warn!(queue = %queue_arn, topic = %topic_arn, "the queue's Policy would refuse this topic on AWS (sns.amazonaws.com needs sqs:SendMessage); delivered anyway, --strict refuses");
        }
    }
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
        body: d.body.clone(),
        attributes,
        delay_seconds: None,
        trace_header: d.trace_header.clone(),
        // A FIFO topic's message enters a standard queue as a plain one; a standard topic's
        // MessageGroupId makes it a fair queue's tenant, as on SQS.
        group_id: d.group_id.clone().filter(|_| queue.fifo || !d.fifo_topic),
        deduplication_id: d.deduplication_id.clone().filter(|_| queue.fifo),
        sender_id: SNS_SENDER.clone(),
    };
    queue.send(message, now).map(drop).map_err(|e| e.message)
}

/// Whether the queue's Policy lets SNS send this topic's messages, for observers without a
/// clock (the advisor): [`policy_admits_at`] with time conditions read at the epoch.
pub(crate) fn policy_admits(queue: &Queue, topic_arn: &str) -> bool {
    policy_admits_at(queue, topic_arn, 0)
}

/// Whether the queue's Policy lets SNS send this topic's messages: the one policy evaluator
/// of the queues, with the caller the `sns.amazonaws.com` service acting for the topic
/// (aws:SourceArn, aws:SourceAccount), which a statement must name even in the queue's own
/// account.
fn policy_admits_at(queue: &Queue, topic_arn: &str, now: Millis) -> bool {
    let topic_account = crate::sns::engine::parse_topic_arn(topic_arn, "TopicArn")
        .map_or("", |(_, account, _)| account);
    let caller = policy::Caller {
        account: topic_account,
        arn: topic_arn,
    };
    let request = policy::Request::direct(caller, "SendMessage", now)
        .by_service("sns.amazonaws.com")
        .on_behalf_of(topic_arn, topic_account);
    let queue_arn = queue.arn();
    let decision = policy::evaluate(
        queue.policy().as_deref(),
        &queue_arn,
        &queue.key.account,
        &request,
    );
    decision == policy::Decision::Allow
}
