//! Older receipt handles: on a standard queue a handle from an earlier receive still changes
//! the visibility of a message in flight under a newer one (single, batch, both protocols) and
//! still deletes it; a FIFO queue accepts only the latest.

use crate::common::{message, TestServer};
use aws_sdk_sqs::types::ChangeMessageVisibilityBatchRequestEntry;

/// Receives the one message twice (the first receive's visibility lapsing in between) and
/// returns (older handle, newer handle); the message is left in flight for 30 s.
async fn received_twice(t: &TestServer, url: &str) -> (String, String) {
    let handle = |out: aws_sdk_sqs::operation::receive_message::ReceiveMessageOutput| {
        out.messages()[0].receipt_handle().unwrap().to_owned()
    };
    let first = handle(t.receive(url).await);
    t.advance(30);
    let second = handle(t.receive(url).await);
    assert_ne!(first, second);
    assert_eq!(t.counts(url).await, (0, 1, 0));
    (first, second)
}

#[tokio::test]
async fn an_older_handle_changes_visibility_on_a_standard_queue() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.send(&url, "m").await;
    let (older, _) = received_twice(&t, &url).await;
    t.set_visibility(&url, &older, 0).await;
    assert_eq!(t.counts(&url).await, (1, 0, 0), "visible at once");
    let (older, _) = received_twice(&t, &url).await;
    t.set_visibility(&url, &older, 100).await;
    t.advance(99);
    assert_eq!(t.counts(&url).await, (0, 1, 0), "extended past the 30 s");
    t.advance(1);
    assert_eq!(t.counts(&url).await, (1, 0, 0));
}

#[tokio::test]
async fn an_older_handle_works_in_the_batch_form_and_over_query() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.send(&url, "m").await;
    let (older, _) = received_twice(&t, &url).await;
    let entry = ChangeMessageVisibilityBatchRequestEntry::builder()
        .id("e1")
        .receipt_handle(&older)
        .visibility_timeout(0)
        .build()
        .unwrap();
    let out = t
        .client
        .change_message_visibility_batch()
        .queue_url(&url)
        .entries(entry)
        .send()
        .await
        .unwrap();
    assert_eq!(out.successful().len(), 1);
    assert!(out.failed().is_empty());
    assert_eq!(t.counts(&url).await, (1, 0, 0));
    let (older, _) = received_twice(&t, &url).await;
    let r = t
        .query(&[
            ("Action", "ChangeMessageVisibility"),
            ("QueueUrl", &url),
            ("ReceiptHandle", &older),
            ("VisibilityTimeout", "0"),
        ])
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(t.counts(&url).await, (1, 0, 0));
    // And an older handle deletes.
    let (older, _) = received_twice(&t, &url).await;
    t.delete(&url, &older).await;
    assert_eq!(t.counts(&url).await, (0, 0, 0));
}

#[tokio::test]
async fn a_fifo_queue_accepts_only_the_latest_handle() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with(
            "q.fifo",
            &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
        )
        .await;
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("m")
        .message_group_id("g")
        .send()
        .await
        .unwrap();
    let (older, newer) = received_twice(&t, &url).await;
    let err = t
        .client
        .change_message_visibility()
        .queue_url(&url)
        .receipt_handle(&older)
        .visibility_timeout(0)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        format!("Value {older} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.")
    );
    assert_eq!(t.counts(&url).await, (0, 1, 0));
    t.set_visibility(&url, &newer, 0).await;
    assert_eq!(t.counts(&url).await, (1, 0, 0));
}
