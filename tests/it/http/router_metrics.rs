//! The front door counts every service's requests: `/metrics` has SNS's and the Lambda API's
//! requests beside SQS's, each series labelled with its service, through the real SDKs.

use crate::common::{lambda_api, sns};

/// The value of the one series line that is exactly `series` (name and labels).
fn value(metrics: &str, series: &str) -> Option<u64> {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .map(|v| v.parse().unwrap())
}

#[tokio::test]
async fn sns_and_sqs_requests_are_counted_by_service_and_outcome() {
    let s = sns::start().await;
    let topic = s.topic("orders", &[]).await;
    s.publish(&topic, "one").await;
    s.publish(&topic, "two").await;
    let missing = topic.replace("orders", "missing");
    let refused = s
        .sns
        .publish()
        .topic_arn(&missing)
        .message("x")
        .send()
        .await;
    assert!(refused.is_err());
    s.t.create_queue_with("q", &[]).await;

    let metrics = s.t.raw("GET", "/metrics", &[], "").await.body;
    let count = |action: &str, outcome: &str, service: &str| {
        let series = format!(
            r#"sqslite_requests_total{{action="{action}",outcome="{outcome}",service="{service}"}}"#
        );
        value(&metrics, &series)
    };
    assert_eq!(count("Publish", "success", "sns"), Some(2), "{metrics}");
    assert_eq!(
        count("Publish", "client_error", "sns"),
        Some(1),
        "{metrics}"
    );
    assert_eq!(count("CreateTopic", "success", "sns"), Some(1), "{metrics}");
    assert_eq!(count("CreateQueue", "success", "sqs"), Some(1), "{metrics}");
    let latency = r#"sqslite_request_duration_seconds_count{action="Publish",service="sns"}"#;
    assert_eq!(value(&metrics, latency), Some(3), "{metrics}");
}

#[tokio::test]
async fn lambda_api_requests_are_counted_too() {
    let l = lambda_api::server().await;
    let (_, queue) = l.queue("orders", &[]).await;
    l.map("orders", &queue).await;
    let gone = l
        .lambda
        .get_event_source_mapping()
        .uuid("nope")
        .send()
        .await;
    assert!(gone.is_err());

    let metrics = l.t.raw("GET", "/metrics", &[], "").await.body;
    let created = r#"sqslite_requests_total{action="CreateEventSourceMapping",outcome="success",service="lambda"}"#;
    assert_eq!(value(&metrics, created), Some(1), "{metrics}");
    let missing = r#"sqslite_requests_total{action="GetEventSourceMapping",outcome="client_error",service="lambda"}"#;
    assert_eq!(value(&metrics, missing), Some(1), "{metrics}");
}

/// A request refused before it runs (here a key no `[[credentials]]` entry knows) is counted
/// and logged under the action it named, in SQS as in SNS (issue 48).
#[tokio::test]
async fn refused_requests_count_under_the_action_they_named() {
    let s = crate::common::signed_server().await;
    let stranger = crate::common::client_at(&s.endpoint(), "AKIDUNKNOWN", "secret", &s.clock);
    assert!(stranger.list_queues().send().await.is_err());
    let sns = crate::common::sns_client_with(&s.endpoint(), "AKIDUNKNOWN", "secret", &s.clock);
    assert!(sns.list_topics().send().await.is_err());

    let metrics = s.raw("GET", "/metrics", &[], "").await.body;
    let count = |action: &str, service: &str| {
        let series = format!(
            r#"sqslite_requests_total{{action="{action}",outcome="client_error",service="{service}"}}"#
        );
        value(&metrics, &series)
    };
    assert_eq!(count("ListQueues", "sqs"), Some(1), "{metrics}");
    assert_eq!(count("ListTopics", "sns"), Some(1), "{metrics}");
}
