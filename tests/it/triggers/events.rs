//! Lambda-style triggers on standard queues: the event's shape, batching on the manual
//! clock, whole-batch failures, partial batch responses and redrive to the DLQ, with a
//! recording function (`common::lambda`) and the real SDK checking the queues.

use aws_sdk_sqs::types::MessageAttributeValue;
use sqslite::QueueDecl;

use crate::common::lambda::{Handler, Reply};
use crate::common::{TestServer, T0};

use super::{bodies, fail_bad, mapping, reporting, send_all, serve};

const INVOCATIONS: &str = "sqslite_trigger_invocations_total";
const ERRORS: &str = "sqslite_trigger_errors_total";

#[tokio::test]
async fn the_event_has_lambdas_sqs_shape() {
    let f = Handler::start(vec![]).await;
    let s = serve(&f, QueueDecl::new("orders"), mapping("orders")).await;
    let url = s.server.queue_url("orders");
    let sent = send_with_string_and_binary_attributes(&s, &url).await;
    let event = &f.wait_events(1).await[0];
    let record = &event["Records"][0];
    let keys: Vec<&str> = record
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "messageId",
            "receiptHandle",
            "body",
            "attributes",
            "messageAttributes",
            "md5OfMessageAttributes",
            "md5OfBody",
            "eventSource",
            "eventSourceARN",
            "awsRegion"
        ]
    );
    assert_eq!(record["messageId"], sent.message_id.unwrap().as_str());
    assert_eq!(record["body"], "hello");
    assert_eq!(
        record["md5OfBody"],
        sent.md5_of_message_body.unwrap().as_str()
    );
    assert_eq!(
        record["md5OfMessageAttributes"],
        sent.md5_of_message_attributes.unwrap().as_str()
    );
    assert_eq!(record["eventSource"], "aws:sqs");
    assert_eq!(
        record["eventSourceARN"],
        "arn:aws:sqs:us-east-1:000000000000:orders"
    );
    assert_eq!(record["awsRegion"], "us-east-1");
    assert_attributes(record);
    s.wait_counts(&url, (0, 0)).await;
}

/// Sends "hello" with a String and a Binary message attribute.
async fn send_with_string_and_binary_attributes(
    s: &TestServer,
    url: &str,
) -> aws_sdk_sqs::operation::send_message::SendMessageOutput {
    s.client
        .send_message()
        .queue_url(url)
        .message_body("hello")
        .message_attributes(
            "kind",
            MessageAttributeValue::builder()
                .data_type("String")
                .string_value("order")
                .build()
                .unwrap(),
        )
        .message_attributes(
            "blob",
            MessageAttributeValue::builder()
                .data_type("Binary")
                .binary_value(vec![1u8, 2, 3].into())
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap()
}

/// The system attributes and the message attributes in Lambda's shapes.
fn assert_attributes(record: &serde_json::Value) {
    let attributes = &record["attributes"];
    assert_eq!(attributes["ApproximateReceiveCount"], "1");
    assert_eq!(attributes["SentTimestamp"], T0.to_string());
    assert_eq!(
        attributes["ApproximateFirstReceiveTimestamp"],
        T0.to_string()
    );
    assert!(attributes["SenderId"].is_string());
    assert!(attributes.get("MessageGroupId").is_none());
    assert_eq!(
        record["messageAttributes"],
        serde_json::json!({
            "blob": {"binaryValue": "AQID", "stringListValues": [], "binaryListValues": [], "dataType": "Binary"},
            "kind": {"stringValue": "order", "stringListValues": [], "binaryListValues": [], "dataType": "String"},
        })
    );
}

#[tokio::test]
async fn the_batching_window_runs_on_the_servers_clock() {
    let f = Handler::start(vec![]).await;
    let mut m = mapping("orders");
    m.batch_size = 5;
    m.maximum_batching_window = 10;
    let s = serve(&f, QueueDecl::new("orders"), m).await;
    let url = s.server.queue_url("orders");
    send_all(&s, &url, &["a", "b", "c"]).await;
    // Gathered, then parked until the window closes: nothing is invoked yet.
    s.wait_counts(&url, (0, 3)).await;
    s.wait_parked("orders", 1).await;
    assert!(f.events().is_empty());
    s.advance(10);
    assert_eq!(bodies(&f.wait_events(1).await[0]), ["a", "b", "c"]);
    s.wait_counts(&url, (0, 0)).await;
    // A full batch goes at once, the clock standing still.
    send_all(&s, &url, &["d", "e", "f", "g", "h"]).await;
    assert_eq!(
        bodies(&f.wait_events(2).await[1]),
        ["d", "e", "f", "g", "h"]
    );
    s.wait_counts(&url, (0, 0)).await;
}

#[tokio::test]
async fn a_function_error_returns_the_whole_batch_at_the_visibility_timeout() {
    let f = Handler::start(vec![Reply::status(500)]).await;
    let s = serve(&f, QueueDecl::new("orders"), mapping("orders")).await;
    let url = s.server.queue_url("orders");
    send_all(&s, &url, &["a", "b"]).await;
    assert_eq!(bodies(&f.wait_events(1).await[0]), ["a", "b"]);
    s.wait_counter(ERRORS, "orders", 1).await;
    assert_eq!(
        s.counts(&url).await.1,
        2,
        "the failed batch stays in flight"
    );
    s.advance(30);
    let again = &f.wait_events(2).await[1];
    assert_eq!(bodies(again), ["a", "b"]);
    assert_eq!(
        again["Records"][0]["attributes"]["ApproximateReceiveCount"],
        "2"
    );
    s.wait_counts(&url, (0, 0)).await;
    assert_eq!(s.trigger_counter(INVOCATIONS, "orders").await, 2);
}

#[tokio::test]
async fn a_partial_batch_response_deletes_only_the_successes() {
    let f = Handler::answering(fail_bad).await;
    let s = serve(&f, QueueDecl::new("orders"), reporting("orders")).await;
    let url = s.server.queue_url("orders");
    send_all(&s, &url, &["ok1", "bad", "ok2"]).await;
    assert_eq!(bodies(&f.wait_events(1).await[0]), ["ok1", "bad", "ok2"]);
    s.wait_counts(&url, (0, 1)).await;
    assert_eq!(
        s.trigger_counter("sqslite_trigger_partial_failures_total", "orders")
            .await,
        1
    );
    s.advance(30);
    assert_eq!(bodies(&f.wait_events(2).await[1]), ["bad"]);
    // Without ReportBatchItemFailures the same answer is a plain success.
    let g = Handler::answering(fail_bad).await;
    let t = serve(&g, QueueDecl::new("orders"), mapping("orders")).await;
    let url = t.server.queue_url("orders");
    send_all(&t, &url, &["ok", "bad"]).await;
    g.wait_events(1).await;
    t.wait_counts(&url, (0, 0)).await;
}

#[tokio::test]
async fn a_malformed_partial_batch_response_fails_the_whole_batch() {
    let malformed = [
        r#"{"batchItemFailures":[{"itemIdentifier":""}]}"#,
        r#"{"batchItemFailures":[{"itemIdentifier":null}]}"#,
        r#"{"batchItemFailures":[{"itemIdentifier":"no-such-message"}]}"#,
        r#"{"batchItemFailures":[{"messageId":"x"}]}"#,
    ];
    let mut replies: Vec<Reply> = malformed.iter().map(|b| Reply::ok(b)).collect();
    // An empty object is a complete success.
    replies.push(Reply::ok("{}"));
    let f = Handler::start(replies).await;
    let s = serve(&f, QueueDecl::new("orders"), reporting("orders")).await;
    let url = s.server.queue_url("orders");
    send_all(&s, &url, &["a", "b"]).await;
    for n in 1..=malformed.len() {
        s.wait_counter(ERRORS, "orders", n as u64).await;
        assert_eq!(s.counts(&url).await.1, 2, "reply {n} kept the whole batch");
        s.advance(30);
    }
    assert_eq!(bodies(&f.wait_events(5).await[4]), ["a", "b"]);
    s.wait_counts(&url, (0, 0)).await;
}

#[tokio::test]
async fn a_message_that_keeps_failing_is_redriven_to_the_dlq() {
    let f = Handler::start(vec![Reply::status(500), Reply::status(500)]).await;
    let orders = QueueDecl::new("orders").dead_letter("orders-dlq", 2);
    let s = serve(&f, orders, mapping("orders")).await;
    let (url, dlq) = (
        s.server.queue_url("orders"),
        s.server.queue_url("orders-dlq"),
    );
    s.send(&url, "poison").await;
    for n in 1..=2 {
        s.wait_counter(ERRORS, "orders", n).await;
        s.advance(30);
    }
    // The third receive moves it instead of delivering it.
    s.wait_counts(&dlq, (1, 0)).await;
    s.wait_counts(&url, (0, 0)).await;
    assert_eq!(f.events().len(), 2);
}
