//! SNS topics fanning out into sqslite's queues, driven by the real `aws-sdk-sns` client on
//! the same port as the `aws-sdk-sqs` one: raw and enveloped deliveries, filters, FIFO,
//! dead-letter queues, `--strict` policies, signatures and signed requests.

use crate::common::sns::{start, start_with, string_attr, verify_signature, Sns};
use crate::common::{expect_code, message, raw, sns_client_with};
use aws_sdk_sns::types::MessageAttributeValue;
use md5::{Digest, Md5};
use serde_json::Value;

fn md5_hex(text: &str) -> String {
    use std::fmt::Write;
    Md5::digest(text.as_bytes())
        .iter()
        .fold(String::new(), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
}

/// The notification SNS sends a non-raw subscription, field by field and in SNS's order.
fn check_envelope(body: &str, message_id: &str, topic: &str, subscription: &str) {
    let envelope: Value = serde_json::from_str(body).expect("JSON envelope");
    assert_eq!(envelope["Type"], "Notification");
    assert_eq!(envelope["MessageId"], message_id);
    assert_eq!(envelope["TopicArn"], topic);
    assert_eq!(envelope["Subject"], "greeting");
    assert_eq!(envelope["Message"], "hello \"world\"");
    assert_eq!(envelope["Timestamp"], "2023-11-14T22:13:20.000Z");
    assert_eq!(envelope["SignatureVersion"], "1");
    assert!(envelope["Signature"]
        .as_str()
        .is_some_and(|s| !s.is_empty()));
    assert!(envelope["SigningCertURL"]
        .as_str()
        .unwrap()
        .contains("/SimpleNotificationService-sqslite"));
    assert!(envelope["UnsubscribeURL"]
        .as_str()
        .unwrap()
        .ends_with(&format!(
            "?Action=Unsubscribe&SubscriptionArn={subscription}"
        )));
    assert_eq!(
        envelope["MessageAttributes"]["color"],
        serde_json::json!({"Type": "String", "Value": "red"})
    );
    assert_eq!(
        envelope["MessageAttributes"]["size"],
        serde_json::json!({"Type": "Number", "Value": "3"})
    );
    let keys: Vec<&str> = envelope
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "Type",
            "MessageId",
            "TopicArn",
            "Subject",
            "Message",
            "Timestamp",
            "SignatureVersion",
            "Signature",
            "SigningCertURL",
            "UnsubscribeURL",
            "MessageAttributes"
        ]
    );
}

#[tokio::test]
async fn a_topic_fans_out_raw_and_filtered() {
    let s = start().await;
    let topic = s.topic("orders", &[]).await;
    assert_eq!(topic, "arn:aws:sns:us-east-1:000000000000:orders");
    let (raw_url, raw_arn) = s.queue("orders-raw", &[]).await;
    let (red_url, red_arn) = s.queue("orders-red", &[]).await;
    s.subscribe(&topic, &raw_arn, &[("RawMessageDelivery", "true")])
        .await;
    let red_sub = s
        .subscribe(
            &topic,
            &red_arn,
            &[("FilterPolicy", r#"{"color":["red"]}"#)],
        )
        .await;
    assert!(red_sub.starts_with(&format!("{topic}:")), "{red_sub}");

    let message_id = publish_red_with_a_subject(&s, &topic).await;
    let raw = s.receive(&raw_url).await;
    assert_eq!(raw.len(), 1);
    assert_eq!(raw[0].body(), Some("hello \"world\""));
    assert_eq!(
        raw[0].md5_of_body(),
        Some(md5_hex("hello \"world\"").as_str())
    );
    let attrs = raw[0].message_attributes().unwrap();
    assert_eq!(attrs["color"].string_value(), Some("red"));
    assert_eq!(attrs["size"].data_type(), "Number");
    assert!(raw[0].md5_of_message_attributes().is_some());

    let red = s.receive(&red_url).await;
    assert_eq!(red.len(), 1);
    let body = red[0].body().unwrap();
    assert_eq!(red[0].md5_of_body(), Some(md5_hex(body).as_str()));
    assert!(red[0].message_attributes().is_none());
    check_envelope(body, &message_id, &topic, &red_sub);

    // Blue passes the raw subscription only; without a Subject the envelope has none.
    s.sns
        .publish()
        .topic_arn(&topic)
        .message("blue one")
        .message_attributes("color", string_attr("blue"))
        .send()
        .await
        .expect("publish");
    assert_eq!(s.receive(&raw_url).await.len(), 1);
    assert!(s.receive(&red_url).await.is_empty());
}

/// Publishes a red message with a subject and a Number attribute; returns its message id.
async fn publish_red_with_a_subject(s: &Sns, topic: &str) -> String {
    let published = s
        .sns
        .publish()
        .topic_arn(topic)
        .message("hello \"world\"")
        .subject("greeting")
        .message_attributes("color", string_attr("red"))
        .message_attributes(
            "size",
            MessageAttributeValue::builder()
                .data_type("Number")
                .string_value("3")
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("publish");
    let message_id = published.message_id.unwrap();
    assert_eq!(published.sequence_number, None);
    message_id
}

#[tokio::test]
async fn message_structure_json_sends_the_sqs_key() {
    let s = start().await;
    let topic = s.topic("structured", &[]).await;
    let (url, arn) = s.queue("structured-q", &[]).await;
    s.subscribe(&topic, &arn, &[("RawMessageDelivery", "true")])
        .await;
    s.sns
        .publish()
        .topic_arn(&topic)
        .message_structure("json")
        .message(r#"{"default":"d","sqs":"for sqs"}"#)
        .send()
        .await
        .expect("publish");
    assert_eq!(s.receive(&url).await[0].body(), Some("for sqs"));
    let err = expect_code(
        s.sns
            .publish()
            .topic_arn(&topic)
            .message_structure("json")
            .message(r#"{"sqs":"x"}"#)
            .send()
            .await,
        "InvalidParameter",
    );
    assert_eq!(
        message(&err),
        "Invalid parameter: Message Structure - No default entry in JSON message body"
    );
}

#[tokio::test]
async fn a_fifo_topic_keeps_group_order_and_deduplicates() {
    let s = start().await;
    let topic = s
        .topic(
            "events.fifo",
            &[("FifoTopic", "true"), ("ContentBasedDeduplication", "true")],
        )
        .await;
    let (raw_url, raw_arn) = s.queue("events-raw.fifo", &[("FifoQueue", "true")]).await;
    let (env_url, env_arn) = s.queue("events-env.fifo", &[("FifoQueue", "true")]).await;
    s.subscribe(&topic, &raw_arn, &[("RawMessageDelivery", "true")])
        .await;
    s.subscribe(&topic, &env_arn, &[]).await;
    let mut sequence = Vec::new();
    for body in ["one", "two", "three", "two"] {
        let out = s
            .sns
            .publish()
            .topic_arn(&topic)
            .message(body)
            .message_group_id("g1")
            .send()
            .await
            .expect("publish");
        sequence.push(out.sequence_number.unwrap());
    }
    // The duplicate "two" answers with the first one's sequence number.
    assert_eq!(sequence[3], sequence[1]);
    assert!(sequence[0] < sequence[1] && sequence[1] < sequence[2]);
    let raw = s.receive(&raw_url).await;
    let bodies: Vec<_> = raw.iter().map(|m| m.body().unwrap()).collect();
    // A FIFO group hands out its messages in order, all in one receive.
    assert_eq!(bodies, ["one", "two", "three"]);
    let env = s.receive(&env_url).await;
    assert_eq!(env.len(), 3);
    let first: Value = serde_json::from_str(env[0].body().unwrap()).unwrap();
    assert_eq!(first["Message"], "one");
    assert_eq!(first["SequenceNumber"], sequence[0].as_str());

    // After five minutes the same content is a new message.
    s.t.advance(301);
    let again = s
        .sns
        .publish()
        .topic_arn(&topic)
        .message("two")
        .message_group_id("g1")
        .message_deduplication_id("fresh")
        .send()
        .await
        .expect("publish");
    assert!(again.sequence_number.unwrap() > sequence[2]);

    expect_code(
        s.sns
            .publish()
            .topic_arn(&topic)
            .message("no group")
            .send()
            .await,
        "InvalidParameter",
    );
}

#[tokio::test]
async fn a_delivery_to_a_missing_queue_goes_to_the_dead_letter_queue() {
    let s = start().await;
    let topic = s.topic("dlq-topic", &[]).await;
    let (dlq_url, dlq_arn) = s.queue("sub-dlq", &[]).await;
    let (_, gone_arn) = s.queue("gone", &[]).await;
    let policy = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}"}}"#);
    s.subscribe(&topic, &gone_arn, &[("RedrivePolicy", &policy)])
        .await;
    let gone_url =
        s.t.client
            .get_queue_url()
            .queue_name("gone")
            .send()
            .await
            .unwrap();
    s.t.client
        .delete_queue()
        .queue_url(gone_url.queue_url.unwrap())
        .send()
        .await
        .unwrap();
    s.publish(&topic, "lost").await;
    let dead = s.receive(&dlq_url).await;
    assert_eq!(dead.len(), 1);
    let envelope: Value = serde_json::from_str(dead[0].body().unwrap()).unwrap();
    assert_eq!(envelope["Message"], "lost");
}

/// A queue without a Policy for the topic receives by default; `--strict` refuses as AWS
/// does (SNS needs `sqs:SendMessage` for `sns.amazonaws.com` in the queue's Policy).
#[tokio::test]
async fn strict_mode_delivers_only_where_the_queue_policy_allows_the_topic() {
    let s = start_with(sqslite::Config {
        strict: true,
        ..sqslite::Config::ephemeral()
    })
    .await;
    let topic = s.topic("guarded", &[]).await;
    let (closed_url, closed_arn) = s.queue("closed", &[]).await;
    let (open_url, open_arn) = s.queue("open", &[]).await;
    let policy = serde_json::json!({
        "Version": "2012-10-17",
        "Statement": [{
            "Effect": "Allow",
            "Principal": {"Service": "sns.amazonaws.com"},
            "Action": "sqs:SendMessage",
            "Resource": open_arn,
            "Condition": {"ArnEquals": {"aws:SourceArn": topic}}
        }]
    });
    s.t.client
        .set_queue_attributes()
        .queue_url(&open_url)
        .attributes(
            aws_sdk_sqs::types::QueueAttributeName::Policy,
            policy.to_string(),
        )
        .send()
        .await
        .unwrap();
    s.subscribe(&topic, &closed_arn, &[]).await;
    s.subscribe(&topic, &open_arn, &[]).await;
    s.publish(&topic, "guarded message").await;
    assert!(s.receive(&closed_url).await.is_empty());
    assert_eq!(s.receive(&open_url).await.len(), 1);

    let lax = start().await;
    let topic = lax.topic("lax", &[]).await;
    let (url, arn) = lax.queue("no-policy", &[]).await;
    lax.subscribe(&topic, &arn, &[]).await;
    lax.publish(&topic, "delivered anyway").await;
    assert_eq!(lax.receive(&url).await.len(), 1);
}

#[tokio::test]
async fn notifications_verify_with_the_served_certificate() {
    let s = start().await;
    for version in ["1", "2"] {
        let topic = s
            .topic(
                &format!("signed-v{version}"),
                &[("SignatureVersion", version)],
            )
            .await;
        let (url, arn) = s.queue(&format!("signed-v{version}"), &[]).await;
        s.subscribe(&topic, &arn, &[]).await;
        s.sns
            .publish()
            .topic_arn(&topic)
            .message("signed body\nwith two lines")
            .subject("signed")
            .send()
            .await
            .unwrap();
        let got = s.receive(&url).await;
        let envelope: Value = serde_json::from_str(got[0].body().unwrap()).unwrap();
        assert_eq!(envelope["SignatureVersion"], version);
        let cert_url = envelope["SigningCertURL"].as_str().unwrap();
        let path = cert_url.strip_prefix(&s.t.endpoint()).expect("served here");
        let cert = raw(&s.t.endpoint(), "GET", path, &[], "").await;
        assert_eq!(cert.status, 200);
        assert!(cert.body.starts_with("-----BEGIN CERTIFICATE-----"));
        verify_signature(&envelope, &cert.body);
    }
}

/// With credentials configured, SNS requests are verified against the `sns` scope and act
/// as the key's account; a bad signature is refused in SNS's error shape.
#[tokio::test]
async fn signed_sns_requests_act_as_the_keys_account() {
    let config = sqslite::Config::ephemeral().with_credential(sqslite::config::Credential::new(
        "AKIDEXAMPLE",
        "secret",
        "111122223333",
    ));
    let s = start_with(config).await;
    let topic = s.topic("mine", &[]).await;
    assert_eq!(topic, "arn:aws:sns:us-east-1:111122223333:mine");
    let (url, arn) = s.queue("mine-q", &[]).await;
    s.subscribe(&topic, &arn, &[("RawMessageDelivery", "true")])
        .await;
    s.publish(&topic, "signed").await;
    assert_eq!(s.receive(&url).await[0].body(), Some("signed"));

    let forged = sns_client_with(&s.t.endpoint(), "AKIDEXAMPLE", "wrong", &s.t.clock);
    let err = expect_code(forged.list_topics().send().await, "SignatureDoesNotMatch");
    assert_eq!(err.raw_response().unwrap().status().as_u16(), 403);
    let unknown = sns_client_with(&s.t.endpoint(), "AKIDNOBODY", "secret", &s.t.clock);
    expect_code(unknown.list_topics().send().await, "InvalidClientTokenId");
}
