//! Fault rules aimed at SNS, seen through the real `aws-sdk-sns` client: SNS actions fail
//! with SNS's own codes and statuses (by action and topic), a rule keeps to the service it
//! names, and a delivery fault counts as a failed delivery that goes to the subscription's
//! dead-letter queue.

use serde_json::{json, Value};

use crate::common::sns::{start, Sns};
use crate::common::{code, expect_code, message};

async fn add_rule(s: &Sns, rule: &Value) -> (u16, Value) {
    let r =
        s.t.raw(
            "POST",
            "/_sqslite/faults",
            &[("content-type", "application/json")],
            &rule.to_string(),
        )
        .await;
    (r.status, serde_json::from_str(&r.body).unwrap())
}

#[tokio::test]
async fn sns_actions_fail_with_snss_own_error_shape_by_action_and_topic() {
    let s = start().await;
    let orders = s.topic("orders", &[]).await;
    let other = s.topic("other", &[]).await;
    let rule = json!({"action": "Publish", "topic": "orders", "error": "Throttled", "count": 1});
    assert_eq!(add_rule(&s, &rule).await.0, 201);
    let err = expect_code(
        s.sns
            .publish()
            .topic_arn(&orders)
            .message("hi")
            .send()
            .await,
        "Throttled",
    );
    assert_eq!(message(&err), "Rate exceeded");
    assert_eq!(err.raw_response().map(|r| r.status().as_u16()), Some(429));
    // Another topic, and the next call once the count is spent, go through.
    s.publish(&other, "hi").await;
    s.publish(&orders, "hi").await;

    let rule = json!({"action": "Subscribe", "error": "InternalError", "message": "boom"});
    assert_eq!(add_rule(&s, &rule).await.0, 201);
    let (_, queue) = s.queue("audit", &[]).await;
    let err = s
        .sns
        .subscribe()
        .topic_arn(&orders)
        .protocol("sqs")
        .endpoint(&queue)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        (code(&err), message(&err)),
        ("InternalError".into(), "boom".into())
    );
    assert_eq!(err.raw_response().map(|r| r.status().as_u16()), Some(500));
    let subs = s.sns.list_subscriptions().send().await.unwrap();
    assert!(
        subs.subscriptions.unwrap_or_default().is_empty(),
        "the action never ran"
    );
}

#[tokio::test]
async fn a_rule_keeps_to_the_service_it_names() {
    let s = start().await;
    let orders = s.topic("orders", &[]).await;
    // An SQS code on an SNS action, a queue on an SNS action: refused with the reason.
    let (status, body) = add_rule(
        &s,
        &json!({"action": "Publish", "error": "RequestThrottled"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body.to_string()
            .contains("not an error code of the SNS error table"),
        "{body}"
    );
    let (status, body) = add_rule(
        &s,
        &json!({"action": "Publish", "queue": "q", "error": "Throttled"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body.to_string().contains("`queue` applies to SQS"),
        "{body}"
    );
    // A rule naming no service with a code only SQS has leaves SNS calls alone.
    let rule = json!({"error": "RequestThrottled"});
    assert_eq!(add_rule(&s, &rule).await.0, 201);
    s.publish(&orders, "hi").await;
    expect_code(s.t.client.list_queues().send().await, "RequestThrottled");
}

#[tokio::test]
async fn a_delivery_fault_is_a_failed_delivery_that_goes_to_the_dead_letter_queue() {
    let s = start().await;
    let orders = s.topic("orders", &[]).await;
    let (audit, audit_arn) = s.queue("audit", &[]).await;
    let (dlq, dlq_arn) = s.queue("audit-dlq", &[]).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}"}}"#);
    s.subscribe(
        &orders,
        &audit_arn,
        &[("RawMessageDelivery", "true"), ("RedrivePolicy", &redrive)],
    )
    .await;
    let rule = json!({"action": "Deliver", "topic": "orders", "queue": "audit", "error": "KMS.ThrottlingException", "count": 1});
    assert_eq!(add_rule(&s, &rule).await.0, 201);
    // The publish itself succeeds, as on SNS; the message goes to the DLQ instead.
    s.publish(&orders, "first").await;
    assert!(s.receive(&audit).await.is_empty());
    let dead = s.receive(&dlq).await;
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].body(), Some("first"));
    s.publish(&orders, "second").await;
    assert_eq!(s.receive(&audit).await[0].body(), Some("second"));
    let (status, body) = add_rule(&s, &json!({"action": "Deliver", "latency_ms": 5})).await;
    assert_eq!(status, 400);
    assert!(body.to_string().contains("fails deliveries"), "{body}");
}
