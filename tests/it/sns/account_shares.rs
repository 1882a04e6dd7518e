//! Shares per account (issue 50, M3): on a shared instance the outbox's bytes and POST slots
//! are split among the declared accounts, so one account's dead endpoints cannot drop
//! another's deliveries; and no delivery is retried past SNS's 3,600-second limit on a
//! policy's total retry time, whatever its policy says.

use super::outbound_bounds::Silent;
use crate::common::endpoint::Endpoint;
use crate::common::{sns_client_with, TestServer, OTHER, OWNER};

/// Two accounts, loopback subscribers allowed, and a small outbox.
async fn shared() -> TestServer {
    use sqslite::config::Credential;
    let mut config = sqslite::Config::ephemeral()
        .with_credential(Credential::new("AKIDEXAMPLE", "secret", OWNER))
        .with_credential(Credential::new("AKIDOTHER", "other-secret", OTHER));
    config.outbound.allow = vec!["127.0.0.1".into()];
    config.sns_limits.http.waiting_bytes = 40_000;
    config.sns_limits.http.subscription_bytes = 40_000;
    config.sns_limits.http.per_endpoint = 1;
    TestServer::start_with(config).await
}

/// A topic of the account `sns` signs as, subscribed to `url` and confirmed with the token
/// `confirmation` reads from the endpoint.
async fn confirmed_topic(
    sns: &aws_sdk_sns::Client,
    name: &str,
    url: &str,
    confirmation: impl std::future::Future<Output = String>,
) -> String {
    let topic = sns.create_topic().name(name).send().await.unwrap();
    let topic = topic.topic_arn.unwrap();
    let call = sns.subscribe().topic_arn(&topic).protocol("http");
    call.endpoint(url).send().await.unwrap();
    let doc: serde_json::Value = serde_json::from_str(&confirmation.await).unwrap();
    let call = sns.confirm_subscription().topic_arn(&topic);
    call.token(doc["Token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    topic
}

#[tokio::test]
async fn one_accounts_dead_endpoint_leaves_room_for_anothers_deliveries() {
    let t = shared().await;
    let (a, b) = (
        sns_client_with(&t.endpoint(), "AKIDEXAMPLE", "secret", &t.clock),
        sns_client_with(&t.endpoint(), "AKIDOTHER", "other-secret", &t.clock),
    );
    // B's subscriber never answers: its notifications wait, one under way at a time.
    let dead = Silent::start().await;
    let first = async { dead.wait_for(1).await[0].clone() };
    let b_topic = confirmed_topic(&b, "b-events", &dead.url, first).await;
    for _ in 0..40 {
        let call = b.publish().topic_arn(&b_topic).message("x".repeat(1000));
        call.send().await.unwrap();
    }
    let got = t
        .raw("GET", "/_sqslite/sns/deliveries", &[], "")
        .await
        .json();
    let held = got["http_waiting_bytes"].as_u64().unwrap();
    assert!(
        held <= 20_000,
        "B holds at most its half of the bytes: {got}"
    );
    // A's subscriber still gets its confirmation and its notification.
    let hook = Endpoint::start().await;
    let confirmation = async { hook.wait_for(1).await[0].body.clone() };
    let a_topic = confirmed_topic(&a, "a-events", &hook.url, confirmation).await;
    let call = a.publish().topic_arn(&a_topic).message("for A");
    call.send().await.unwrap();
    let got = hook.wait_for(2).await;
    assert_eq!(got[1].json()["Message"], "for A");
}

#[tokio::test]
async fn a_delivery_is_not_retried_past_an_hour() {
    let s = crate::common::sns::start().await;
    let topic = s.topic("patient", &[]).await;
    let dlq = s.t.create_queue("patient-dlq").await;
    let dlq_arn = s.t.attribute(&dlq, "QueueArn").await;
    let hook = Endpoint::start().await;
    let call = s.sns.subscribe().topic_arn(&topic).protocol("http");
    let sub = call.endpoint(&hook.url).return_subscription_arn(true);
    let sub = sub.send().await.unwrap().subscription_arn.unwrap();
    let token = hook.wait_for(1).await[0].json()["Token"]
        .as_str()
        .unwrap()
        .to_owned();
    let call = s.sns.confirm_subscription().topic_arn(&topic).token(token);
    call.send().await.unwrap();
    // A hundred retries an hour apart: a hundred hours, as the review's endpoints had.
    let policy = r#"{"healthyRetryPolicy":{"numRetries":100,"minDelayTarget":3600,"maxDelayTarget":3600,"numMinDelayRetries":100}}"#;
    s.set_subscription(&sub, "DeliveryPolicy", policy).await;
    let redrive = serde_json::json!({"deadLetterTargetArn": dlq_arn}).to_string();
    s.set_subscription(&sub, "RedrivePolicy", &redrive).await;
    hook.answer_with(&[500; 10]);
    s.publish(&topic, "never answered").await;
    hook.wait_for(2).await;
    // The one retry within the hour is made, and then no other: dead-lettered.
    s.t.advance(3600);
    hook.wait_for(3).await;
    let depth = crate::common::lambda::within("the dead-lettered delivery", async {
        loop {
            let depth = s.t.attribute(&dlq, "ApproximateNumberOfMessages").await;
            if depth == "1" {
                return depth;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    })
    .await;
    assert_eq!(depth, "1");
    let got =
        s.t.raw("GET", "/_sqslite/sns/deliveries", &[], "")
            .await
            .json();
    assert_eq!(got["http_waiting"], 0, "{got}");
}
