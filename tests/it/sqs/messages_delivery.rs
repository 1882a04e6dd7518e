//! When a standard queue delivers a message, against the real SDK with a manual clock:
//! visibility and receipt handles, delays, retention, receive limits and order, purge, and
//! fair queues serving a quiet tenant.

use crate::common::{expect_code, message, TestServer};
use aws_sdk_sqs::types::{MessageSystemAttributeName, QueueAttributeName};

#[tokio::test]
async fn visibility_timeout_redelivers_with_a_new_handle() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with("q", &[("VisibilityTimeout", "30")])
        .await;
    t.send(&url, "m").await;
    let first = t.receive(&url).await;
    let h1 = first.messages()[0].receipt_handle().unwrap().to_owned();
    t.advance(29);
    assert!(t.receive(&url).await.messages().is_empty());
    t.advance(1);
    let second = t
        .client
        .receive_message()
        .queue_url(&url)
        .message_system_attribute_names(MessageSystemAttributeName::ApproximateReceiveCount)
        .send()
        .await
        .unwrap();
    let m = &second.messages()[0];
    assert_ne!(m.receipt_handle().unwrap(), h1);
    assert_eq!(
        m.attributes().unwrap()[&MessageSystemAttributeName::ApproximateReceiveCount],
        "2"
    );
    // An older handle still deletes (standard queues), and deleting twice succeeds.
    for _ in 0..2 {
        t.delete(&url, &h1).await;
    }
    assert_eq!(t.counts(&url).await, (0, 0, 0));
}

#[tokio::test]
async fn receive_visibility_override_and_change_visibility() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.send(&url, "m").await;
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .visibility_timeout(5)
        .send()
        .await
        .unwrap();
    let handle = got.messages()[0].receipt_handle().unwrap().to_owned();
    t.set_visibility(&url, &handle, 100).await;
    t.advance(99);
    assert_eq!(t.counts(&url).await, (0, 1, 0));
    t.advance(1);
    assert_eq!(t.counts(&url).await, (1, 0, 0));
    // An expired (but latest) handle may hide the message again.
    t.set_visibility(&url, &handle, 10).await;
    assert_eq!(t.counts(&url).await, (0, 1, 0));
    t.set_visibility(&url, &handle, 0).await;
    assert_eq!(t.counts(&url).await, (1, 0, 0));
    expect_code(
        t.client
            .change_message_visibility()
            .queue_url(&url)
            .receipt_handle(&handle)
            .visibility_timeout(43_201)
            .send()
            .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn twelve_hour_cap_counts_from_first_receive() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.send(&url, "m").await;
    let got = t.receive(&url).await;
    let handle = got.messages()[0].receipt_handle().unwrap().to_owned();
    t.advance(20);
    let err = expect_code(
        t.client
            .change_message_visibility()
            .queue_url(&url)
            .receipt_handle(&handle)
            .visibility_timeout(43_200)
            .send()
            .await,
        "InvalidParameterValue",
    );
    assert!(message(&err).contains("43200"), "{}", message(&err));
    t.set_visibility(&url, &handle, 43_180).await;
}

#[tokio::test]
async fn receipt_handle_errors() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let other = t.create_queue("other").await;
    let err = t
        .client
        .delete_message()
        .queue_url(&url)
        .receipt_handle("garbage")
        .send()
        .await
        .unwrap_err();
    assert!(err
        .as_service_error()
        .unwrap()
        .is_receipt_handle_is_invalid());
    assert_eq!(
        message(&err),
        "The input receipt handle \"garbage\" is not a valid receipt handle."
    );
    t.send(&other, "m").await;
    let got = t.receive(&other).await;
    let handle = got.messages()[0].receipt_handle().unwrap();
    expect_code(
        t.client
            .delete_message()
            .queue_url(&url)
            .receipt_handle(handle)
            .send()
            .await,
        "ReceiptHandleIsInvalid",
    );
    t.delete(&other, handle).await;
    let err = t
        .client
        .change_message_visibility()
        .queue_url(&other)
        .receipt_handle(handle)
        .visibility_timeout(5)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        format!("Value {handle} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.")
    );
}

#[tokio::test]
async fn delays_queue_and_per_message() {
    let t = TestServer::start().await;
    let url = t.create_queue_with("q", &[("DelaySeconds", "10")]).await;
    t.send(&url, "queue delay").await;
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("own delay")
        .delay_seconds(2)
        .send()
        .await
        .unwrap();
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("no delay")
        .delay_seconds(0)
        .send()
        .await
        .unwrap();
    assert_eq!(t.counts(&url).await, (1, 0, 2));
    t.advance(2);
    assert_eq!(t.counts(&url).await, (2, 0, 1));
    t.advance(8);
    assert_eq!(t.counts(&url).await, (3, 0, 0));
    expect_code(
        t.client
            .send_message()
            .queue_url(&url)
            .message_body("x")
            .delay_seconds(901)
            .send()
            .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn retention_expires_messages_even_in_flight() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with("q", &[("MessageRetentionPeriod", "60")])
        .await;
    t.send(&url, "a").await;
    t.client
        .receive_message()
        .queue_url(&url)
        .visibility_timeout(120)
        .send()
        .await
        .unwrap();
    t.send(&url, "b").await;
    t.advance(59);
    assert_eq!(t.counts(&url).await, (1, 1, 0));
    t.advance(1);
    assert_eq!(t.counts(&url).await, (0, 0, 0));
}

#[tokio::test]
async fn receive_parameter_validation() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let err = t
        .client
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(11)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided."
    );
    let err = t
        .client
        .receive_message()
        .queue_url(&url)
        .wait_time_seconds(21)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Value 21 for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided."
    );
    expect_code(
        t.client
            .receive_message()
            .queue_url(&url)
            .visibility_timeout(-1)
            .send()
            .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn receive_returns_up_to_max_in_send_order() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    for i in 0..15 {
        t.send(&url, &format!("m{i}")).await;
    }
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .send()
        .await
        .unwrap();
    let bodies: Vec<&str> = got.messages().iter().filter_map(|m| m.body()).collect();
    assert_eq!(bodies, (0..10).map(|i| format!("m{i}")).collect::<Vec<_>>());
    let one = t.receive(&url).await;
    assert_eq!(one.messages().len(), 1);
    assert_eq!(t.counts(&url).await, (4, 11, 0));
}

#[tokio::test]
async fn purge_removes_in_flight_messages_too() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.send(&url, "a").await;
    t.send(&url, "b").await;
    t.receive(&url).await;
    t.client.purge_queue().queue_url(&url).send().await.unwrap();
    assert_eq!(t.counts(&url).await, (0, 0, 0));
    let got = t
        .client
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(QueueAttributeName::ApproximateNumberOfMessages)
        .send()
        .await
        .unwrap();
    assert_eq!(
        got.attributes().unwrap()[&QueueAttributeName::ApproximateNumberOfMessages],
        "0"
    );
}

#[tokio::test]
async fn fair_queue_serves_a_quiet_tenant_behind_a_noisy_backlog() {
    let t = TestServer::start().await;
    let url = t.create_queue("tenants").await;
    for _ in 0..10 {
        let mut batch = t.client.send_message_batch().queue_url(&url);
        for i in 0..10 {
            batch = batch.entries(
                aws_sdk_sqs::types::SendMessageBatchRequestEntry::builder()
                    .id(format!("e{i}"))
                    .message_body("noisy")
                    .message_group_id("big-tenant")
                    .build()
                    .unwrap(),
            );
        }
        batch.send().await.unwrap();
    }
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("quiet")
        .message_group_id("small-tenant")
        .send()
        .await
        .unwrap();
    // The noisy tenant's consumers hold 30 messages in flight...
    for _ in 0..3 {
        let got = t
            .client
            .receive_message()
            .queue_url(&url)
            .max_number_of_messages(10)
            .send()
            .await
            .unwrap();
        assert!(got.messages().iter().all(|m| m.body() == Some("noisy")));
    }
    // ...so the quiet tenant's message, sent after 100 others, is served next.
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(1)
        .send()
        .await
        .unwrap();
    assert_eq!(got.messages()[0].body(), Some("quiet"));
}
