//! What go-cloud's recordings of AWS show (google/go-cloud, `pubsub/awssnssqs/testdata`,
//! recorded against us-east-2 in 2025-03 and 2026-03), call for call against sqslite: a nack
//! of a message already acked, the empty bodies of DeleteQueue and SetQueueAttributes, and
//! PublishBatch's `<Failed/>`. go-cloud's own driver runs against sqslite in compat/go.

use crate::common::entries::{change_entry, delete_entry};

use crate::common::{sns, TestServer};

/// TestDoubleAck.replay: three messages received, two acked by DeleteMessageBatch twice
/// (both times all Successful), then all three nacked: the two gone ones fail with
/// `ReceiptHandleIsInvalid` (the message without a final period, SenderFault true), the
/// third succeeds. go-cloud's driver ignores exactly that code when it nacks.
#[tokio::test]
async fn nacking_an_acked_message_fails_that_entry_as_recorded() {
    let t = TestServer::start().await;
    let url = t.create_queue("double-ack").await;
    for body in ["0", "1", "2"] {
        t.send(&url, body).await;
    }
    let got = t.client.receive_message().queue_url(&url);
    let got = got.max_number_of_messages(3).send().await.unwrap();
    let handles: Vec<String> = got
        .messages()
        .iter()
        .map(|m| m.receipt_handle.clone().unwrap())
        .collect();
    for _ in 0..2 {
        let acked = t
            .client
            .delete_message_batch()
            .queue_url(&url)
            .entries(delete_entry("0", &handles[0]))
            .entries(delete_entry("1", &handles[1]))
            .send()
            .await
            .unwrap();
        assert_eq!(acked.successful.len(), 2);
        assert!(acked.failed.is_empty());
    }
    let nacked = t
        .client
        .change_message_visibility_batch()
        .queue_url(&url)
        .entries(change_entry("0", &handles[0], 1))
        .entries(change_entry("1", &handles[1], 1))
        .entries(change_entry("2", &handles[2], 1))
        .send()
        .await
        .unwrap();
    let ok: Vec<&str> = nacked
        .successful
        .iter()
        .map(aws_sdk_sqs::types::ChangeMessageVisibilityBatchResultEntry::id)
        .collect();
    assert_eq!(ok, ["2"]);
    assert_eq!(nacked.failed.len(), 2);
    for f in &nacked.failed {
        assert_eq!(f.code(), "ReceiptHandleIsInvalid");
        assert_eq!(
            f.message(),
            Some("Message does not exist or is not available for visibility timeout change")
        );
        assert!(f.sender_fault());
    }
    // The single call keeps its own answer.
    let single = t.client.change_message_visibility().queue_url(&url);
    let single = single.receipt_handle(&handles[0]).visibility_timeout(1);
    let single = single.send().await.unwrap_err();
    assert_eq!(crate::common::code(&single), "InvalidParameterValue");
}

/// SetQueueAttributes and DeleteQueue answer 200 with `Content-Length: 0` and the JSON
/// content type; the other actions without output keep `{}` [unverified].
#[tokio::test]
async fn set_queue_attributes_and_delete_queue_answer_no_body_in_json() {
    let t = TestServer::start().await;
    let url = t.create_queue("empty").await;
    let queue = serde_json::json!({ "QueueUrl": url });
    let set = serde_json::json!({ "QueueUrl": url, "Attributes": {"DelaySeconds": "1"} });
    for (action, body) in [
        ("SetQueueAttributes", set.to_string()),
        ("DeleteQueue", queue.to_string()),
    ] {
        let got = t.json(action, &body).await;
        assert_eq!(got.status, 200, "{action}: {}", got.body);
        assert_eq!(got.body, "", "{action}");
        assert_eq!(got.header("content-length"), Some("0"), "{action}");
        assert_eq!(
            got.header("content-type"),
            Some("application/x-amz-json-1.0"),
            "{action}"
        );
    }
    let other = t.create_queue("other").await;
    let purged = t
        .json(
            "PurgeQueue",
            &serde_json::json!({ "QueueUrl": other }).to_string(),
        )
        .await;
    assert_eq!((purged.status, purged.body.as_str()), (200, "{}"));
}

/// TestBatching.replay (SNS topics): `<Failed/>` comes first and stays, empty, when every
/// entry was published.
#[tokio::test]
async fn publish_batch_keeps_an_empty_failed_first() {
    let s = sns::start().await;
    let topic = s.topic("batched", &[]).await;
    let body = format!(
        "Action=PublishBatch&TopicArn={}&PublishBatchRequestEntries.member.1.Id=0&PublishBatchRequestEntries.member.1.Message=x",
        form_urlencoded::byte_serialize(topic.as_bytes()).collect::<String>()
    );
    let got =
        s.t.raw(
            "POST",
            "/",
            &[("content-type", "application/x-www-form-urlencoded")],
            &body,
        )
        .await;
    assert_eq!(got.status, 200, "{}", got.body);
    let result = got.body.split("<PublishBatchResult>").nth(1).unwrap();
    assert!(
        result.starts_with("<Failed></Failed><Successful><member><MessageId>"),
        "{result}"
    );
    assert!(
        result.contains("</MessageId><Id>0</Id></member></Successful>"),
        "{result}"
    );
}
