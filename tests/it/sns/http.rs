//! SNS http subscriptions against a real local endpoint: the confirmation handshake (a GET
//! of the SubscribeURL, or ConfirmSubscription), signed messages a validator accepts, SNS's
//! headers, raw delivery, retries driven by the manual clock, and the dead-letter queue.

use serde_json::Value;

use crate::common::endpoint::{Endpoint, Received};
use crate::common::sns::{start, subscriptions_of, verify_signature, Sns};
use crate::common::{expect_code, message, raw};

/// Subscribes `endpoint` over http; the answer's SubscriptionArn.
async fn subscribe_http(
    s: &Sns,
    topic: &str,
    endpoint: &Endpoint,
    attrs: &[(&str, &str)],
) -> String {
    let mut req = s
        .sns
        .subscribe()
        .topic_arn(topic)
        .protocol("http")
        .endpoint(&endpoint.url);
    for (k, v) in attrs {
        req = req.attributes(*k, *v);
    }
    req.send().await.unwrap().subscription_arn.unwrap()
}

/// A message's signature, checked with the certificate fetched from its SigningCertURL.
async fn verify(s: &Sns, message: &Value) {
    let cert_url = message["SigningCertURL"].as_str().unwrap();
    let path = cert_url.strip_prefix(&s.t.endpoint()).expect("served here");
    let cert = raw(&s.t.endpoint(), "GET", path, &[], "").await;
    assert_eq!(cert.status, 200);
    verify_signature(message, &cert.body);
}

fn assert_sns_headers(got: &Received, kind: &str, topic: &str) {
    assert_eq!(got.method, "POST");
    assert_eq!(got.header("x-amz-sns-message-type"), Some(kind));
    assert_eq!(got.header("x-amz-sns-topic-arn"), Some(topic));
    assert!(got.header("x-amz-sns-message-id").is_some());
    assert_eq!(
        got.header("content-type"),
        Some("text/plain; charset=UTF-8")
    );
    assert_eq!(
        got.header("user-agent"),
        Some("Amazon Simple Notification Service Agent")
    );
}

/// Confirms through the SDK with the token the endpoint was sent.
async fn confirm(s: &Sns, topic: &str, confirmation: &Received) -> String {
    s.sns
        .confirm_subscription()
        .topic_arn(topic)
        .token(confirmation.json()["Token"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .subscription_arn
        .unwrap()
}

#[tokio::test]
async fn an_http_subscription_is_confirmed_by_its_subscribe_url_then_notified() {
    let s = start().await;
    let hook = Endpoint::start().await;
    let topic = s.topic("web", &[]).await;
    assert_eq!(
        subscribe_http(&s, &topic, &hook, &[]).await,
        "pending confirmation"
    );
    let got = hook.wait_for(1).await;
    assert_sns_headers(&got[0], "SubscriptionConfirmation", &topic);
    assert_eq!(got[0].header("x-amz-sns-subscription-arn"), None);
    let confirmation = got[0].json();
    assert_eq!(confirmation["Type"], "SubscriptionConfirmation");
    assert_eq!(confirmation["TopicArn"], topic.as_str());
    assert_eq!(
        confirmation["MessageId"].as_str(),
        got[0].header("x-amz-sns-message-id")
    );
    verify(&s, &confirmation).await;

    listed_as_pending_and_reached_by_nobody(&s, &topic).await;
    // What a receiver does: GET the SubscribeURL, which sqslite serves on its own port.
    let url = confirmation["SubscribeURL"].as_str().unwrap();
    let path = url.strip_prefix(&s.t.endpoint()).expect("served here");
    let confirmed = raw(&s.t.endpoint(), "GET", path, &[], "").await;
    assert_eq!(confirmed.status, 200, "{}", confirmed.body);
    let arn = confirmed.xml("SubscriptionArn").unwrap();
    assert!(arn.starts_with(&format!("{topic}:")));
    let sub = s.subscription_attributes(&arn).await;
    assert_eq!(sub["PendingConfirmation"], "false");
    assert_eq!(sub["ConfirmationWasAuthenticated"], "false");
    assert!(sub["EffectiveDeliveryPolicy"].contains("\"numRetries\":3"));

    a_notification_carries_sns_headers_and_a_signature(&s, &hook, &topic, &arn).await;

    s.sns
        .unsubscribe()
        .subscription_arn(&arn)
        .send()
        .await
        .unwrap();
    let got = hook.wait_for(3).await;
    assert_sns_headers(&got[2], "UnsubscribeConfirmation", &topic);
    assert_eq!(
        got[2].header("x-amz-sns-subscription-arn"),
        Some(arn.as_str())
    );
    verify(&s, &got[2].json()).await;
    assert_eq!(
        hook.received().len(),
        3,
        "the early publish was never delivered"
    );
}

/// A publish reaches the confirmed subscription with SNS's headers, signed.
async fn a_notification_carries_sns_headers_and_a_signature(
    s: &Sns,
    hook: &Endpoint,
    topic: &str,
    arn: &str,
) {
    s.sns
        .publish()
        .topic_arn(topic)
        .message("hello web")
        .subject("greeting")
        .send()
        .await
        .unwrap();
    let got = hook.wait_for(2).await;
    assert_sns_headers(&got[1], "Notification", topic);
    assert_eq!(got[1].header("x-amz-sns-subscription-arn"), Some(arn));
    assert_eq!(got[1].header("x-amz-sns-rawdelivery"), None);
    let note = got[1].json();
    assert_eq!(note["Message"], "hello web");
    assert_eq!(note["Subject"], "greeting");
    verify(s, &note).await;
}

/// Until confirmed the subscription is listed as pending, and a publish reaches nobody.
async fn listed_as_pending_and_reached_by_nobody(s: &Sns, topic: &str) {
    let listed = subscriptions_of(&s.sns, topic).await;
    assert_eq!(listed[0].subscription_arn(), Some("PendingConfirmation"));
    let attrs = s.topic_attributes(topic).await;
    assert_eq!(attrs["SubscriptionsPending"], "1");
    assert_eq!(attrs["SubscriptionsConfirmed"], "0");
    // Unconfirmed: a publish now reaches nobody.
    s.publish(topic, "too early").await;
}

#[tokio::test]
async fn confirm_subscription_by_the_sdk_is_authenticated() {
    let s = start().await;
    let hook = Endpoint::start().await;
    let topic = s.topic("signed-confirm", &[]).await;
    let arn = s
        .sns
        .subscribe()
        .topic_arn(&topic)
        .protocol("http")
        .endpoint(&hook.url)
        .return_subscription_arn(true)
        .send()
        .await
        .unwrap()
        .subscription_arn
        .unwrap();
    assert!(arn.starts_with(&format!("{topic}:")), "{arn}");
    let sub = s.subscription_attributes(&arn).await;
    assert_eq!(sub["PendingConfirmation"], "true");

    let err = expect_code(
        s.sns
            .confirm_subscription()
            .topic_arn(&topic)
            .token("00ff")
            .send()
            .await,
        "InvalidParameter",
    );
    assert_eq!(message(&err), "Invalid parameter: Token");

    let got = hook.wait_for(1).await;
    let token = got[0].json()["Token"].as_str().unwrap().to_owned();
    let confirmed = s
        .sns
        .confirm_subscription()
        .topic_arn(&topic)
        .token(&token)
        .authenticate_on_unsubscribe("true")
        .send()
        .await
        .unwrap();
    assert_eq!(confirmed.subscription_arn(), Some(arn.as_str()));
    let sub = s.subscription_attributes(&arn).await;
    assert_eq!(sub["ConfirmationWasAuthenticated"], "true");

    // The UnsubscribeURL of a notification, followed unsigned, cannot remove it now.
    s.publish(&topic, "hi").await;
    let got = hook.wait_for(2).await;
    let link = got[1].json()["UnsubscribeURL"].as_str().unwrap().to_owned();
    let path = link.strip_prefix(&s.t.endpoint()).unwrap();
    let refused = raw(&s.t.endpoint(), "GET", path, &[], "").await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(refused.xml("Code").as_deref(), Some("AuthorizationError"));
    s.sns
        .unsubscribe()
        .subscription_arn(&arn)
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn raw_delivery_posts_the_bare_message() {
    let s = start().await;
    let hook = Endpoint::start().await;
    let topic = s.topic("raw-web", &[]).await;
    subscribe_http(&s, &topic, &hook, &[("RawMessageDelivery", "true")]).await;
    let confirmation = hook.wait_for(1).await.remove(0);
    let arn = confirm(&s, &topic, &confirmation).await;
    s.publish(&topic, "just the body").await;
    let got = hook.wait_for(2).await;
    assert_eq!(got[1].body, "just the body");
    assert_eq!(got[1].header("x-amz-sns-rawdelivery"), Some("true"));
    assert_eq!(
        got[1].header("x-amz-sns-subscription-arn"),
        Some(arn.as_str())
    );
    assert_sns_headers(&got[1], "Notification", &topic);
}

#[tokio::test]
async fn failed_posts_are_retried_on_the_servers_clock_then_dead_lettered() {
    let s = start().await;
    let hook = Endpoint::start().await;
    let topic = s.topic("flaky-web", &[]).await;
    let (dlq_url, dlq_arn) = s.queue("flaky-web-dlq", &[]).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}"}}"#);
    subscribe_http(&s, &topic, &hook, &[("RedrivePolicy", &redrive)]).await;
    let confirmation = hook.wait_for(1).await.remove(0);
    confirm(&s, &topic, &confirmation).await;

    // SNS's default policy: the first attempt and three retries, twenty seconds apart.
    hook.answer_with(&[500, 503, 500, 502]);
    s.publish(&topic, "keep trying").await;
    let first = hook.wait_for(2).await.remove(1);
    for attempt in 3..=5 {
        s.t.advance(20);
        let got = hook.wait_for(attempt).await;
        let retry = &got[attempt - 1];
        assert_eq!(retry.body, first.body, "a retry resends the same message");
        assert_eq!(
            retry.header("x-amz-sns-message-id"),
            first.header("x-amz-sns-message-id")
        );
    }
    let dead =
        s.t.client
            .receive_message()
            .queue_url(&dlq_url)
            .wait_time_seconds(20)
            .send();
    let dead = tokio::time::timeout(std::time::Duration::from_secs(20), dead)
        .await
        .expect("the notification reaches the DLQ")
        .unwrap();
    let dead = dead.messages.unwrap();
    assert_eq!(dead.len(), 1);
    let note: Value = serde_json::from_str(dead[0].body().unwrap()).unwrap();
    assert_eq!(note["Message"], "keep trying");
    let topics = s.admin_get("/_sqslite/topics").await.1;
    let failure = &topics["topics"][0]["subscriptions"][0]["last_failure"];
    assert_eq!(failure["why"], "retries_spent", "{topics}");
    assert_eq!(
        failure["reason"],
        "the endpoint answered 502 (after 3 retries)"
    );
    assert_eq!(failure["dead_lettered"], true);
    // Spent: advancing further sends nothing more.
    s.t.advance(3600);
    s.publish(&topic, "delivered at once").await;
    let got = hook.wait_for(6).await;
    assert_eq!(got.len(), 6);
    assert_eq!(got[5].json()["Message"], "delivered at once");
}

/// throttlePolicy.maxReceivesPerSecond paces a subscription's POSTs on the server's clock:
/// at 2 per second, one every 500 ms, the rest waiting in the outbox meanwhile.
#[tokio::test]
async fn a_throttled_subscription_is_paced_on_the_servers_clock() {
    let s = start().await;
    let hook = Endpoint::start().await;
    let topic = s.topic("paced-web", &[]).await;
    let policy = r#"{"throttlePolicy":{"maxReceivesPerSecond":2}}"#;
    subscribe_http(&s, &topic, &hook, &[("DeliveryPolicy", policy)]).await;
    let confirmation = hook.wait_for(1).await.remove(0);
    let arn = confirm(&s, &topic, &confirmation).await;
    let effective = &s.subscription_attributes(&arn).await["EffectiveDeliveryPolicy"];
    let effective: Value = serde_json::from_str(effective).unwrap();
    assert_eq!(effective["throttlePolicy"]["maxReceivesPerSecond"], 2);

    for n in 0..3 {
        s.publish(&topic, &format!("paced {n}")).await;
    }
    let waiting =
        || async { s.admin_get("/_sqslite/sns/deliveries").await.1["http_waiting"].clone() };
    hook.wait_for(2).await;
    assert_eq!(waiting().await, 2, "the others wait for their turn");
    s.t.advance_ms(499);
    assert_eq!(waiting().await, 2, "not before 500 ms");
    s.t.advance_ms(1);
    let got = hook.wait_for(3).await;
    assert_eq!(got[2].json()["Message"], "paced 1");
    assert_eq!(waiting().await, 1);
    s.t.advance_ms(500);
    let got = hook.wait_for(4).await;
    assert_eq!(got[3].json()["Message"], "paced 2");
    assert_eq!(waiting().await, 0);
}
