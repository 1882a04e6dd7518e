//! Topic policies: the Policy attribute is validated, and another account's Publish or
//! Subscribe is allowed only where the topic's Policy says so (the queues' evaluator).

use crate::common::sns::{start_with, Sns};
use crate::common::{code, expect_code, message, sns_client_with, OTHER, OWNER};

/// A server with the owner's key and [`OTHER`]'s, and an SNS client of the other account.
async fn two_accounts() -> (Sns, aws_sdk_sns::Client) {
    use sqslite::config::Credential;
    let s = start_with(
        sqslite::Config::ephemeral()
            .with_credential(Credential::new("AKIDEXAMPLE", "secret", OWNER))
            .with_credential(Credential::new("AKIDOTHER", "other-secret", OTHER)),
    )
    .await;
    let other = sns_client_with(&s.t.endpoint(), "AKIDOTHER", "other-secret", &s.t.clock);
    (s, other)
}

/// `client` subscribes a phone number to `topic`; the error code if refused.
async fn subscribe_sms(client: &aws_sdk_sns::Client, topic: &str) -> Result<(), String> {
    let req = client.subscribe().topic_arn(topic).protocol("sms");
    req.endpoint("+15550100")
        .send()
        .await
        .map(drop)
        .map_err(|e| code(&e))
}

#[tokio::test]
async fn another_account_publishes_only_where_the_topic_policy_allows() {
    let (s, other) = two_accounts().await;
    let topic = s.topic("shared", &[]).await;

    // The default policy allows the owner's account only.
    let err = expect_code(
        other.publish().topic_arn(&topic).message("hi").send().await,
        "AuthorizationError",
    );
    assert_eq!(err.raw_response().unwrap().status().as_u16(), 403);
    assert_eq!(
        message(&err),
        format!("User: arn:aws:iam::{OTHER}:root is not authorized to perform: SNS:Publish on resource: {topic}")
    );
    assert_eq!(
        subscribe_sms(&other, &topic).await.unwrap_err(),
        "AuthorizationError"
    );

    let policy = serde_json::json!({
        "Version": "2012-10-17",
        "Statement": [{
            "Effect": "Allow",
            "Principal": {"AWS": format!("arn:aws:iam::{OTHER}:root")},
            "Action": "sns:Publish",
            "Resource": topic,
        }]
    });
    s.sns
        .set_topic_attributes()
        .topic_arn(&topic)
        .attribute_name("Policy")
        .attribute_value(policy.to_string())
        .send()
        .await
        .unwrap();
    other
        .publish()
        .topic_arn(&topic)
        .message("allowed")
        .send()
        .await
        .unwrap();
    assert_eq!(
        subscribe_sms(&other, &topic).await.unwrap_err(),
        "AuthorizationError",
        "only Publish was granted"
    );
    // The owner is never refused by its own Allow-only policy.
    s.publish(&topic, "mine").await;
}

#[tokio::test]
async fn add_and_remove_permission_edit_the_topic_policy() {
    let (s, other) = two_accounts().await;
    let topic = s.topic("granted", &[]).await;
    s.sns
        .add_permission()
        .topic_arn(&topic)
        .label("let-other-subscribe")
        .aws_account_id(OTHER)
        .action_name("Subscribe")
        .send()
        .await
        .unwrap();
    let attrs = s.topic_attributes(&topic).await;
    assert!(attrs["Policy"].contains("let-other-subscribe"));
    subscribe_sms(&other, &topic).await.unwrap();
    expect_code(
        s.sns
            .add_permission()
            .topic_arn(&topic)
            .label("let-other-subscribe")
            .aws_account_id(OTHER)
            .action_name("Subscribe")
            .send()
            .await,
        "InvalidParameter",
    );
    s.sns
        .remove_permission()
        .topic_arn(&topic)
        .label("let-other-subscribe")
        .send()
        .await
        .unwrap();
    assert_eq!(
        subscribe_sms(&other, &topic).await.unwrap_err(),
        "AuthorizationError"
    );
}

#[tokio::test]
async fn a_topic_policy_is_validated() {
    let s = crate::common::sns::start().await;
    let topic = s.topic("strict-policy", &[]).await;
    for (bad, expected) in [
        ("not json", "Invalid parameter: Policy Error: null"),
        (
            r#"{"Statement":[{"Effect":"Perhaps","Principal":"*","Action":"sns:Publish"}]}"#,
            "Invalid parameter: Policy Error: null",
        ),
    ] {
        let err = expect_code(
            s.sns
                .set_topic_attributes()
                .topic_arn(&topic)
                .attribute_name("Policy")
                .attribute_value(bad)
                .send()
                .await,
            "InvalidParameter",
        );
        assert_eq!(message(&err), expected);
    }
    let huge = format!(r#"{{"Id":"{}","Statement":[]}}"#, "x".repeat(31 * 1024));
    let err = s
        .sns
        .set_topic_attributes()
        .topic_arn(&topic)
        .attribute_name("Policy")
        .attribute_value(huge)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Invalid parameter: Policy exceeds the maximum size of 30 KB."
    );
}
