//! SNS's refusals as AWS records them, code and message exact: malformed and missing ARNs,
//! another region's topics, unknown endpoints, batch entry ids, FIFO batches and message
//! attributes. Sources: LocalStack's AWS-validated snapshots
//! (`tests/aws/services/sns/test_sns.snapshot.json`, keys named per case); the requests go
//! out as raw Query forms where an SDK would refuse them itself.

use crate::common::sns::{start, Sns};
use crate::common::{code, message};

const ACCOUNT: &str = "000000000000";

/// The text of the first `<name>` element of an XML answer.
fn element<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&format!("</{name}>"))? + start;
    Some(&xml[start..end])
}

/// An SNS Query request that must fail: its HTTP status, Code and Message.
async fn refused(s: &Sns, params: &[(&str, &str)]) -> (u16, String, String) {
    let got = s.t.query(params).await;
    let field = |name| element(&got.body, name).unwrap_or_default().to_owned();
    assert!(got.status >= 400, "{params:?} answered {}", got.body);
    (got.status, field("Code"), field("Message"))
}

async fn expect(s: &Sns, params: &[(&str, &str)], status: u16, code: &str, message: &str) {
    let got = refused(s, params).await;
    let want = (status, code.to_owned(), message.to_owned());
    assert_eq!(got, want, "{params:?}");
}

const SHORT_ARN: &str =
    "Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not";

#[tokio::test]
async fn malformed_and_missing_topic_arns() {
    let s = start().await;
    // get-attrs-malformed-topic, invalid-topic-arn(-1), empty-topic, invalid-subscribe-arn-1/2
    for (action, arn, n) in [
        ("GetTopicAttributes", "test-topic", 1),
        ("Publish", "randomstring", 1),
        ("Publish", "randomstring:1", 2),
        ("Publish", "", 1),
        ("Subscribe", "randomstring", 1),
        ("Subscribe", "arn:aws:sns:us-east-1:random", 5),
    ] {
        let params = [
            ("Action", action),
            ("TopicArn", arn),
            ("Message", "m"),
            ("Protocol", "sqs"),
            ("Endpoint", "arn:aws:sqs:us-east-1:000000000000:q"),
        ];
        let msg = format!("{SHORT_ARN} {n}");
        if arn.is_empty() {
            // An empty TopicArn is no TopicArn to Publish: it names TargetArn too.
            let got = refused(&s, &params).await;
            assert_eq!(got.1, "InvalidParameter", "{got:?}");
            continue;
        }
        expect(&s, &params, 400, "InvalidParameter", &msg).await;
    }
    let missing = "Invalid parameter: TopicArn Reason: no value for required parameter";
    expect(
        &s,
        &[("Action", "GetTopicAttributes")],
        400,
        "InvalidParameter",
        missing,
    )
    .await;
    // Soto's error-decoding test quotes AWS's answer to a Publish with no target.
    expect(
        &s,
        &[("Action", "Publish"), ("Message", "m")],
        400,
        "InvalidParameter",
        "Invalid parameter: TopicArn or TargetArn Reason: no value for required parameter",
    )
    .await;
    let gone = format!("arn:aws:sns:us-east-1:{ACCOUNT}:gone");
    let params = [
        ("Action", "GetTopicAttributes"),
        ("TopicArn", gone.as_str()),
    ];
    expect(&s, &params, 404, "NotFound", "Topic does not exist").await;
}

#[tokio::test]
async fn unsubscribe_arns_and_idempotency() {
    let s = start().await;
    let sub_arn =
        "Invalid parameter: SubscriptionArn Reason: An ARN must have at least 6 elements, not";
    // test_unsubscribe_wrong_arn_format: invalid-unsubscribe-arn-1..4
    for (arn, want) in [
        ("randomstring", format!("{sub_arn} 1")),
        ("arn:aws:sns:us-east-1:random", format!("{sub_arn} 5")),
        (
            "arn:aws:sns:us-east-1:111111111111:random",
            "Invalid parameter: SubscriptionId".to_owned(),
        ),
        ("pending confirmation", format!("{sub_arn} 1")),
    ] {
        let params = [("Action", "Unsubscribe"), ("SubscriptionArn", arn)];
        expect(&s, &params, 400, "InvalidParameter", &want).await;
    }
    let none = "Invalid parameter: SubscriptionArn Reason: no value for required parameter";
    expect(
        &s,
        &[("Action", "Unsubscribe")],
        400,
        "InvalidParameter",
        none,
    )
    .await;

    // test_unsubscribe_idempotency, test_unsubscribe_from_non_existing_subscription: 200.
    let topic = s.topic("leaving", &[]).await;
    let (_, queue) = s.queue("leaving-q", &[]).await;
    let sub = s.subscribe(&topic, &queue, &[]).await;
    let never = format!("{topic}:{}", "3f1c8c0e-5d2a-4c5b-9b0e-2f6a1d7e9c41");
    for arn in [sub.as_str(), sub.as_str(), never.as_str()] {
        s.sns
            .unsubscribe()
            .subscription_arn(arn)
            .send()
            .await
            .unwrap();
    }
    // get-attrs-nonexistent-sub, sub-not-found
    let err = s
        .sns
        .get_subscription_attributes()
        .subscription_arn(&sub)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        (code(&err), message(&err)),
        ("NotFound".into(), "Subscription does not exist".into())
    );
}

#[tokio::test]
async fn another_regions_topic_is_an_invalid_parameter() {
    let s = start().await;
    // TestSNSMultiRegions::test_cross_region_access, test_topic_publish_another_region
    let arn = s
        .topic("elsewhere", &[])
        .await
        .replace("us-east-1", "eu-west-1");
    let topic = arn.as_str();
    for params in [
        vec![("Action", "Publish"), ("TopicArn", topic), ("Message", "m")],
        vec![
            ("Action", "PublishBatch"),
            ("TopicArn", topic),
            ("PublishBatchRequestEntries.member.1.Id", "1"),
            ("PublishBatchRequestEntries.member.1.Message", "m"),
        ],
        vec![("Action", "GetTopicAttributes"), ("TopicArn", topic)],
        vec![
            ("Action", "SetTopicAttributes"),
            ("TopicArn", topic),
            ("AttributeName", "DisplayName"),
            ("AttributeValue", "x"),
        ],
        vec![
            ("Action", "Subscribe"),
            ("TopicArn", topic),
            ("Protocol", "sqs"),
            ("Endpoint", "arn:aws:sqs:eu-west-1:000000000000:q"),
        ],
        vec![("Action", "ListSubscriptionsByTopic"), ("TopicArn", topic)],
        vec![("Action", "DeleteTopic"), ("TopicArn", topic)],
    ] {
        expect(
            &s,
            &params,
            400,
            "InvalidParameter",
            "Invalid parameter: TopicArn",
        )
        .await;
    }
}

#[tokio::test]
async fn publish_to_an_unknown_platform_endpoint() {
    let s = start().await;
    // test_publish_non_existent_target: non-existent-endpoint
    let endpoint = format!("arn:aws:sns:us-east-1:{ACCOUNT}:endpoint/APNS/abcdef/0f1e2d3c");
    let err = s
        .sns
        .publish()
        .target_arn(&endpoint)
        .message("m")
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        (code(&err), message(&err)),
        (
            "InvalidParameter".into(),
            "Invalid parameter: TargetArn Reason: No endpoint found for the target arn specified"
                .into()
        )
    );
}

#[tokio::test]
async fn batch_entry_ids_and_fifo_batches() {
    let s = start().await;
    let topic = s.topic("batched.fifo", &[("FifoTopic", "true")]).await;
    let entry = |id: &'static str| {
        vec![
            ("Action", "PublishBatch"),
            ("PublishBatchRequestEntries.member.1.Id", id),
            ("PublishBatchRequestEntries.member.1.Message", "m"),
            ("PublishBatchRequestEntries.member.1.MessageGroupId", "g"),
            (
                "PublishBatchRequestEntries.member.1.MessageDeduplicationId",
                "d",
            ),
        ]
    };
    let long: &'static str = "x".repeat(81).leak();
    for (id, why) in [
        ("bad id!", "contains an impermissible character"),
        (long, "is too long"),
    ] {
        let mut params = entry(id);
        params.push(("TopicArn", &topic));
        let want = format!("The Id of a batch entry in the batch request {why}: {id}");
        expect(&s, &params, 400, "InvalidBatchEntryId", &want).await;
    }
    // test_publish_batch_exceptions: no-group-id and the missing deduplication id fail the
    // whole request, not the entry.
    let mut params = entry("ok");
    params.retain(|(k, _)| !k.ends_with("MessageGroupId"));
    params.push(("TopicArn", &topic));
    let want = "Invalid parameter: The MessageGroupId parameter is required for FIFO topics";
    expect(&s, &params, 400, "InvalidParameter", want).await;
    let mut params = entry("ok");
    params.retain(|(k, _)| !k.ends_with("MessageDeduplicationId"));
    params.push(("TopicArn", &topic));
    let want = "Invalid parameter: The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly";
    expect(&s, &params, 400, "InvalidParameter", want).await;
}
