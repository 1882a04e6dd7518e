//! FIFO receives: a group blocked while in flight, attempt ids replaying a receive, many
//! consumers keeping every group in order, and poison messages and move tasks with FIFO DLQs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{bodies, fifo, receive};
use crate::common::{expect_code_for, message, TestServer};
use aws_sdk_sqs::types::MessageSystemAttributeName;

#[tokio::test]
async fn a_group_is_blocked_while_a_message_of_it_is_in_flight() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo", &[]).await;
    for body in ["a1", "a2", "a3"] {
        t.send_fifo(&url, "a", body).await;
    }
    t.send_fifo(&url, "b", "b1").await;
    let first = receive(&t, &url, 1).await;
    assert_eq!(bodies(&first), ["a1"]);
    let attrs = first[0].attributes().unwrap();
    assert_eq!(attrs[&MessageSystemAttributeName::MessageGroupId], "a");
    assert!(attrs.contains_key(&MessageSystemAttributeName::SequenceNumber));
    assert_eq!(bodies(&receive(&t, &url, 10).await), ["b1"]);
    assert!(receive(&t, &url, 10).await.is_empty(), "a2 waits for a1");
    // Visibility 0 releases the group at once; a2 stays behind a1.
    t.set_visibility(&url, first[0].receipt_handle().unwrap(), 0)
        .await;
    let again = receive(&t, &url, 10).await;
    assert_eq!(
        bodies(&again),
        ["a1", "a2", "a3"],
        "several of one group, in order"
    );
    // An expired handle no longer deletes on a FIFO queue.
    t.advance(30);
    let err = t
        .client
        .delete_message()
        .queue_url(&url)
        .receipt_handle(again[0].receipt_handle().unwrap())
        .send()
        .await
        .unwrap_err();
    assert!(
        message(&err).ends_with("Reason: The receipt handle has expired."),
        "{}",
        message(&err)
    );
}

#[tokio::test]
async fn receive_request_attempt_id_replays_the_same_receive() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo", &[]).await;
    t.send_fifo(&url, "g", "m1").await;
    t.send_fifo(&url, "h", "m2").await;
    let attempt = |id: &'static str| {
        t.client
            .receive_message()
            .queue_url(&url)
            .max_number_of_messages(10)
            .receive_request_attempt_id(id)
            .send()
    };
    let first = attempt("try-1").await.unwrap();
    let retry = attempt("try-1").await.unwrap();
    assert_eq!(first.messages().len(), 2);
    assert_eq!(first.messages(), retry.messages());
    assert!(attempt("try-2").await.unwrap().messages().is_empty());
}

#[tokio::test]
async fn eight_consumers_twenty_groups_in_order_exactly_once() {
    let t = TestServer::start().await;
    let url = fifo(&t, "orders.fifo", &[]).await;
    let per_group = 15;
    for i in 0..per_group {
        for g in 0..20 {
            t.send_fifo(&url, &format!("g{g}"), &format!("g{g}-{i}"))
                .await;
        }
    }
    // Processing order across all consumers: a message is recorded before it is deleted, and
    // its group cannot reach another consumer before that delete.
    let processed = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut consumers = Vec::new();
    for _ in 0..8 {
        consumers.push(tokio::spawn(consume_until_empty(
            t.client.clone(),
            url.clone(),
            processed.clone(),
        )));
    }
    for c in consumers {
        tokio::time::timeout(Duration::from_secs(30), c)
            .await
            .unwrap()
            .unwrap();
    }
    let mut all = processed.lock().unwrap().clone();
    // Short polls may stop early while every group is in flight; finish the rest in order too.
    loop {
        let got = receive(&t, &url, 10).await;
        if got.is_empty() {
            break;
        }
        for m in &got {
            all.push(m.body().unwrap().to_owned());
            t.delete(&url, m.receipt_handle().unwrap()).await;
        }
    }
    assert_eq!(all.len(), 20 * per_group, "every message exactly once");
    let mut next: HashMap<String, usize> = HashMap::new();
    for body in &all {
        let (group, i) = body.split_once('-').unwrap();
        let expected = next.entry(group.to_owned()).or_default();
        assert_eq!(
            i.parse::<usize>().unwrap(),
            *expected,
            "group {group} out of order"
        );
        *expected += 1;
    }
}

/// One consumer: receives up to 3, records each body before deleting it, until a receive
/// comes back empty.
async fn consume_until_empty(
    client: aws_sdk_sqs::Client,
    url: String,
    processed: Arc<Mutex<Vec<String>>>,
) {
    loop {
        let got = client
            .receive_message()
            .queue_url(&url)
            .max_number_of_messages(3)
            .send()
            .await
            .unwrap();
        if got.messages().is_empty() {
            return;
        }
        for m in got.messages() {
            processed.lock().unwrap().push(m.body().unwrap().to_owned());
            client
                .delete_message()
                .queue_url(&url)
                .receipt_handle(m.receipt_handle().unwrap())
                .send()
                .await
                .unwrap();
        }
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn poison_at_the_head_of_a_group_blocks_only_that_group_until_dead_lettered() {
    let t = TestServer::start().await;
    let dlq = fifo(&t, "payments-dlq.fifo", &[]).await;
    let policy = r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:payments-dlq.fifo","maxReceiveCount":3}"#;
    let url = fifo(&t, "payments.fifo", &[("RedrivePolicy", policy)]).await;
    expect_code_for(
        t.try_create_queue("std-src", &[("RedrivePolicy", policy)])
            .await,
        "InvalidParameterValue",
        "a standard queue with a FIFO DLQ",
    );
    for body in ["poison", "a2", "a3"] {
        t.send_fifo(&url, "acct-a", body).await;
    }
    t.send_fifo(&url, "acct-b", "b1").await;
    let mut delivered_a = Vec::new();
    let mut b_done = false;
    for _attempt in 0..6 {
        for m in receive(&t, &url, 1).await {
            let body = m.body().unwrap().to_owned();
            if body == "poison" {
                // The consumer fails: let the message go back at once.
                t.set_visibility(&url, m.receipt_handle().unwrap(), 0).await;
            } else {
                if body == "b1" {
                    b_done = true;
                } else {
                    delivered_a.push(body);
                }
                t.delete(&url, m.receipt_handle().unwrap()).await;
            }
        }
    }
    assert!(b_done, "the other group flowed while acct-a was stalled");
    assert_eq!(
        delivered_a,
        ["a2", "a3"],
        "acct-a drained in order once the poison left"
    );
    let dead = receive(&t, &dlq, 10).await;
    assert_eq!(bodies(&dead), ["poison"]);
    let attrs = dead[0].attributes().unwrap();
    assert_eq!(attrs[&MessageSystemAttributeName::MessageGroupId], "acct-a");
    assert_eq!(
        attrs[&MessageSystemAttributeName::DeadLetterQueueSourceArn],
        "arn:aws:sqs:us-east-1:000000000000:payments.fifo"
    );
}

#[tokio::test]
async fn move_tasks_in_and_out_of_fifo_queues_keep_group_order() {
    let t = TestServer::start().await;
    let dlq = fifo(&t, "d.fifo", &[]).await;
    let policy = r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:d.fifo","maxReceiveCount":1}"#;
    let url = fifo(&t, "s.fifo", &[("RedrivePolicy", policy)]).await;
    for body in ["m1", "m2", "m3"] {
        t.send_fifo(&url, "g", body).await;
    }
    // Every message fails once and is dead-lettered, head first.
    while t.counts(&url).await != (0, 0, 0) {
        for m in receive(&t, &url, 1).await {
            t.set_visibility(&url, m.receipt_handle().unwrap(), 0).await;
        }
    }
    assert_eq!(t.counts(&dlq).await.0, 3);
    t.client
        .start_message_move_task()
        .source_arn("arn:aws:sqs:us-east-1:000000000000:d.fifo")
        .send()
        .await
        .unwrap();
    let tasks = t
        .client
        .list_message_move_tasks()
        .source_arn("arn:aws:sqs:us-east-1:000000000000:d.fifo")
        .send()
        .await
        .unwrap();
    assert_eq!(tasks.results()[0].status(), Some("COMPLETED"));
    assert_eq!(bodies(&receive(&t, &url, 10).await), ["m1", "m2", "m3"]);
}
