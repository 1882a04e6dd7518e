//! SNS's API surface through the real `aws-sdk-sns` client: topics, attributes, tags,
//! subscriptions, PublishBatch, errors, and raw Query requests on the shared port.

use crate::common::sns::{start, subscriptions_of};
use crate::common::{expect_code, message, raw};
use aws_sdk_sns::types::PublishBatchRequestEntry;
use serde_json::Value;

#[tokio::test]
async fn errors_carry_snss_codes_and_messages() {
    let s = start().await;
    let missing = "arn:aws:sns:us-east-1:000000000000:nope";
    let err = expect_code(
        s.sns.get_topic_attributes().topic_arn(missing).send().await,
        "NotFound",
    );
    assert_eq!(message(&err), "Topic does not exist");
    assert!(err.as_service_error().unwrap().is_not_found_exception());
    expect_code(
        s.sns.publish().topic_arn(missing).message("m").send().await,
        "NotFound",
    );

    let topic = s.topic("t", &[]).await;
    let (_, arn) = s.queue("q", &[]).await;
    let err = expect_code(
        s.sns
            .subscribe()
            .topic_arn(&topic)
            .protocol("sqs")
            .endpoint(&arn)
            .attributes(
                "FilterPolicy",
                r#"{"color": [{"prefix": "r", "suffix": "d"}]}"#,
            )
            .send()
            .await,
        "InvalidParameter",
    );
    assert!(err
        .as_service_error()
        .unwrap()
        .is_invalid_parameter_exception());
    assert_eq!(
        message(&err),
        "Invalid parameter: Attributes Reason: FilterPolicy: Only one key allowed in match expression"
    );
    let sub = s.subscribe(&topic, &arn, &[]).await;
    let err = s
        .sns
        .set_subscription_attributes()
        .subscription_arn(&sub)
        .attribute_name("FilterPolicy")
        .attribute_value(r#"{"color": [{"prefix": "r", "suffix": "d"}]}"#)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Invalid parameter: FilterPolicy: Only one key allowed in match expression"
    );
    let err = s
        .sns
        .create_topic()
        .name("bad name")
        .send()
        .await
        .unwrap_err();
    assert_eq!(message(&err), "Invalid parameter: Topic Name");
}

#[tokio::test]
async fn create_topic_is_idempotent_and_attributes_have_snss_defaults() {
    let s = start().await;
    let first = s.topic("same", &[("DisplayName", "Same")]).await;
    assert_eq!(s.topic("same", &[("DisplayName", "Same")]).await, first);
    assert_eq!(s.topic("same", &[]).await, first);
    let err = s
        .sns
        .create_topic()
        .name("same")
        .attributes("DisplayName", "Other")
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Invalid parameter: Attributes Reason: Topic already exists with different attributes"
    );
    let attrs = s.topic_attributes(&first).await;
    assert_eq!(attrs["TopicArn"], first);
    assert_eq!(attrs["Owner"], "000000000000");
    assert_eq!(attrs["DisplayName"], "Same");
    assert_eq!(attrs["SubscriptionsConfirmed"], "0");
    assert_eq!(attrs["SubscriptionsPending"], "0");
    assert_eq!(attrs["SubscriptionsDeleted"], "0");
    let policy: Value = serde_json::from_str(&attrs["Policy"]).unwrap();
    assert_eq!(policy["Statement"][0]["Resource"], first.as_str());
    assert!(attrs["EffectiveDeliveryPolicy"].contains("defaultHealthyRetryPolicy"));
    assert!(!attrs.contains_key("FifoTopic"));

    s.sns
        .set_topic_attributes()
        .topic_arn(&first)
        .attribute_name("DisplayName")
        .attribute_value("Renamed")
        .send()
        .await
        .unwrap();
    let fifo = s.topic("f.fifo", &[("FifoTopic", "true")]).await;
    let fifo_attrs = s.topic_attributes(&fifo).await;
    assert_eq!(fifo_attrs["FifoTopic"], "true");
    assert_eq!(fifo_attrs["ContentBasedDeduplication"], "false");
    let err = s
        .sns
        .create_topic()
        .name("f")
        .attributes("FifoTopic", "true")
        .send()
        .await
        .unwrap_err();
    // LocalStack's AWS-validated test_create_topic_name_constraints (2026-02).
    assert_eq!(message(&err), "Invalid parameter: Topic Name");

    // DeleteTopic twice succeeds; the topic is gone.
    for _ in 0..2 {
        s.sns.delete_topic().topic_arn(&first).send().await.unwrap();
    }
    expect_code(
        s.sns.get_topic_attributes().topic_arn(&first).send().await,
        "NotFound",
    );
}

#[tokio::test]
async fn list_topics_pages_by_a_hundred() {
    let s = start().await;
    for i in 0..101 {
        s.topic(&format!("t{i:03}"), &[]).await;
    }
    let page = s.sns.list_topics().send().await.unwrap();
    assert_eq!(page.topics().len(), 100);
    let token = page.next_token.expect("a second page");
    let rest = s.sns.list_topics().next_token(token).send().await.unwrap();
    assert_eq!(rest.topics().len(), 1);
    assert_eq!(
        rest.topics()[0].topic_arn(),
        Some("arn:aws:sns:us-east-1:000000000000:t100")
    );
    assert_eq!(rest.next_token, None);
}

#[tokio::test]
async fn topics_take_tags() {
    let s = start().await;
    let topic = s.topic("tagged", &[]).await;
    s.sns
        .tag_resource()
        .resource_arn(&topic)
        .tags(
            aws_sdk_sns::types::Tag::builder()
                .key("team")
                .value("a")
                .build()
                .unwrap(),
        )
        .tags(
            aws_sdk_sns::types::Tag::builder()
                .key("env")
                .value("ci")
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    s.sns
        .untag_resource()
        .resource_arn(&topic)
        .tag_keys("env")
        .send()
        .await
        .unwrap();
    let tags = s
        .sns
        .list_tags_for_resource()
        .resource_arn(&topic)
        .send()
        .await
        .unwrap();
    let tags: Vec<(&str, &str)> = tags.tags().iter().map(|t| (t.key(), t.value())).collect();
    assert_eq!(tags, [("team", "a")]);
}

#[tokio::test]
async fn subscriptions_list_read_change_and_go() {
    let s = start().await;
    let topic = s.topic("subs", &[]).await;
    let (url, arn) = s.queue("subs-q", &[]).await;
    let sub = s.subscribe(&topic, &arn, &[]).await;
    // The same subscription again is the same ARN.
    assert_eq!(s.subscribe(&topic, &arn, &[]).await, sub);
    let attrs = s.subscription_attributes(&sub).await;
    for (k, v) in [
        ("SubscriptionArn", sub.as_str()),
        ("TopicArn", &topic),
        ("Protocol", "sqs"),
        ("Endpoint", &arn),
        ("Owner", "000000000000"),
        ("PendingConfirmation", "false"),
        ("ConfirmationWasAuthenticated", "true"),
        ("RawMessageDelivery", "false"),
    ] {
        assert_eq!(attrs[k], v, "{k}");
    }
    s.set_subscription(&sub, "FilterPolicyScope", "MessageBody")
        .await;
    s.set_subscription(&sub, "FilterPolicy", r#"{"kind":["big"]}"#)
        .await;
    s.publish(&topic, r#"{"kind":"small"}"#).await;
    s.publish(&topic, r#"{"kind":"big"}"#).await;
    let got = s.receive(&url).await;
    assert_eq!(got.len(), 1);
    let envelope: Value = serde_json::from_str(got[0].body().unwrap()).unwrap();
    assert_eq!(envelope["Message"], r#"{"kind":"big"}"#);

    let by_topic = subscriptions_of(&s.sns, &topic).await;
    assert_eq!(by_topic.len(), 1);
    assert_eq!(by_topic[0].endpoint(), Some(arn.as_str()));
    let all = s.sns.list_subscriptions().send().await.unwrap();
    assert_eq!(all.subscriptions().len(), 1);

    s.sns
        .unsubscribe()
        .subscription_arn(&sub)
        .send()
        .await
        .unwrap();
    expect_code(
        s.sns
            .get_subscription_attributes()
            .subscription_arn(&sub)
            .send()
            .await,
        "NotFound",
    );
    assert_eq!(
        s.topic_attributes(&topic).await["SubscriptionsDeleted"],
        "1"
    );
}

#[tokio::test]
async fn publish_batch_refuses_a_bad_entry_whole() {
    let s = start().await;
    let topic = s.topic("batch", &[]).await;
    let (url, arn) = s.queue("batch-q", &[]).await;
    s.subscribe(&topic, &arn, &[("RawMessageDelivery", "true")])
        .await;
    let entry = |id: &str, body: &str| {
        PublishBatchRequestEntry::builder()
            .id(id)
            .message(body)
            .build()
            .unwrap()
    };
    // One bad entry fails the whole request, and nothing is published (recorded:
    // test_publish_batch_exceptions and the batch-* keys of
    // test_empty_or_wrong_message_attributes, LocalStack's AWS snapshots).
    let bad = s
        .sns
        .publish_batch()
        .topic_arn(&topic)
        .publish_batch_request_entries(entry("a", "first"))
        .publish_batch_request_entries(entry("b", ""))
        .send()
        .await;
    let err = expect_code(bad, "InvalidParameter");
    assert_eq!(message(&err), "Invalid parameter: Empty message");
    assert!(s.receive(&url).await.is_empty());
    let out = s
        .sns
        .publish_batch()
        .topic_arn(&topic)
        .publish_batch_request_entries(entry("a", "first"))
        .publish_batch_request_entries(entry("c", "third"))
        .send()
        .await
        .unwrap();
    let ok: Vec<_> = out.successful().iter().map(|e| e.id().unwrap()).collect();
    assert_eq!(ok, ["a", "c"]);
    assert!(out.failed().is_empty());
    assert_eq!(s.receive(&url).await.len(), 2);

    let mut too_many = s.sns.publish_batch().topic_arn(&topic);
    for i in 0..11 {
        too_many = too_many.publish_batch_request_entries(entry(&format!("e{i}"), "m"));
    }
    expect_code(too_many.send().await, "TooManyEntriesInBatchRequest");
}

#[tokio::test]
async fn unsigned_query_requests_reach_sns_and_errors_have_its_shape() {
    let s = start().await;
    let form = [("content-type", "application/x-www-form-urlencoded")];
    let res = raw(
        &s.t.endpoint(),
        "POST",
        "/",
        &form,
        "Action=GetTopicAttributes&Version=2010-03-31&TopicArn=arn%3Aaws%3Asns%3Aus-east-1%3A000000000000%3Amissing",
    )
    .await;
    assert_eq!(res.status, 404);
    assert!(
        res.body.contains(
            "<Error><Type>Sender</Type><Code>NotFound</Code><Message>Topic does not exist</Message></Error><RequestId>"
        ),
        "{}",
        res.body
    );
    assert!(res
        .body
        .contains("xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\""));
    // CreateTopic names no Version here: the action alone says it is SNS's.
    let res = raw(
        &s.t.endpoint(),
        "POST",
        "/",
        &form,
        "Action=CreateTopic&Name=plain",
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert!(res.body.contains("<CreateTopicResult><TopicArn>arn:aws:sns:us-east-1:000000000000:plain</TopicArn></CreateTopicResult>"));
    let res = raw(
        &s.t.endpoint(),
        "POST",
        "/",
        &form,
        "Action=ListPhoneNumbersOptedOut&Version=2010-03-31",
    )
    .await;
    assert_eq!(res.status, 400);
    assert!(
        res.body.contains("<Code>InvalidAction</Code>"),
        "{}",
        res.body
    );
    // SQS still answers on the same port.
    let res = raw(
        &s.t.endpoint(),
        "POST",
        "/",
        &form,
        "Action=ListQueues&Version=2012-11-05",
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert!(res.body.contains("<ListQueuesResponse"));
}

#[tokio::test]
async fn topic_and_subscription_counts_are_capped_by_the_quotas() {
    let mut config = sqslite::Config::ephemeral();
    config.sns_limits.topics = 2;
    config.sns_limits.fifo_topics = 1;
    config.sns_limits.subscriptions_per_topic = 1;
    let s = crate::common::sns::start_with(config).await;
    let first = s.topic("one", &[]).await;
    s.topic("two", &[]).await;
    let code = |e: &dyn std::fmt::Debug| format!("{e:?}");
    let err = s.sns.create_topic().name("three").send().await.unwrap_err();
    assert!(code(&err).contains("TopicLimitExceeded"), "{err:?}");
    assert_eq!(err.raw_response().unwrap().status().as_u16(), 403);
    // Asking again for a topic that exists is no new topic.
    s.topic("one", &[]).await;
    s.topic("f.fifo", &[("FifoTopic", "true")]).await;
    let fifo = s
        .sns
        .create_topic()
        .name("g.fifo")
        .attributes("FifoTopic", "true");
    assert!(code(&fifo.send().await.unwrap_err()).contains("TopicLimitExceeded"));
    let queue = s.t.create_queue("audit").await;
    let arn = s.t.attribute(&queue, "QueueArn").await;
    let sub = || s.sns.subscribe().topic_arn(&first).protocol("sqs");
    sub().endpoint(&arn).send().await.unwrap();
    // The same subscription again is found, not made.
    sub().endpoint(&arn).send().await.unwrap();
    let other = s.t.create_queue("other").await;
    let other = s.t.attribute(&other, "QueueArn").await;
    let err = sub().endpoint(&other).send().await.unwrap_err();
    assert!(code(&err).contains("SubscriptionLimitExceeded"), "{err:?}");
}
