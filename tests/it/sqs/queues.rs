//! Queue management through the real SDK: create, find, list, inspect, change, tag, purge, delete.

use crate::common::{expect_code, expect_code_for, message, TestServer};
use aws_sdk_sqs::types::QueueAttributeName;

#[tokio::test]
async fn create_is_idempotent_for_identical_attributes_only() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with("orders", &[("VisibilityTimeout", "45")])
        .await;
    assert!(url.ends_with("/000000000000/orders"), "{url}");
    assert_eq!(
        t.create_queue_with("orders", &[("VisibilityTimeout", "45")])
            .await,
        url
    );
    let err = expect_code(
        t.try_create_queue("orders", &[("VisibilityTimeout", "46")])
            .await,
        "QueueAlreadyExists",
    );
    assert!(err.as_service_error().unwrap().is_queue_name_exists());
    assert_eq!(
        message(&err),
        "A queue already exists with the same name and a different value for attribute VisibilityTimeout"
    );
}

#[tokio::test]
async fn bad_names_and_attribute_values_are_rejected() {
    let t = TestServer::start().await;
    for name in ["", "has space", &"x".repeat(81), "q.fifo"] {
        expect_code_for(
            t.client.create_queue().queue_name(name).send().await,
            "InvalidParameterValue",
            name,
        );
    }
    expect_code(
        t.try_create_queue("q", &[("MessageRetentionPeriod", "59")])
            .await,
        "InvalidAttributeValue",
    );
    let err = expect_code(
        t.client
            .create_queue()
            .queue_name("q")
            .attributes(QueueAttributeName::from("Bogus"), "1")
            .send()
            .await,
        "InvalidAttributeName",
    );
    assert_eq!(message(&err), "Unknown Attribute Bogus.");
}

#[tokio::test]
async fn get_queue_url_and_missing_queue_is_typed_error() {
    let t = TestServer::start().await;
    let url = t.create_queue("a").await;
    let got = t
        .client
        .get_queue_url()
        .queue_name("a")
        .send()
        .await
        .unwrap();
    assert_eq!(got.queue_url.unwrap(), url);
    let err = expect_code(
        t.client.get_queue_url().queue_name("b").send().await,
        "AWS.SimpleQueueService.NonExistentQueue",
    );
    assert!(err.as_service_error().unwrap().is_queue_does_not_exist());
}

#[tokio::test]
async fn list_queues_filters_by_prefix_and_paginates() {
    let t = TestServer::start().await;
    for n in ["app-1", "app-2", "app-3", "other"] {
        t.create_queue(n).await;
    }
    let all = t.client.list_queues().send().await.unwrap();
    assert_eq!(all.queue_urls().len(), 4);
    assert!(all.next_token.is_none());
    let page = t
        .client
        .list_queues()
        .queue_name_prefix("app")
        .max_results(2)
        .send()
        .await
        .unwrap();
    assert_eq!(page.queue_urls().len(), 2);
    let rest = t
        .client
        .list_queues()
        .queue_name_prefix("app")
        .max_results(2)
        .next_token(page.next_token.unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(rest.queue_urls().len(), 1);
    assert!(rest.queue_urls()[0].ends_with("/app-3"));
    assert!(rest.next_token.is_none());
    let none = t
        .client
        .list_queues()
        .queue_name_prefix("zzz")
        .send()
        .await
        .unwrap();
    assert!(none.queue_urls().is_empty());
    expect_code(
        t.client.list_queues().max_results(1001).send().await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn default_attributes_are_those_of_sqs() {
    let t = TestServer::start().await;
    let url = t.create_queue("defaults").await;
    let out = t
        .client
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(QueueAttributeName::All)
        .send()
        .await
        .unwrap();
    let attrs = out.attributes().unwrap();
    let get = |n: &str| {
        attrs
            .get(&QueueAttributeName::from(n))
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(get("VisibilityTimeout"), "30");
    assert_eq!(get("MaximumMessageSize"), "1048576");
    assert_eq!(get("MessageRetentionPeriod"), "345600");
    assert_eq!(get("DelaySeconds"), "0");
    assert_eq!(get("ReceiveMessageWaitTimeSeconds"), "0");
    assert_eq!(get("SqsManagedSseEnabled"), "true");
    assert_eq!(
        get("QueueArn"),
        "arn:aws:sqs:us-east-1:000000000000:defaults"
    );
    assert_eq!(
        get("CreatedTimestamp"),
        (crate::common::T0 / 1000).to_string()
    );
    assert_eq!(attrs.len(), 12);
    // Listed only once set: the KMS pair and the Policy.
    for absent in ["KmsDataKeyReusePeriodSeconds", "KmsMasterKeyId", "Policy"] {
        assert!(
            !attrs.contains_key(&QueueAttributeName::from(absent)),
            "{absent}"
        );
    }
    let none = t
        .client
        .get_queue_attributes()
        .queue_url(&url)
        .send()
        .await
        .unwrap();
    assert!(none
        .attributes()
        .is_none_or(std::collections::HashMap::is_empty));
}

#[tokio::test]
async fn set_attributes_validates_and_updates_last_modified() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.advance(10);
    t.set_attribute(&url, QueueAttributeName::DelaySeconds, "7")
        .await
        .unwrap();
    assert_eq!(t.attribute(&url, "DelaySeconds").await, "7");
    assert_eq!(
        t.attribute(&url, "LastModifiedTimestamp").await,
        (crate::common::T0 / 1000 + 10).to_string()
    );
    expect_code(
        t.set_attribute(&url, QueueAttributeName::DelaySeconds, "901")
            .await,
        "InvalidAttributeValue",
    );
    expect_code(
        t.set_attribute(&url, QueueAttributeName::QueueArn, "x")
            .await,
        "InvalidAttributeName",
    );
    expect_code(
        t.client
            .get_queue_attributes()
            .queue_url(&url)
            .attribute_names(QueueAttributeName::from("Nope"))
            .send()
            .await,
        "InvalidAttributeName",
    );
}

#[tokio::test]
async fn tags_round_trip() {
    let t = TestServer::start().await;
    let created = t
        .client
        .create_queue()
        .queue_name("tagged")
        .tags("team", "payments")
        .send()
        .await
        .unwrap();
    let url = created.queue_url.unwrap();
    t.client
        .tag_queue()
        .queue_url(&url)
        .tags("env", "ci")
        .send()
        .await
        .unwrap();
    let tags = t
        .client
        .list_queue_tags()
        .queue_url(&url)
        .send()
        .await
        .unwrap();
    let tags = tags.tags().unwrap();
    assert_eq!(tags.get("team").unwrap(), "payments");
    assert_eq!(tags.get("env").unwrap(), "ci");
    t.client
        .untag_queue()
        .queue_url(&url)
        .tag_keys("team")
        .tag_keys("env")
        .send()
        .await
        .unwrap();
    let tags = t
        .client
        .list_queue_tags()
        .queue_url(&url)
        .send()
        .await
        .unwrap();
    assert!(tags.tags().is_none_or(std::collections::HashMap::is_empty));
}

#[tokio::test]
async fn permissions_live_in_the_policy_attribute() {
    let t = TestServer::start().await;
    let url = t.create_queue("shared").await;
    t.client
        .add_permission()
        .queue_url(&url)
        .label("l1")
        .aws_account_ids("111122223333")
        .actions("SendMessage")
        .send()
        .await
        .unwrap();
    let policy: serde_json::Value =
        serde_json::from_str(&t.attribute(&url, "Policy").await).unwrap();
    assert_eq!(policy["Statement"][0]["Sid"], "l1");
    assert_eq!(policy["Statement"][0]["Action"], "SQS:SendMessage");
    let err = t
        .client
        .add_permission()
        .queue_url(&url)
        .label("l1")
        .aws_account_ids("111122223333")
        .actions("SendMessage")
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Value l1 for parameter Label is invalid. Reason: Already exists."
    );
    t.client
        .remove_permission()
        .queue_url(&url)
        .label("l1")
        .send()
        .await
        .unwrap();
    assert_eq!(t.attribute(&url, "Policy").await, "");
    expect_code(
        t.client
            .remove_permission()
            .queue_url(&url)
            .label("l1")
            .send()
            .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn regions_and_accounts_are_separate_namespaces() {
    let t = TestServer::start().await;
    let east = t.create_queue("same").await;
    let west_client = crate::common::client_for(&t.endpoint(), "us-west-2", "123456789012");
    let west = west_client
        .create_queue()
        .queue_name("same")
        .send()
        .await
        .unwrap()
        .queue_url
        .unwrap();
    assert!(west.contains("/123456789012/same"), "{west}");
    let arn = west_client
        .get_queue_attributes()
        .queue_url(&west)
        .attribute_names(QueueAttributeName::QueueArn)
        .send()
        .await
        .unwrap();
    assert_eq!(
        arn.attributes().unwrap()[&QueueAttributeName::QueueArn],
        "arn:aws:sqs:us-west-2:123456789012:same"
    );
    t.send(&east, "only east").await;
    assert_eq!(t.counts(&east).await.0, 1);
    let west_count = west_client
        .get_queue_attributes()
        .queue_url(&west)
        .attribute_names(QueueAttributeName::ApproximateNumberOfMessages)
        .send()
        .await
        .unwrap();
    assert_eq!(
        west_count.attributes().unwrap()[&QueueAttributeName::ApproximateNumberOfMessages],
        "0"
    );
}

#[tokio::test]
async fn queue_urls_follow_the_host_header_and_resolve_by_path() {
    // As a compose service's name, which a loopback server must be told to answer.
    let mut config = sqslite::Config::ephemeral();
    config.access.allow_hosts = vec!["sqs".into()];
    let t = TestServer::start_with(config).await;
    let r = t
        .raw(
            "POST",
            "/",
            &[
                ("x-amz-target", "AmazonSQS.CreateQueue"),
                ("content-type", "application/x-amz-json-1.0"),
                ("host", "sqs:9324"),
            ],
            r#"{"QueueName":"compose"}"#,
        )
        .await;
    assert_eq!(r.json()["QueueUrl"], "http://sqs:9324/000000000000/compose");
    t.send("http://sqs:9324/000000000000/compose", "via another host")
        .await;
    assert_eq!(
        t.counts(&format!("{}/000000000000/compose", t.endpoint()))
            .await
            .0,
        1
    );
}
