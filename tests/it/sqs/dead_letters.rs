//! Dead-letter queues: redrive policies, receive-time moves, source listing and move tasks.

#[path = "../../../examples/poison_drill.rs"]
mod poison_drill;

use crate::common::{expect_code, expect_code_for, message, TestServer};
use aws_sdk_sqs::types::{MessageSystemAttributeName, QueueAttributeName};

fn arn(name: &str) -> String {
    format!("arn:aws:sqs:us-east-1:000000000000:{name}")
}

fn policy(dlq: &str, count: &str) -> String {
    format!(
        r#"{{"deadLetterTargetArn":"{}","maxReceiveCount":{count}}}"#,
        arn(dlq)
    )
}

#[tokio::test]
async fn poison_drill_numbers() {
    let t = TestServer::start().await;
    let sqs = poison_drill::client(&t.endpoint());
    let (without, _, _) = poison_drill::scenario(&sqs, "plain", None).await.unwrap();
    assert_eq!(
        without,
        poison_drill::Outcome {
            deliveries: 34,
            succeeded: 18,
            wasted: 16,
            left_in_queue: 2,
            in_dlq: 0
        }
    );
    let (with, url, dlq) = poison_drill::scenario(&sqs, "loans", Some(3))
        .await
        .unwrap();
    assert_eq!(
        with,
        poison_drill::Outcome {
            deliveries: 24,
            succeeded: 18,
            wasted: 6,
            left_in_queue: 0,
            in_dlq: 2
        }
    );
    let mut held = poison_drill::inspect_dlq(&sqs, &dlq).await.unwrap();
    held.sort();
    assert_eq!(
        held,
        vec![
            (r#"{"loanId": 13}"#.to_owned(), "4".to_owned(), arn("loans")),
            (r#"{"loanId": 7}"#.to_owned(), "4".to_owned(), arn("loans")),
        ]
    );
    let after = poison_drill::redrive_and_fix(&sqs, &url, &dlq)
        .await
        .unwrap();
    assert_eq!(
        (after.succeeded, after.left_in_queue, after.in_dlq),
        (2, 0, 0)
    );
}

#[tokio::test]
async fn redrive_policy_validation_and_canonical_form() {
    let t = TestServer::start().await;
    t.create_queue("dlq").await;
    t.create_queue_with("fifo-dlq.fifo", &[("FifoQueue", "true")])
        .await;
    let url = t
        .create_queue_with(
            "src",
            &[(
                "RedrivePolicy",
                &format!(
                    r#"{{"maxReceiveCount":"5","deadLetterTargetArn":"{}"}}"#,
                    arn("dlq")
                ),
            )],
        )
        .await;
    assert_eq!(t.attribute(&url, "RedrivePolicy").await, policy("dlq", "5"));
    for (bad, needle) in [
        (
            policy("dlq", "0"),
            "valid values are from 1 to 1000 both inclusive",
        ),
        (
            policy("dlq", "1001"),
            "valid values are from 1 to 1000 both inclusive",
        ),
        (policy("missing", "3"), "Dead letter target does not exist"),
        (policy("fifo-dlq.fifo", "3"), "same type"),
        ("not json".to_owned(), "RedrivePolicy"),
    ] {
        let err = expect_code_for(
            t.set_attribute(&url, QueueAttributeName::RedrivePolicy, &bad)
                .await,
            "InvalidParameterValue",
            &bad,
        );
        assert!(message(&err).contains(needle), "{bad}: {}", message(&err));
    }
    t.set_attribute(&url, QueueAttributeName::RedrivePolicy, "")
        .await
        .unwrap();
    assert_eq!(t.attribute(&url, "RedrivePolicy").await, "");
}

#[tokio::test]
async fn redrive_allow_policy_is_enforced() {
    let t = TestServer::start().await;
    let deny = t
        .create_queue_with(
            "deny",
            &[("RedriveAllowPolicy", r#"{"redrivePermission":"denyAll"}"#)],
        )
        .await;
    let by_queue = format!(
        r#"{{"redrivePermission":"byQueue","sourceQueueArns":["{}"]}}"#,
        arn("allowed")
    );
    t.create_queue_with("picky", &[("RedriveAllowPolicy", &by_queue)])
        .await;
    assert_eq!(
        t.attribute(&deny, "RedriveAllowPolicy").await,
        r#"{"redrivePermission":"denyAll"}"#
    );
    expect_code(
        t.try_create_queue("src", &[("RedrivePolicy", &policy("deny", "3"))])
            .await,
        "InvalidParameterValue",
    );
    expect_code(
        t.try_create_queue("other", &[("RedrivePolicy", &policy("picky", "3"))])
            .await,
        "InvalidParameterValue",
    );
    t.create_queue_with("allowed", &[("RedrivePolicy", &policy("picky", "3"))])
        .await;
    expect_code(
        t.try_create_queue(
            "x",
            &[(
                "RedriveAllowPolicy",
                r#"{"redrivePermission":"byQueue","sourceQueueArns":[]}"#,
            )],
        )
        .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn dead_lettered_message_keeps_identity_and_enqueue_time() {
    let t = TestServer::start().await;
    let dlq = t
        .create_queue_with("dlq", &[("MessageRetentionPeriod", "120")])
        .await;
    let src = t
        .create_queue_with("src", &[("RedrivePolicy", &policy("dlq", "1"))])
        .await;
    let id = t.send(&src, "poison").await;
    t.client
        .receive_message()
        .queue_url(&src)
        .visibility_timeout(0)
        .send()
        .await
        .unwrap();
    t.advance(100);
    let again = t.receive(&src).await;
    assert!(again.messages().is_empty(), "moved instead of delivered");
    assert_eq!(t.counts(&src).await, (0, 0, 0));
    assert_eq!(t.counts(&dlq).await, (1, 0, 0));
    let got = t
        .client
        .receive_message()
        .queue_url(&dlq)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .visibility_timeout(0)
        .send()
        .await
        .unwrap();
    let m = &got.messages()[0];
    assert_eq!(m.message_id(), Some(id.as_str()));
    let attrs = m.attributes().unwrap();
    assert_eq!(
        attrs[&MessageSystemAttributeName::DeadLetterQueueSourceArn],
        arn("src")
    );
    assert_eq!(
        attrs[&MessageSystemAttributeName::ApproximateReceiveCount],
        "2"
    );
    assert_eq!(
        attrs[&MessageSystemAttributeName::SentTimestamp],
        crate::common::T0.to_string()
    );
    // Retention counts from the original send: 120 s after it, the DLQ copy is gone too.
    t.advance(20);
    assert_eq!(t.counts(&dlq).await, (0, 0, 0));
}

#[tokio::test]
async fn deleting_the_dlq_keeps_messages_in_the_source() {
    let t = TestServer::start().await;
    let dlq = t.create_queue("dlq").await;
    let src = t
        .create_queue_with("src", &[("RedrivePolicy", &policy("dlq", "1"))])
        .await;
    t.send(&src, "m").await;
    t.client
        .receive_message()
        .queue_url(&src)
        .visibility_timeout(0)
        .send()
        .await
        .unwrap();
    t.client
        .delete_queue()
        .queue_url(&dlq)
        .send()
        .await
        .unwrap();
    let got = t.receive(&src).await;
    assert_eq!(got.messages().len(), 1, "still delivered from the source");
}

#[tokio::test]
async fn list_dead_letter_source_queues_paginates() {
    let t = TestServer::start().await;
    let dlq = t.create_queue("dlq").await;
    for name in ["a", "b", "c"] {
        t.create_queue_with(name, &[("RedrivePolicy", &policy("dlq", "3"))])
            .await;
    }
    t.create_queue("unrelated").await;
    let all = t
        .client
        .list_dead_letter_source_queues()
        .queue_url(&dlq)
        .send()
        .await
        .unwrap();
    assert_eq!(all.queue_urls().len(), 3);
    let page = t
        .client
        .list_dead_letter_source_queues()
        .queue_url(&dlq)
        .max_results(2)
        .send()
        .await
        .unwrap();
    assert_eq!(page.queue_urls().len(), 2);
    let rest = t
        .client
        .list_dead_letter_source_queues()
        .queue_url(&dlq)
        .max_results(2)
        .next_token(page.next_token().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(rest.queue_urls().len(), 1);
    assert!(rest.queue_urls()[0].ends_with("/c"));
    let raw = t
        .json(
            "ListDeadLetterSourceQueues",
            &format!(r#"{{"QueueUrl":"{}"}}"#, t.create_queue("lonely").await),
        )
        .await;
    assert_eq!(raw.body, r#"{"queueUrls":[]}"#);
}
