//! Fault rules match the queue a decoded action names, and only requests that decode.

use serde_json::json;

use crate::common::{expect_code, TestServer};

async fn arm(s: &TestServer, rule: &serde_json::Value) {
    let r = s
        .raw(
            "POST",
            "/_sqslite/faults",
            &[("content-type", "application/json")],
            &rule.to_string(),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
}

/// A move task names its queue by SourceArn only: before, a rule's `queue` never matched it.
#[tokio::test]
async fn a_rule_on_a_queue_matches_a_move_task_naming_it_by_arn() {
    let s = TestServer::start().await;
    let dlq = s.create_queue("dlq").await;
    let arn = s
        .client
        .get_queue_attributes()
        .queue_url(&dlq)
        .attribute_names(aws_sdk_sqs::types::QueueAttributeName::QueueArn)
        .send()
        .await
        .unwrap()
        .attributes
        .unwrap()[&aws_sdk_sqs::types::QueueAttributeName::QueueArn]
        .clone();
    arm(&s, &json!({"queue": "dlq", "error": "InternalError"})).await;
    expect_code(
        s.client
            .start_message_move_task()
            .source_arn(&arn)
            .send()
            .await,
        "InternalError",
    );
}

/// A request that does not decode gets its own error, not the armed one: the fault is for
/// calls the action would have run.
#[tokio::test]
async fn a_malformed_request_gets_its_validation_error_while_a_fault_is_armed() {
    let s = TestServer::start().await;
    s.create_queue("jobs").await;
    arm(
        &s,
        &json!({"action": "SendMessage", "error": "ServiceUnavailable"}),
    )
    .await;
    let r = s
        .raw(
            "POST",
            "/",
            &[
                ("content-type", "application/x-amz-json-1.0"),
                ("x-amz-target", "AmazonSQS.SendMessage"),
            ],
            r#"{"QueueUrl": 5, "MessageBody": "x"}"#,
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("SerializationException"), "{}", r.body);
}
