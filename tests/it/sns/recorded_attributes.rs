//! Topic and subscription attributes as AWS records them: SubscriptionPrincipal and the
//! recorded key sets, FilterPolicyScope's visibility (the refusals are in
//! `recorded_filters.rs`), idempotent CreateTopic and Subscribe, list tokens, tags, AddPermission's
//! statement, DeliveryPolicy as stored and effective, data protection policies. Sources:
//! LocalStack's AWS-validated snapshots (`tests/aws/services/sns/test_sns.snapshot.json`,
//! `test_sns_filter_policy.snapshot.json`), keys named per case.

use std::collections::BTreeSet;

use base64::Engine;
use serde_json::{json, Value};

use crate::common::sns::{failure, invalid, start, Sns};

/// The SubscriptionPrincipal of a subscription an unsigned Subscribe made.
async fn unsigned_principal(s: &Sns, topic: &str) -> String {
    let queue = s.queue("principal-unsigned", &[]).await.1;
    let form = format!(
        "Action=Subscribe&TopicArn={}&Protocol=sqs&Endpoint={}&ReturnSubscriptionArn=true",
        urlencode(topic),
        urlencode(&queue)
    );
    let headers = [("content-type", "application/x-www-form-urlencoded")];
    let got = s.t.raw("POST", "/", &headers, &form).await;
    assert_eq!(got.status, 200, "{}", got.body);
    let arn = got.xml("SubscriptionArn").unwrap();
    s.subscription_attributes(&arn).await["SubscriptionPrincipal"].clone()
}

#[tokio::test]
async fn a_subscription_names_its_principal_and_the_recorded_keys() {
    let s = start().await;
    let topic = s.topic("principal", &[]).await;
    let (_, queue) = s.queue("principal-q", &[]).await;
    let sub = s.subscribe(&topic, &queue, &[]).await;
    // test_not_found_error_on_set_subscription_attributes: sub-attrs (the nine keys)
    let attrs = s.subscription_attributes(&sub).await;
    let keys: BTreeSet<&str> = attrs.keys().map(String::as_str).collect();
    let want: BTreeSet<&str> = [
        "ConfirmationWasAuthenticated",
        "Endpoint",
        "Owner",
        "PendingConfirmation",
        "Protocol",
        "RawMessageDelivery",
        "SubscriptionArn",
        "SubscriptionPrincipal",
        "TopicArn",
    ]
    .into();
    assert_eq!(keys, want);
    // A signed caller is an IAM user of its account, read as its SenderId is: AWS records
    // `arn:aws:iam::<account>:user/<name>` for a subscription an IAM user made (the SNS
    // developer guide's GetSubscriptionAttributes example; LocalStack's AWS-validated
    // `test_sns.snapshot.json`), so with no `[[credentials]]` the key is the user's name.
    assert_eq!(
        attrs["SubscriptionPrincipal"],
        "arn:aws:iam::000000000000:user/AKIDEXAMPLE"
    );
    // An unsigned caller acts as the account: its root is the principal.
    assert_eq!(
        unsigned_principal(&s, &topic).await,
        "arn:aws:iam::000000000000:root"
    );

    // sub-attrs-filter-scope-body: the scope alone shows nothing; with a policy it shows.
    s.set_subscription(&sub, "FilterPolicyScope", "MessageBody")
        .await;
    assert!(!s
        .subscription_attributes(&sub)
        .await
        .contains_key("FilterPolicyScope"));
    s.set_subscription(&sub, "FilterPolicy", r#"{"a":["b"]}"#)
        .await;
    assert_eq!(
        s.subscription_attributes(&sub).await["FilterPolicyScope"],
        "MessageBody"
    );
    let other = s
        .subscribe(&topic, &s.queue("principal-2", &[]).await.1, &[])
        .await;
    s.set_subscription(&other, "FilterPolicy", r#"{"a":["b"]}"#)
        .await;
    let attrs = s.subscription_attributes(&other).await;
    assert_eq!(attrs["FilterPolicyScope"], "MessageAttributes");
    s.set_subscription(&other, "FilterPolicy", "").await;
    let attrs = s.subscription_attributes(&other).await;
    assert!(!attrs.contains_key("FilterPolicy") && !attrs.contains_key("FilterPolicyScope"));
}

#[tokio::test]
async fn create_topic_and_subscribe_are_idempotent_as_recorded() {
    let s = start().await;
    let tags = |pairs: &[(&str, &str)]| {
        pairs
            .iter()
            .map(|(k, v)| {
                aws_sdk_sns::types::Tag::builder()
                    .key(*k)
                    .value(*v)
                    .build()
                    .unwrap()
            })
            .collect::<Vec<_>>()
    };
    let create = |attrs: &[(&str, &str)], t: Vec<aws_sdk_sns::types::Tag>| {
        let mut call = s.sns.create_topic().name("again").set_tags(Some(t));
        for (k, v) in attrs {
            call = call.attributes(*k, *v);
        }
        call.send()
    };
    let arn = create(&[], tags(&[("a", "1"), ("b", "2")]))
        .await
        .unwrap()
        .topic_arn
        .unwrap();
    // kombu asks again with FifoTopic=false; test_create_duplicate_topic_check_idempotency:
    // the same, fewer or no tags.
    for (attrs, t) in [
        (&[("FifoTopic", "false")][..], tags(&[])),
        (&[], tags(&[("a", "1")])),
        (&[("DisplayName", "")], tags(&[("a", "1"), ("b", "2")])),
    ] {
        assert_eq!(create(attrs, t).await.unwrap().topic_arn.unwrap(), arn);
    }
    // test_create_duplicate_topic_with_more_tags
    let got = failure(create(&[], tags(&[("c", "3")])).await);
    assert_eq!(
        got,
        invalid("Invalid parameter: Tags Reason: Topic already exists with different tags")
    );
    let got = failure(create(&[("DisplayName", "other")], tags(&[])).await);
    assert_eq!(
        got,
        invalid(
            "Invalid parameter: Attributes Reason: Topic already exists with different attributes"
        )
    );
}

#[tokio::test]
async fn subscribe_is_idempotent_as_recorded() {
    let s = start().await;
    let arn = s.topic("again", &[]).await;
    // test_subscribe_idempotency: equal after normalization is the same subscription.
    let (_, queue) = s.queue("again-q", &[]).await;
    let first = s
        .subscribe(&arn, &queue, &[("RawMessageDelivery", "True")])
        .await;
    assert_eq!(
        s.subscription_attributes(&first).await["RawMessageDelivery"],
        "true"
    );
    // Issue 48, as AWS recorded it: a repeat compares only the attributes it gives (each
    // against the subscription's value or SNS's default): none, `{}`, the default scope
    // alone, the same RawMessageDelivery.
    for attrs in [
        &[][..],
        &[("FilterPolicyScope", "MessageAttributes")],
        &[("RawMessageDelivery", "true")],
        &[
            ("RawMessageDelivery", "true"),
            ("FilterPolicyScope", "MessageAttributes"),
        ],
    ] {
        assert_eq!(s.subscribe(&arn, &queue, attrs).await, first);
    }
    let call = s
        .sns
        .subscribe()
        .topic_arn(&arn)
        .protocol("sqs")
        .endpoint(&queue);
    let call = call
        .attributes("RawMessageDelivery", "false")
        .attributes("FilterPolicyScope", "MessageBody");
    let want = "Invalid parameter: Attributes Reason: Subscription already exists with different attributes";
    assert_eq!(failure(call.send().await), invalid(want));
}

#[tokio::test]
async fn list_tokens_tags_and_empty_results() {
    let s = start().await;
    let topic = s.topic("paged", &[]).await;
    for i in 0..101 {
        let call = s.sns.subscribe().topic_arn(&topic).protocol("sms");
        call.endpoint(format!("+1555020{i:04}"))
            .send()
            .await
            .unwrap();
    }
    let page = s
        .sns
        .list_subscriptions_by_topic()
        .topic_arn(&topic)
        .send()
        .await
        .unwrap();
    // test_list_subscriptions_by_topic_pagination: clients base64-decode the token.
    let token = page.next_token.unwrap();
    base64::engine::general_purpose::STANDARD
        .decode(&token)
        .expect("standard base64");

    // test_tags: duplicate-key-error
    let tag = |k: &str, v: &str| {
        aws_sdk_sns::types::Tag::builder()
            .key(k)
            .value(v)
            .build()
            .unwrap()
    };
    let call = s
        .sns
        .tag_resource()
        .resource_arn(&topic)
        .tags(tag("k", "1"))
        .tags(tag("k", "2"));
    assert_eq!(
        failure(call.send().await),
        invalid("Invalid parameter: Duplicated keys are not allowed.")
    );
    // botocore's model: TagResource and UntagResource answer an empty <…Result/> wrapper.
    let form = |action: &str, extra: &str| {
        format!("Action={action}&ResourceArn={}&{extra}", urlencode(&topic))
    };
    let headers = [("content-type", "application/x-www-form-urlencoded")];
    for (action, extra) in [
        ("TagResource", "Tags.member.1.Key=k&Tags.member.1.Value=v"),
        ("UntagResource", "TagKeys.member.1=k"),
    ] {
        let got = s.t.raw("POST", "/", &headers, &form(action, extra)).await;
        assert_eq!(got.status, 200, "{}", got.body);
        assert!(
            got.body
                .contains(&format!("<{action}Result></{action}Result>")),
            "{}",
            got.body
        );
    }
}

fn urlencode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[tokio::test]
async fn add_permission_writes_single_values_as_strings() {
    let s = start().await;
    let topic = s.topic("granted", &[]).await;
    let call = s.sns.add_permission().topic_arn(&topic).label("one");
    call.aws_account_id("999999999999")
        .action_name("Publish")
        .send()
        .await
        .unwrap();
    let call = s.sns.add_permission().topic_arn(&topic).label("two");
    let call = call
        .aws_account_id("888888888888")
        .aws_account_id("999999999999");
    call.action_name("Publish")
        .action_name("Subscribe")
        .send()
        .await
        .unwrap();
    let policy: Value = serde_json::from_str(&s.topic_attributes(&topic).await["Policy"]).unwrap();
    let statements = policy["Statement"].as_array().unwrap();
    assert_eq!(statements[0]["Sid"], "__default_statement_ID");
    assert_eq!(
        statements[1],
        json!({"Sid": "one", "Effect": "Allow",
               "Principal": {"AWS": "arn:aws:iam::999999999999:root"},
               "Action": "SNS:Publish", "Resource": topic})
    );
    assert_eq!(
        statements[2]["Principal"]["AWS"],
        json!([
            "arn:aws:iam::888888888888:root",
            "arn:aws:iam::999999999999:root"
        ])
    );
    assert_eq!(
        statements[2]["Action"],
        json!(["SNS:Publish", "SNS:Subscribe"])
    );
    // test_add_permission_errors, invalid-action (2025-12).
    let call = s.sns.add_permission().topic_arn(&topic).label("three");
    let call = call.aws_account_id("999999999999").action_name("Dance");
    assert_eq!(
        failure(call.send().await),
        invalid("Invalid parameter: Policy statement action out of service scope!")
    );
}

/// A topic's DeliveryPolicy (absent when none is stored) and EffectiveDeliveryPolicy.
async fn read(s: &Sns, topic: &str) -> (Option<Value>, Value) {
    let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap();
    let attrs = s.topic_attributes(topic).await;
    let stored = attrs.get("DeliveryPolicy").map(|p| parse(p));
    (stored, parse(&attrs["EffectiveDeliveryPolicy"]))
}

#[tokio::test]
async fn delivery_policy_as_stored_and_effective() {
    let s = start().await;
    // test_topic_delivery_policy_crud
    let created = r#"{"http":{"defaultRequestPolicy":{"headerContentType":"application/json"}}}"#;
    let topic = s.topic("policed", &[("DeliveryPolicy", created)]).await;
    let defaults = json!({"http": {
        "defaultHealthyRetryPolicy": {"minDelayTarget": 20, "maxDelayTarget": 20, "numRetries": 3,
            "numMaxDelayRetries": 0, "numNoDelayRetries": 0, "numMinDelayRetries": 0,
            "backoffFunction": "linear"},
        "disableSubscriptionOverrides": false,
        "defaultRequestPolicy": {"headerContentType": "text/plain; charset=UTF-8"}}});
    let (stored, effective) = read(&s, &topic).await;
    let mut want = json!({"http": {"disableSubscriptionOverrides": false,
        "defaultRequestPolicy": {"headerContentType": "application/json"}}});
    assert_eq!(stored, Some(want.clone()));
    let mut expected = defaults.clone();
    expected["http"]["defaultRequestPolicy"]["headerContentType"] = json!("application/json");
    assert_eq!(effective, expected);

    let set = |value: &'static str| {
        let call = s
            .sns
            .set_topic_attributes()
            .topic_arn(&topic)
            .attribute_name("DeliveryPolicy");
        call.attribute_value(value).send()
    };
    set(r#"{"http":{"defaultHealthyRetryPolicy":{"minDelayTarget":5,"maxDelayTarget":6,"numRetries":1}}}"#).await.unwrap();
    let (stored, effective) = read(&s, &topic).await;
    want = json!({"http": {"defaultHealthyRetryPolicy": {"minDelayTarget": 5, "maxDelayTarget": 6,
        "numRetries": 1}, "disableSubscriptionOverrides": false}});
    assert_eq!(stored, Some(want));
    let mut expected = defaults.clone();
    for (k, v) in [
        ("minDelayTarget", 5),
        ("maxDelayTarget", 6),
        ("numRetries", 1),
    ] {
        expected["http"]["defaultHealthyRetryPolicy"][k] = json!(v);
    }
    assert_eq!(effective, expected);
    set(r#"{"http":{"defaultHealthyRetryPolicy":null}}"#)
        .await
        .unwrap();
    let (stored, effective) = read(&s, &topic).await;
    assert_eq!(
        stored,
        Some(json!({"http": {"disableSubscriptionOverrides": false}}))
    );
    assert_eq!(effective, defaults);
    set("").await.unwrap();
    let (stored, effective) = read(&s, &topic).await;
    assert_eq!(stored, None);
    assert_eq!(effective, defaults);
}

#[tokio::test]
async fn data_protection_policies_are_kept() {
    let s = start().await;
    let topic = s.topic("protected", &[]).await;
    let got = s
        .sns
        .get_data_protection_policy()
        .resource_arn(&topic)
        .send()
        .await
        .unwrap();
    assert_eq!(got.data_protection_policy(), Some(""));
    let policy = r#"{"Name":"basic","Version":"2021-06-01","Statement":[]}"#;
    let call = s.sns.put_data_protection_policy().resource_arn(&topic);
    call.data_protection_policy(policy).send().await.unwrap();
    let got = s
        .sns
        .get_data_protection_policy()
        .resource_arn(&topic)
        .send()
        .await
        .unwrap();
    assert_eq!(got.data_protection_policy(), Some(policy));
    // Recorded (issue 48): GetTopicAttributes lists these keys and no DataProtectionPolicy;
    // GetDataProtectionPolicy alone reads it.
    let keys: BTreeSet<String> = s.topic_attributes(&topic).await.into_keys().collect();
    let want = [
        "DisplayName",
        "EffectiveDeliveryPolicy",
        "Owner",
        "Policy",
        "SubscriptionsConfirmed",
        "SubscriptionsDeleted",
        "SubscriptionsPending",
        "TopicArn",
    ];
    assert_eq!(keys, want.iter().map(|k| (*k).to_owned()).collect());
    // botocore's CreateTopicInput takes the policy as a member of its own.
    let made = s
        .sns
        .create_topic()
        .name("protected-at-birth")
        .data_protection_policy(policy)
        .send()
        .await
        .unwrap()
        .topic_arn
        .unwrap();
    let got = s.sns.get_data_protection_policy().resource_arn(&made);
    let got = got.send().await.unwrap();
    assert_eq!(got.data_protection_policy(), Some(policy));
    let call = s
        .sns
        .get_data_protection_policy()
        .resource_arn(format!("{topic}-gone"));
    assert_eq!(
        failure(call.send().await),
        ("NotFound".into(), "Topic does not exist".into())
    );
}
