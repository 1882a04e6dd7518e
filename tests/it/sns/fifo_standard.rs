//! A FIFO topic delivering into a standard queue, which SNS allows since 2023-09 (AWS
//! "Amazon SNS FIFO topics now support message delivery to Amazon SQS Standard queues"):
//! the messages arrive as plain standard-queue messages, and the advisor warns that their
//! order is best-effort. A FIFO queue on a standard topic is still refused.

use crate::common::sns::start;
use crate::common::{expect_code, message};
use aws_sdk_sqs::types::MessageSystemAttributeName;

#[tokio::test]
async fn a_fifo_topic_delivers_into_a_standard_queue_as_plain_messages() {
    let s = start().await;
    let topic = s
        .topic(
            "events.fifo",
            &[("FifoTopic", "true"), ("ContentBasedDeduplication", "true")],
        )
        .await;
    let (url, arn) = s.queue("plain", &[]).await;
    s.subscribe(&topic, &arn, &[("RawMessageDelivery", "true")])
        .await;
    for body in ["one", "two", "one"] {
        s.sns
            .publish()
            .topic_arn(&topic)
            .message(body)
            .message_group_id("g1")
            .send()
            .await
            .expect("publish");
    }
    let got =
        s.t.client
            .receive_message()
            .queue_url(&url)
            .max_number_of_messages(10)
            .message_system_attribute_names(MessageSystemAttributeName::All)
            .send()
            .await
            .expect("receive")
            .messages
            .unwrap_or_default();
    let mut bodies: Vec<_> = got.iter().map(|m| m.body().unwrap()).collect();
    bodies.sort_unstable();
    // The topic deduplicated the second "one"; the queue holds the other two.
    assert_eq!(bodies, ["one", "two"]);
    for m in &got {
        let system = m.attributes().cloned().unwrap_or_default();
        let names: Vec<&str> = system
            .keys()
            .map(MessageSystemAttributeName::as_str)
            .collect();
        // Neither a FIFO nor a fair queue's message: no group, no deduplication id.
        assert!(!names.contains(&"MessageGroupId"), "{names:?}");
        assert!(!names.contains(&"MessageDeduplicationId"), "{names:?}");
        assert!(!names.contains(&"SequenceNumber"), "{names:?}");
    }

    let (status, advice) = s.admin_get("/_sqslite/advice").await;
    assert_eq!(status, 200);
    let findings = advice["findings"].as_array().unwrap();
    let warned = findings
        .iter()
        .find(|f| f["rule"] == "sns_fifo_to_standard")
        .expect("sns_fifo_to_standard finding");
    assert_eq!(warned["topic"], "events.fifo");
    assert_eq!(warned["queue"], "plain");
    assert_eq!(warned["severity"], "warn");
}

#[tokio::test]
async fn a_standard_topic_still_refuses_a_fifo_queue() {
    let s = start().await;
    let topic = s.topic("orders", &[]).await;
    let (_, arn) = s.queue("orders.fifo", &[("FifoQueue", "true")]).await;
    let err = expect_code(
        s.sns
            .subscribe()
            .topic_arn(&topic)
            .protocol("sqs")
            .endpoint(arn)
            .send()
            .await,
        "InvalidParameter",
    );
    assert_eq!(
        message(&err),
        "Invalid parameter: Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to standard SNS topics"
    );
}
