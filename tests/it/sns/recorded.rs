//! Subscribe's endpoint checks for every protocol, and the protocols sqslite cannot deliver to (email, email-json, sms, application, lambda,
//! firehose): Subscribe checks their endpoints as SNS does, email stays pending until
//! confirmed with the recorded token, and every delivery is recorded at
//! `GET /_sqslite/sns/deliveries` with exactly what would be sent. Also: opaque list tokens.

use serde_json::Value;

use crate::common::sns::{start, subscriptions_of, Sns};
use crate::common::{code, expect_code, message, raw};

async fn records(s: &Sns) -> Vec<Value> {
    let got = raw(&s.t.endpoint(), "GET", "/_sqslite/sns/deliveries", &[], "").await;
    assert_eq!(got.status, 200, "{}", got.body);
    got.json()["deliveries"].as_array().unwrap().clone()
}

async fn subscribe(
    s: &Sns,
    topic: &str,
    protocol: &str,
    endpoint: &str,
    attrs: &[(&str, &str)],
) -> Result<String, (String, String)> {
    let mut req = s
        .sns
        .subscribe()
        .topic_arn(topic)
        .protocol(protocol)
        .endpoint(endpoint);
    for (k, v) in attrs {
        req = req.attributes(*k, *v);
    }
    req.send()
        .await
        .map(|o| o.subscription_arn.unwrap())
        .map_err(|e| (code(&e), message(&e)))
}

const LAMBDA: &str = "arn:aws:lambda:us-east-1:000000000000:function:handler";
const PUSH: &str = "arn:aws:sns:us-east-1:000000000000:endpoint/GCM/app/0c6fd5bd";
const STREAM: &str = "arn:aws:firehose:us-east-1:000000000000:deliverystream/audit";
const ROLE: &str = "arn:aws:iam::000000000000:role/sns-firehose";

#[tokio::test]
async fn endpoints_are_validated_per_protocol() {
    let s = start().await;
    let topic = s.topic("checked", &[]).await;
    for (protocol, endpoint, expected) in [
        (
            "https",
            "http://example.com/",
            "Invalid parameter: Endpoint must match the specified protocol",
        ),
        (
            "http",
            "example.com",
            "Invalid parameter: Endpoint must match the specified protocol",
        ),
        ("http", "http://", "Invalid parameter: Endpoint"),
        (
            "carrier-pigeon",
            "coop",
            "Invalid parameter: Amazon SNS does not support this protocol string: carrier-pigeon",
        ),
        (
            "email",
            "not an address",
            "Invalid parameter: Email address",
        ),
        ("email-json", "dev@", "Invalid parameter: Email address"),
        (
            "sms",
            "+15--551234567",
            "Invalid SMS endpoint: +15--551234567",
        ),
        ("sms", "call me", "Invalid SMS endpoint: call me"),
        (
            "application",
            LAMBDA,
            "Invalid parameter: Application endpoint arn invalid",
        ),
        ("lambda", PUSH, "Invalid parameter: Lambda endpoint ARN"),
        (
            "firehose",
            LAMBDA,
            "Invalid parameter: Firehose endpoint ARN",
        ),
    ] {
        let err = subscribe(&s, &topic, protocol, endpoint, &[])
            .await
            .unwrap_err();
        assert_eq!(
            err,
            ("InvalidParameter".to_owned(), expected.to_owned()),
            "{protocol}"
        );
    }
    let err = subscribe(&s, &topic, "firehose", STREAM, &[])
        .await
        .unwrap_err();
    assert!(err.1.contains("SubscriptionRoleArn"), "{err:?}");
}

#[tokio::test]
async fn undeliverable_protocols_record_what_would_be_sent() {
    let s = start().await;
    let topic = s.topic("everywhere", &[]).await;
    let confirmations = subscribe_everywhere(&s, &topic).await;
    publish_reaches_each_confirmed_protocol(&s, &topic).await;
    confirm_email_json_then_mail_it(&s, &topic, &confirmations).await;
}

/// Subscribes every undeliverable protocol; returns the two email confirmations recorded.
async fn subscribe_everywhere(s: &Sns, topic: &str) -> Vec<Value> {
    let role = [("SubscriptionRoleArn", ROLE)];
    for (protocol, endpoint, attrs) in [
        ("sms", "+15550100", &[][..]),
        ("lambda", LAMBDA, &[]),
        ("application", PUSH, &[]),
        ("firehose", STREAM, &role),
    ] {
        let arn = subscribe(s, topic, protocol, endpoint, attrs)
            .await
            .unwrap();
        assert!(
            arn.starts_with(&format!("{topic}:")),
            "{protocol} is confirmed at once"
        );
    }
    assert_eq!(
        subscribe(s, topic, "email", "dev@example.com", &[])
            .await
            .unwrap(),
        "pending confirmation"
    );
    assert_eq!(
        subscribe(s, topic, "email-json", "ops@example.com", &[])
            .await
            .unwrap(),
        "pending confirmation"
    );
    let confirmations = records(s).await;
    assert_eq!(confirmations.len(), 2);
    assert!(confirmations
        .iter()
        .all(|r| r["type"] == "SubscriptionConfirmation"));
    let pending = subscriptions_of(&s.sns, topic)
        .await
        .iter()
        .filter(|s| s.subscription_arn() == Some("PendingConfirmation"))
        .count();
    assert_eq!(pending, 2);
    confirmations
}

/// A structured publish is recorded per protocol with what each would be sent.
async fn publish_reaches_each_confirmed_protocol(s: &Sns, topic: &str) {
    let message = r#"{"default":"plain","sms":"short","lambda":"for the function"}"#;
    s.sns
        .publish()
        .topic_arn(topic)
        .message(message)
        .message_structure("json")
        .send()
        .await
        .unwrap();
    let got = records(s).await;
    let of = |protocol: &str| -> Vec<Value> {
        got.iter()
            .filter(|r| r["protocol"] == protocol && r["type"] == "Notification")
            .cloned()
            .collect()
    };
    assert_eq!(of("sms")[0]["payload"], "short");
    assert_eq!(of("sms")[0]["endpoint"], "+15550100");
    assert_eq!(of("application")[0]["payload"], "plain");
    let event: Value = serde_json::from_str(of("lambda")[0]["payload"].as_str().unwrap()).unwrap();
    assert_eq!(event["Records"][0]["EventSource"], "aws:sns");
    assert_eq!(event["Records"][0]["Sns"]["Message"], "for the function");
    let firehose: Value =
        serde_json::from_str(of("firehose")[0]["payload"].as_str().unwrap()).unwrap();
    assert_eq!(firehose["Type"], "Notification");
    assert!(
        of("email").is_empty() && of("email-json").is_empty(),
        "pending: nothing sent"
    );
}

/// The email-json confirmation carries the token ConfirmSubscription takes.
async fn confirm_email_json_then_mail_it(s: &Sns, topic: &str, confirmations: &[Value]) {
    let json_confirmation = confirmations
        .iter()
        .find(|r| r["protocol"] == "email-json")
        .unwrap();
    let doc: Value = serde_json::from_str(json_confirmation["payload"].as_str().unwrap()).unwrap();
    s.sns
        .confirm_subscription()
        .topic_arn(topic)
        .token(doc["Token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    s.publish(topic, "now confirmed").await;
    let got = records(s).await;
    let mail: Vec<&Value> = got
        .iter()
        .filter(|r| r["protocol"] == "email-json" && r["type"] == "Notification")
        .collect();
    assert_eq!(mail.len(), 1);
    assert!(mail[0]["payload"]
        .as_str()
        .unwrap()
        .contains("now confirmed"));
}

#[tokio::test]
async fn publish_to_a_phone_or_a_platform_endpoint_is_recorded() {
    let s = start().await;
    s.sns
        .publish()
        .phone_number("+447700900123")
        .message("your code is 1234")
        .send()
        .await
        .unwrap();
    // sqslite knows a platform endpoint once a subscription names it (it serves no
    // CreatePlatformEndpoint); one it does not know is refused as AWS refuses it.
    let topic = s.topic("pushes", &[]).await;
    subscribe(&s, &topic, "application", PUSH, &[])
        .await
        .unwrap();
    s.sns
        .publish()
        .target_arn(PUSH)
        .message("ping")
        .send()
        .await
        .unwrap();
    let got = records(&s).await;
    assert_eq!(got[0]["protocol"], "sms");
    assert_eq!(got[0]["endpoint"], "+447700900123");
    assert_eq!(got[0]["payload"], "your code is 1234");
    assert_eq!(got[0]["subscription_arn"], Value::Null);
    assert_eq!(got[1]["protocol"], "application");
    assert_eq!(got[1]["endpoint"], PUSH);
    let err = expect_code(
        s.sns
            .publish()
            .phone_number("12--3")
            .message("x")
            .send()
            .await,
        "InvalidParameter",
    );
    assert_eq!(
        message(&err),
        "Invalid parameter: PhoneNumber Reason: 12--3 is not valid to publish to"
    );
}

#[tokio::test]
async fn list_tokens_are_opaque_and_checked() {
    let s = start().await;
    let topic = s.topic("crowded", &[]).await;
    for i in 0..101 {
        subscribe(&s, &topic, "sms", &format!("+1555010{i:04}"), &[])
            .await
            .unwrap();
    }
    let first = s
        .sns
        .list_subscriptions_by_topic()
        .topic_arn(&topic)
        .send()
        .await
        .unwrap();
    assert_eq!(first.subscriptions().len(), 100);
    let token = first.next_token.clone().expect("a second page");
    assert!(!token.contains("arn:"), "{token}");
    let rest = s
        .sns
        .list_subscriptions_by_topic()
        .topic_arn(&topic)
        .next_token(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(rest.subscriptions().len(), 1);
    let all = s
        .sns
        .list_subscriptions()
        .next_token(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(
        all.subscriptions().len(),
        1,
        "the same key resumes the account-wide listing"
    );

    let err = expect_code(
        s.sns
            .list_topics()
            .next_token("arn:aws:sns:us-east-1:000000000000:crowded")
            .send()
            .await,
        "InvalidParameter",
    );
    assert_eq!(message(&err), "Invalid parameter: NextToken");
    let err = s
        .sns
        .list_subscriptions()
        .next_token("not-a-token")
        .send()
        .await
        .unwrap_err();
    assert_eq!(message(&err), "Invalid parameter: NextToken");
}
