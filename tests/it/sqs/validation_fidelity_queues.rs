//! Queue attribute validation as recorded from real SQS (issue 13, items 3 and 4): FIFO
//! attributes and the queue type, tag limits, KMS and SSE attributes, AddPermission's policy.

use crate::common::{code, expect_code, expect_code_for, message, TestServer};
use aws_sdk_sqs::types::QueueAttributeName;

#[tokio::test]
async fn fifo_attributes_on_a_standard_queue_do_not_exist() {
    let t = TestServer::start().await;
    for (name, value, want) in [
        ("FifoQueue", "false", "Unknown Attribute FifoQueue."),
        ("FifoQueue", "true", "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length."),
        ("ContentBasedDeduplication", "false", "Unknown Attribute ContentBasedDeduplication."),
        ("DeduplicationScope", "queue", "You can specify the DeduplicationScope only when FifoQueue is set to true."),
        ("FifoThroughputLimit", "perQueue", "You can specify the FifoThroughputLimit only when FifoQueue is set to true."),
    ] {
        let want_code = if name == "FifoQueue" && value == "true" {
            "InvalidParameterValue"
        } else {
            "InvalidAttributeName"
        };
        let err = expect_code_for(
            t.try_create_queue("std", &[(name, value)]).await,
            want_code,
            format!("{name}={value}"),
        );
        assert_eq!(message(&err), want, "{name}={value}");
    }

    let url = t.create_queue("std").await;
    let err = t
        .set_attribute(&url, QueueAttributeName::FifoQueue, "false")
        .await
        .unwrap_err();
    assert_eq!(
        (code(&err).as_str(), message(&err).as_str()),
        ("InvalidAttributeName", "Unknown Attribute FifoQueue.")
    );
}

#[tokio::test]
async fn a_fifo_queue_keeps_its_type() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with("f.fifo", &[("FifoQueue", "true")])
        .await;
    // Restating the type is accepted; changing it is not.
    t.set_attribute(&url, QueueAttributeName::FifoQueue, "true")
        .await
        .expect("same type");
    let err = expect_code(
        t.set_attribute(&url, QueueAttributeName::FifoQueue, "false")
            .await,
        "InvalidAttributeValue",
    );
    assert_eq!(
        message(&err),
        "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported."
    );
}

#[tokio::test]
async fn tag_limits_use_sqs_wording() {
    let t = TestServer::start().await;
    let url = t.create_queue("tagged").await;
    let mut call = t.client.tag_queue().queue_url(&url);
    for i in 0..51 {
        call = call.tags(format!("k{i}"), "v");
    }
    let err = call.send().await.unwrap_err();
    assert_eq!(message(&err), "Too many tags added for queue tagged.");
    let res = t
        .json(
            "TagQueue",
            &serde_json::json!({"QueueUrl": url, "Tags": {}}).to_string(),
        )
        .await;
    assert_eq!(
        res.json()["message"],
        "The request must contain the parameter Tags."
    );
    let res = t
        .json(
            "UntagQueue",
            &serde_json::json!({"QueueUrl": url, "TagKeys": []}).to_string(),
        )
        .await;
    assert_eq!(
        res.json()["message"],
        "Tag keys must be between 1 and 128 characters in length."
    );
}

#[tokio::test]
async fn kms_reuse_period_is_listed_only_once_set() {
    let t = TestServer::start().await;
    // That a new queue lists none of them is asserted in queues.rs's default-attribute test.
    let url = t.create_queue("plain").await;
    t.set_attribute(
        &url,
        QueueAttributeName::KmsDataKeyReusePeriodSeconds,
        "600",
    )
    .await
    .unwrap();
    assert_eq!(
        t.attribute(&url, "KmsDataKeyReusePeriodSeconds").await,
        "600"
    );
}

/// Recorded on SQS: clearing the key with KmsDataKeyReusePeriodSeconds "300" in the same call
/// removes both KMS attributes, and SqsManagedSseEnabled stays "false".
#[tokio::test]
async fn clearing_the_kms_key_removes_both_kms_attributes() {
    let t = TestServer::start().await;
    let url = t.create_queue("kms").await;
    let set = |pairs: &'static [(QueueAttributeName, &'static str)]| {
        let mut call = t.client.set_queue_attributes().queue_url(&url);
        for (name, value) in pairs {
            call = call.attributes(name.clone(), *value);
        }
        call.send()
    };
    set(&[
        (QueueAttributeName::SqsManagedSseEnabled, "false"),
        (QueueAttributeName::KmsMasterKeyId, "alias/aws/sqs"),
    ])
    .await
    .unwrap();
    let all = t.all_attributes(&url).await;
    assert_eq!(all[&QueueAttributeName::KmsMasterKeyId], "alias/aws/sqs");
    assert_eq!(
        all[&QueueAttributeName::KmsDataKeyReusePeriodSeconds],
        "300"
    );
    set(&[
        (QueueAttributeName::KmsMasterKeyId, ""),
        (QueueAttributeName::KmsDataKeyReusePeriodSeconds, "300"),
    ])
    .await
    .unwrap();
    let all = t.all_attributes(&url).await;
    assert!(
        !all.contains_key(&QueueAttributeName::KmsMasterKeyId),
        "{all:?}"
    );
    assert!(
        !all.contains_key(&QueueAttributeName::KmsDataKeyReusePeriodSeconds),
        "{all:?}"
    );
    assert_eq!(all[&QueueAttributeName::SqsManagedSseEnabled], "false");
}

/// Recorded on SQS: both kinds of encryption asked for in one call are refused; a KMS key set
/// on a queue whose SQS-managed SSE is on only by default is accepted and turns it off (issue
/// 37, item J: AWS's recordings show SqsManagedSseEnabled=false afterwards).
#[tokio::test]
async fn the_two_kinds_of_encryption_exclude_each_other() {
    let t = TestServer::start().await;
    let url = t.create_queue("sse").await;
    assert_eq!(t.attribute(&url, "SqsManagedSseEnabled").await, "true");
    let want = "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.";
    let err = t
        .client
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::KmsMasterKeyId, "alias/aws/sqs")
        .attributes(QueueAttributeName::SqsManagedSseEnabled, "true")
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        (code(&err).as_str(), message(&err).as_str()),
        ("InvalidAttributeName", want)
    );
    let all = t.all_attributes(&url).await;
    assert!(
        !all.contains_key(&QueueAttributeName::KmsMasterKeyId),
        "nothing was applied"
    );
    t.client
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::KmsMasterKeyId, "alias/aws/sqs")
        .attributes(QueueAttributeName::KmsDataKeyReusePeriodSeconds, "300")
        .send()
        .await
        .expect("a KMS key on a queue with SQS-managed SSE by default");
    let all = t.all_attributes(&url).await;
    assert_eq!(all[&QueueAttributeName::KmsMasterKeyId], "alias/aws/sqs");
    assert_eq!(
        all[&QueueAttributeName::KmsDataKeyReusePeriodSeconds],
        "300"
    );
    assert_eq!(all[&QueueAttributeName::SqsManagedSseEnabled], "false");
    // A queue created with a key has SQS-managed SSE off.
    let url = t
        .create_queue_with("created-kms", &[("KmsMasterKeyId", "alias/aws/sqs")])
        .await;
    assert_eq!(t.attribute(&url, "SqsManagedSseEnabled").await, "false");
}

#[tokio::test]
async fn add_permission_writes_one_action_as_a_string() {
    let t = TestServer::start().await;
    let url = t.create_queue("shared").await;
    t.client
        .add_permission()
        .queue_url(&url)
        .label("one")
        .aws_account_ids("111122223333")
        .actions("SendMessage")
        .send()
        .await
        .unwrap();
    t.client
        .add_permission()
        .queue_url(&url)
        .label("two")
        .aws_account_ids("111122223333")
        .aws_account_ids("444455556666")
        .actions("ReceiveMessage")
        .actions("DeleteMessage")
        .send()
        .await
        .unwrap();
    let policy: serde_json::Value =
        serde_json::from_str(&t.attribute(&url, "Policy").await).unwrap();
    let one = &policy["Statement"][0];
    assert_eq!(one["Action"], "SQS:SendMessage");
    assert_eq!(one["Principal"]["AWS"], "arn:aws:iam::111122223333:root");
    let two = &policy["Statement"][1];
    assert_eq!(
        two["Action"],
        serde_json::json!(["SQS:ReceiveMessage", "SQS:DeleteMessage"])
    );
    assert_eq!(two["Principal"]["AWS"].as_array().map(Vec::len), Some(2));
}
