//! FIFO queues: group ordering, deduplication, attempt ids, group blocking and FIFO DLQs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::{expect_code, expect_code_for, message, TestServer};
use aws_sdk_sqs::types::{
    MessageSystemAttributeName, QueueAttributeName, SendMessageBatchRequestEntry,
};

async fn fifo(t: &TestServer, name: &str, extra: &[(&str, &str)]) -> String {
    let mut attrs = vec![("FifoQueue", "true")];
    attrs.extend_from_slice(extra);
    t.create_queue_with(name, &attrs).await
}

async fn receive(t: &TestServer, url: &str, max: i32) -> Vec<aws_sdk_sqs::types::Message> {
    t.client
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(max)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .send()
        .await
        .unwrap()
        .messages()
        .to_vec()
}

fn bodies(msgs: &[aws_sdk_sqs::types::Message]) -> Vec<&str> {
    msgs.iter().filter_map(|m| m.body()).collect()
}

#[tokio::test]
async fn queue_type_rules() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo", &[("ContentBasedDeduplication", "true")]).await;
    assert_eq!(t.attribute(&url, "FifoQueue").await, "true");
    assert_eq!(t.attribute(&url, "DeduplicationScope").await, "queue");
    assert_eq!(t.attribute(&url, "FifoThroughputLimit").await, "perQueue");
    expect_code(
        t.try_create_queue("q2", &[("FifoQueue", "true")]).await,
        "InvalidParameterValue",
    );
    let err = t
        .set_attribute(&url, QueueAttributeName::FifoQueue, "false")
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported."
    );
    expect_code(
        t.set_attribute(
            &url,
            QueueAttributeName::FifoThroughputLimit,
            "perMessageGroupId",
        )
        .await,
        "InvalidParameterValue",
    );
    t.client
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::DeduplicationScope, "messageGroup")
        .attributes(QueueAttributeName::FifoThroughputLimit, "perMessageGroupId")
        .send()
        .await
        .unwrap();
    let std_url = t.create_queue("plain").await;
    let err = t
        .set_attribute(&std_url, QueueAttributeName::DeduplicationScope, "queue")
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "You can specify the DeduplicationScope only when FifoQueue is set to true."
    );
}

#[tokio::test]
async fn send_rules_and_sequence_numbers() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo", &[]).await;
    sends_without_group_dedup_id_or_with_a_delay_fail(&t, &url).await;
    let a = t.send_fifo(&url, "g", "a").await;
    let b = t.send_fifo(&url, "g", "b").await;
    let (sa, sb) = (a.sequence_number().unwrap(), b.sequence_number().unwrap());
    assert_eq!(sa.len(), 20);
    assert!(sb.parse::<u128>().unwrap() > sa.parse::<u128>().unwrap());
    let batch = t
        .client
        .send_message_batch()
        .queue_url(&url)
        .entries(
            SendMessageBatchRequestEntry::builder()
                .id("nogroup")
                .message_body("z")
                .message_deduplication_id("z")
                .build()
                .unwrap(),
        )
        .send()
        .await;
    // A FIFO batch entry without its group fails the whole batch [aws-recorded].
    expect_code(batch, "InvalidParameterValue");
}

/// A FIFO send needs a group (without spaces) and a deduplication id, and takes no delay.
async fn sends_without_group_dedup_id_or_with_a_delay_fail(t: &TestServer, url: &str) {
    let err = expect_code(
        t.client
            .send_message()
            .queue_url(url)
            .message_body("x")
            .message_deduplication_id("d")
            .send()
            .await,
        "MissingParameter",
    );
    assert_eq!(
        message(&err),
        "The request must contain the parameter MessageGroupId."
    );
    let err = t
        .client
        .send_message()
        .queue_url(url)
        .message_body("x")
        .message_group_id("g")
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly"
    );
    let err = t
        .client
        .send_message()
        .queue_url(url)
        .message_body("x")
        .message_group_id("g")
        .message_deduplication_id("d")
        .delay_seconds(2)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type."
    );
    expect_code(
        t.client
            .send_message()
            .queue_url(url)
            .message_body("x")
            .message_group_id("has space")
            .message_deduplication_id("d")
            .send()
            .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn deduplication_window_and_content_based_ids() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo", &[]).await;
    let first = t.send_fifo(&url, "g", "same").await;
    t.advance(299);
    let dup = t.send_fifo(&url, "g", "same").await;
    assert_eq!(dup.message_id(), first.message_id());
    assert_eq!(dup.sequence_number(), first.sequence_number());
    assert_eq!(t.counts(&url).await.0, 1);
    t.advance(1);
    let later = t.send_fifo(&url, "g", "same").await;
    assert_ne!(later.message_id(), first.message_id());
    assert_eq!(t.counts(&url).await.0, 2);

    let cbd = fifo(&t, "cbd.fifo", &[("ContentBasedDeduplication", "true")]).await;
    let send_cbd = |body: &'static str| {
        t.client
            .send_message()
            .queue_url(&cbd)
            .message_body(body)
            .message_group_id("g")
            .send()
    };
    let one = send_cbd("body").await.unwrap();
    assert_eq!(
        send_cbd("body").await.unwrap().message_id(),
        one.message_id()
    );
    send_cbd("other").await.unwrap();
    let got = receive(&t, &cbd, 1).await;
    let dedup = &got[0].attributes().unwrap()[&MessageSystemAttributeName::MessageDeduplicationId];
    assert_eq!(dedup.len(), 64, "SHA-256 of the body");
}

#[tokio::test]
async fn dedup_scope_per_group() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo", &[("DeduplicationScope", "messageGroup")]).await;
    let send_id = |group: &'static str| {
        t.client
            .send_message()
            .queue_url(&url)
            .message_body("b")
            .message_group_id(group)
            .message_deduplication_id("d")
            .send()
    };
    let a = send_id("a").await.unwrap();
    let b = send_id("b").await.unwrap();
    assert_ne!(a.message_id(), b.message_id());
    assert_eq!(send_id("a").await.unwrap().message_id(), a.message_id());
    assert_eq!(t.counts(&url).await.0, 2);
}

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
