//! Durable mode through the real binary, as a user would meet it: what one process writes
//! (queues, attributes, tags, messages in every state, receipt handles, FIFO sequence numbers
//! and deduplication, dead letters) and the checks that the next process finds it all.

mod failures;
mod integrity;
mod restart;
mod s3;
mod s3_kill;
mod snapshot;
mod soak;

use crate::common::durable::{attribute, queue_urls, receive};
use aws_sdk_sqs::types::{
    Message, MessageAttributeValue, MessageSystemAttributeName, QueueAttributeName,
};
use aws_sdk_sqs::Client;

/// What the first process left behind, for the second to find.
#[derive(Clone)]
struct Before {
    dlq: String,
    orders: String,
    jobs: String,
    redrive: String,
    held: aws_sdk_sqs::types::Message,
    in_flight: aws_sdk_sqs::types::Message,
    fifo_held: aws_sdk_sqs::types::Message,
    sent: Vec<(String, String)>,
}

/// A queue `name` (visibility `visibility` seconds, tagged) whose dead letters go to
/// `<name>-dlq` after one receive; returns both URLs.
async fn with_dead_letters(c: &Client, name: &str, visibility: &str) -> (String, String) {
    let dlq = c
        .create_queue()
        .queue_name(format!("{name}-dlq"))
        .send()
        .await
        .unwrap();
    let dlq = dlq.queue_url().unwrap().to_owned();
    let dlq_arn = attribute(c, &dlq, QueueAttributeName::QueueArn).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":"1"}}"#);
    let source = c
        .create_queue()
        .queue_name(name)
        .attributes(QueueAttributeName::VisibilityTimeout, visibility)
        .attributes(QueueAttributeName::RedrivePolicy, &redrive)
        .tags("team", "payments")
        .send()
        .await
        .unwrap();
    (source.queue_url().unwrap().to_owned(), dlq)
}

/// Queues of both kinds with attributes and tags; messages visible, in flight and dead-lettered.
async fn write_state(c: &Client) -> Before {
    let (orders, dlq, held, in_flight) = orders_with_a_dead_letter_and_one_in_flight(c).await;
    let (jobs, sent) = jobs_with_two_sent(c).await;
    let fifo_held = receive(c, &jobs, 1).await.remove(0);
    let redrive = attribute(c, &orders, QueueAttributeName::RedrivePolicy).await;
    Before {
        dlq,
        orders,
        jobs,
        redrive,
        held,
        in_flight,
        fifo_held,
        sent,
    }
}

/// orders with three messages: one `held` past maxReceiveCount (moved to the DLQ by the
/// next receive), one in flight, one visible; returns (orders, dlq, held, in flight).
async fn orders_with_a_dead_letter_and_one_in_flight(
    c: &Client,
) -> (String, String, Message, Message) {
    let (orders, dlq) = with_dead_letters(c, "orders", "600").await;
    for body in ["first", "second", "third"] {
        c.send_message()
            .queue_url(&orders)
            .message_body(body)
            .message_attributes(
                "kind",
                MessageAttributeValue::builder()
                    .data_type("String")
                    .string_value(body)
                    .build()
                    .unwrap(),
            )
            .send()
            .await
            .unwrap();
    }
    let held = receive(c, &orders, 1).await.remove(0);
    // A message past maxReceiveCount moves to the DLQ at its next receive.
    c.change_message_visibility()
        .queue_url(&orders)
        .receipt_handle(held.receipt_handle().unwrap())
        .visibility_timeout(0)
        .send()
        .await
        .unwrap();
    let held_again = receive(c, &orders, 1).await;
    assert!(held_again.is_empty() || held_again[0].body() != held.body());
    let in_flight = match held_again.first() {
        Some(m) => m.clone(),
        None => receive(c, &orders, 1).await.remove(0),
    };
    (orders, dlq, held, in_flight)
}

/// jobs.fifo (content-based deduplication) with job-1 and job-2 sent in one group; returns
/// its URL and each send's (message id, sequence number).
async fn jobs_with_two_sent(c: &Client) -> (String, Vec<(String, String)>) {
    let jobs = c
        .create_queue()
        .queue_name("jobs.fifo")
        .attributes(QueueAttributeName::FifoQueue, "true")
        .attributes(QueueAttributeName::ContentBasedDeduplication, "true")
        .send()
        .await
        .unwrap();
    let jobs = jobs.queue_url().unwrap().to_owned();
    let mut sent = Vec::new();
    for body in ["job-1", "job-2"] {
        let r = c
            .send_message()
            .queue_url(&jobs)
            .message_body(body)
            .message_group_id("g")
            .send()
            .await
            .unwrap();
        sent.push((
            r.message_id().unwrap().to_owned(),
            r.sequence_number().unwrap().to_owned(),
        ));
    }
    (jobs, sent)
}

async fn check_state(c: &Client, b: Before) {
    let orders = &b.orders;
    check_queues_and_orders_settings(c, orders, &b.redrive).await;
    // One visible, one in flight in orders; the dead letter in the DLQ with its source.
    assert_eq!(
        attribute(c, orders, QueueAttributeName::ApproximateNumberOfMessages).await,
        "1"
    );
    assert_eq!(
        attribute(
            c,
            orders,
            QueueAttributeName::ApproximateNumberOfMessagesNotVisible
        )
        .await,
        "1"
    );
    let dead = receive(c, &b.dlq, 10).await;
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].body(), b.held.body());
    let source = dead[0]
        .attributes()
        .unwrap()
        .get(&MessageSystemAttributeName::DeadLetterQueueSourceArn);
    assert!(source.is_some_and(|s| s.ends_with(":orders")), "{source:?}");
    check_the_old_handle_deletes(c, orders, &b.in_flight).await;
    check_fifo(c, &b.jobs, &b.fifo_held, &b.sent).await;
}

/// The three queues are back, and orders keeps its visibility, redrive policy and tag.
async fn check_queues_and_orders_settings(c: &Client, orders: &str, redrive: &str) {
    let urls = queue_urls(c).await;
    assert_eq!(urls.len(), 3, "{urls:?}");
    assert_eq!(
        attribute(c, orders, QueueAttributeName::VisibilityTimeout).await,
        "600"
    );
    assert_eq!(
        attribute(c, orders, QueueAttributeName::RedrivePolicy).await,
        redrive
    );
    let tags = c.list_queue_tags().queue_url(orders).send().await.unwrap();
    assert_eq!(
        tags.tags().unwrap().get("team").map(String::as_str),
        Some("payments")
    );
}

/// The handle issued before the restart still deletes its message; the visible one is left.
async fn check_the_old_handle_deletes(c: &Client, orders: &str, in_flight: &Message) {
    c.delete_message()
        .queue_url(orders)
        .receipt_handle(in_flight.receipt_handle().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(
        attribute(
            c,
            orders,
            QueueAttributeName::ApproximateNumberOfMessagesNotVisible
        )
        .await,
        "0"
    );
    let rest = receive(c, orders, 10).await;
    assert_eq!(rest.len(), 1);
    let kind = rest[0].message_attributes().unwrap().get("kind").unwrap();
    assert_eq!(kind.string_value(), Some(rest[0].body().unwrap()));
}

/// FIFO: the dedup window and the sequence numbers carry on; the held handle deletes.
async fn check_fifo(
    c: &Client,
    jobs: &str,
    fifo_held: &aws_sdk_sqs::types::Message,
    sent: &[(String, String)],
) {
    let again = c
        .send_message()
        .queue_url(jobs)
        .message_body("job-1")
        .message_group_id("g")
        .send()
        .await
        .unwrap();
    assert_eq!(again.message_id(), Some(sent[0].0.as_str()));
    let next = c
        .send_message()
        .queue_url(jobs)
        .message_body("job-3")
        .message_group_id("g")
        .send()
        .await
        .unwrap();
    assert!(next.sequence_number().unwrap() > sent[1].1.as_str());
    c.delete_message()
        .queue_url(jobs)
        .receipt_handle(fifo_held.receipt_handle().unwrap())
        .send()
        .await
        .unwrap();
    let order: Vec<_> = receive(c, jobs, 10)
        .await
        .iter()
        .map(|m| m.body().unwrap().to_owned())
        .collect();
    assert_eq!(order, ["job-2", "job-3"]);
    // Deletions are durable too: after another kill only what is left comes back.
}
