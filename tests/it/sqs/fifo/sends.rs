//! FIFO sends: the queue type's rules, what a send needs, sequence numbers, the deduplication
//! window, content-based ids and per-group scope.

use super::{fifo, receive};
use crate::common::{expect_code, message, TestServer};
use aws_sdk_sqs::types::{
    MessageSystemAttributeName, QueueAttributeName, SendMessageBatchRequestEntry,
};

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
