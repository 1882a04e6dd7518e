//! The rules every batch action shares, and per-entry failures beside successes.

use crate::common::entries::{change_entry, delete_entry};
use crate::common::{expect_code, message, TestServer};
use aws_sdk_sqs::types::SendMessageBatchRequestEntry;

fn entry(id: &str, body: &str) -> SendMessageBatchRequestEntry {
    SendMessageBatchRequestEntry::builder()
        .id(id)
        .message_body(body)
        .build()
        .unwrap()
}

#[tokio::test]
async fn send_batch_reports_each_entry() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let out = t
        .client
        .send_message_batch()
        .queue_url(&url)
        .entries(entry("ok-1", "hello"))
        .entries(entry("bad", "bad \u{1}"))
        .entries(
            SendMessageBatchRequestEntry::builder()
                .id("late")
                .message_body("x")
                .delay_seconds(5)
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    let ok: Vec<&str> = out
        .successful()
        .iter()
        .map(aws_sdk_sqs::types::SendMessageBatchResultEntry::id)
        .collect();
    assert_eq!(ok, ["ok-1", "late"]);
    assert_eq!(
        out.successful()[0].md5_of_message_body(),
        "5d41402abc4b2a76b9719d911017c592"
    );
    let failed = &out.failed()[0];
    assert_eq!(
        (failed.id(), failed.code(), failed.sender_fault()),
        ("bad", "InvalidMessageContents", true)
    );
    assert_eq!(t.counts(&url).await, (1, 0, 1));
}

#[tokio::test]
async fn whole_batch_errors() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let mut many = t.client.send_message_batch().queue_url(&url);
    for i in 0..11 {
        many = many.entries(entry(&format!("e{i}"), "x"));
    }
    let err = many.send().await.unwrap_err();
    assert!(err
        .as_service_error()
        .unwrap()
        .is_too_many_entries_in_batch_request());
    assert_eq!(
        message(&err),
        "Maximum number of entries per request are 10. You have sent 11."
    );

    let err = t
        .client
        .send_message_batch()
        .queue_url(&url)
        .entries(entry("same", "a"))
        .entries(entry("same", "b"))
        .send()
        .await
        .unwrap_err();
    assert!(err
        .as_service_error()
        .unwrap()
        .is_batch_entry_ids_not_distinct());
    ids_and_sizes_are_checked_before_anything_is_enqueued(&t, &url).await;

    let r = t
        .json(
            "DeleteMessageBatch",
            &format!(r#"{{"QueueUrl":"{url}","Entries":[]}}"#),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.header("x-amzn-query-error"),
        Some("AWS.SimpleQueueService.EmptyBatchRequest;Sender")
    );
}

/// An entry id with a space and a batch over 1 MiB fail whole, leaving the queue empty.
async fn ids_and_sizes_are_checked_before_anything_is_enqueued(t: &TestServer, url: &str) {
    let err = t
        .client
        .send_message_batch()
        .queue_url(url)
        .entries(entry("no spaces", "a"))
        .send()
        .await
        .unwrap_err();
    assert!(err.as_service_error().unwrap().is_invalid_batch_entry_id());

    let err = t
        .client
        .send_message_batch()
        .queue_url(url)
        .entries(entry("a", &"x".repeat(600_000)))
        .entries(entry("b", &"x".repeat(600_000)))
        .send()
        .await
        .unwrap_err();
    assert!(err.as_service_error().unwrap().is_batch_request_too_long());
    assert_eq!(
        message(&err),
        "Batch requests cannot be longer than 1048576 bytes. You have sent 1200000 bytes."
    );
    assert_eq!(
        t.counts(url).await,
        (0, 0, 0),
        "nothing of a failed batch is enqueued"
    );
}

#[tokio::test]
async fn delete_and_change_visibility_batches() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    for i in 0..3 {
        t.send(&url, &format!("m{i}")).await;
    }
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(3)
        .send()
        .await
        .unwrap();
    let handles: Vec<String> = got
        .messages()
        .iter()
        .map(|m| m.receipt_handle().unwrap().to_owned())
        .collect();
    let out = t
        .client
        .change_message_visibility_batch()
        .queue_url(&url)
        .entries(change_entry("a", &handles[0], 0))
        .entries(change_entry("b", "garbage", 0))
        .send()
        .await
        .unwrap();
    assert_eq!(out.successful().len(), 1);
    assert_eq!(out.failed()[0].code(), "ReceiptHandleIsInvalid");
    assert_eq!(t.counts(&url).await, (1, 2, 0));
    let out = t
        .client
        .delete_message_batch()
        .queue_url(&url)
        .entries(delete_entry("x", &handles[1]))
        .entries(delete_entry("y", &handles[2]))
        .entries(delete_entry("z", "nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(out.successful().len(), 2);
    assert_eq!(out.failed().len(), 1);
    assert_eq!(t.counts(&url).await, (1, 0, 0));
    expect_code(
        t.client
            .delete_message_batch()
            .queue_url(format!("{}/000000000000/missing", t.endpoint()))
            .entries(delete_entry("x", "h"))
            .send()
            .await,
        "AWS.SimpleQueueService.NonExistentQueue",
    );
}
