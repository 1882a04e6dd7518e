//! The SNS side of the harness: an `aws-sdk-sns` client beside the SQS one, on the same
//! server and clock, with the few calls the SNS tests repeat.

use aws_sdk_sns::types::MessageAttributeValue;
use aws_sdk_sqs::types::Message;
use serde_json::Value;
use std::collections::HashMap;

use super::{sns_client_at, TestServer};

/// The first page of ListSubscriptionsByTopic, which must succeed.
pub async fn subscriptions_of(
    sns: &aws_sdk_sns::Client,
    topic: &str,
) -> Vec<aws_sdk_sns::types::Subscription> {
    let listed = sns.list_subscriptions_by_topic().topic_arn(topic).send();
    let listed = listed.await.expect("list subscriptions by topic");
    listed.subscriptions.unwrap_or_default()
}

pub struct Sns {
    pub t: TestServer,
    pub sns: aws_sdk_sns::Client,
}

pub async fn start() -> Sns {
    start_with(sqslite::Config::ephemeral()).await
}

pub async fn start_with(config: sqslite::Config) -> Sns {
    let t = TestServer::start_with(config).await;
    let sns = sns_client_at(&t.endpoint(), &t.clock);
    Sns { t, sns }
}

impl Sns {
    pub async fn topic(&self, name: &str, attributes: &[(&str, &str)]) -> String {
        let mut req = self.sns.create_topic().name(name);
        for (k, v) in attributes {
            req = req.attributes(*k, *v);
        }
        req.send().await.expect("create topic").topic_arn.unwrap()
    }

    /// A queue's URL and ARN.
    pub async fn queue(&self, name: &str, attributes: &[(&str, &str)]) -> (String, String) {
        let url = self.t.create_queue_with(name, attributes).await;
        let arn = self.t.attribute(&url, "QueueArn").await;
        (url, arn)
    }

    pub async fn subscribe(
        &self,
        topic: &str,
        queue_arn: &str,
        attributes: &[(&str, &str)],
    ) -> String {
        let mut req = self
            .sns
            .subscribe()
            .topic_arn(topic)
            .protocol("sqs")
            .endpoint(queue_arn)
            .return_subscription_arn(true);
        for (k, v) in attributes {
            req = req.attributes(*k, *v);
        }
        req.send()
            .await
            .expect("subscribe")
            .subscription_arn
            .unwrap()
    }

    pub async fn topic_attributes(&self, topic: &str) -> HashMap<String, String> {
        let got = self
            .sns
            .get_topic_attributes()
            .topic_arn(topic)
            .send()
            .await;
        got.expect("topic attributes")
            .attributes
            .unwrap_or_default()
    }

    pub async fn subscription_attributes(&self, arn: &str) -> HashMap<String, String> {
        let got = self
            .sns
            .get_subscription_attributes()
            .subscription_arn(arn)
            .send()
            .await;
        got.expect("subscription attributes")
            .attributes
            .unwrap_or_default()
    }

    pub async fn set_subscription(&self, arn: &str, name: &str, value: &str) {
        self.sns
            .set_subscription_attributes()
            .subscription_arn(arn)
            .attribute_name(name)
            .attribute_value(value)
            .send()
            .await
            .expect("set subscription attribute");
    }

    pub async fn publish(&self, topic: &str, message: &str) -> String {
        self.sns
            .publish()
            .topic_arn(topic)
            .message(message)
            .send()
            .await
            .expect("publish")
            .message_id
            .unwrap()
    }

    /// Publish with String attributes.
    pub async fn publish_with(&self, topic: &str, message: &str, attributes: &[(&str, &str)]) {
        let mut req = self.sns.publish().topic_arn(topic).message(message);
        for (k, v) in attributes {
            req = req.message_attributes(*k, string_attr(v));
        }
        req.send().await.expect("publish");
    }

    /// An admin API GET: the status and the JSON body (`null` if it is not JSON).
    pub async fn admin_get(&self, path: &str) -> (u16, serde_json::Value) {
        let r = self.t.raw("GET", path, &[], "").await;
        (r.status, serde_json::from_str(&r.body).unwrap_or_default())
    }

    /// An admin API POST of a JSON body.
    pub async fn admin_post(
        &self,
        path: &str,
        body: &serde_json::Value,
    ) -> (u16, serde_json::Value) {
        let json = body.to_string();
        let r = self
            .t
            .raw("POST", path, &[("content-type", "application/json")], &json)
            .await;
        (r.status, serde_json::from_str(&r.body).unwrap_or_default())
    }

    pub async fn receive(&self, url: &str) -> Vec<Message> {
        self.t
            .client
            .receive_message()
            .queue_url(url)
            .max_number_of_messages(10)
            .message_attribute_names("All")
            .send()
            .await
            .expect("receive")
            .messages
            .unwrap_or_default()
    }
}

/// The error code and message of a call that must fail.
pub fn failure<E: aws_sdk_sqs::error::ProvideErrorMetadata, R>(
    result: Result<impl std::fmt::Debug, aws_sdk_sqs::error::SdkError<E, R>>,
) -> (String, String) {
    let err = result.expect_err("the call fails");
    (super::code(&err), super::message(&err))
}

/// SNS's `InvalidParameter` with this message, as [`failure`] reports it.
pub fn invalid(text: &str) -> (String, String) {
    ("InvalidParameter".to_owned(), text.to_owned())
}

pub fn string_attr(value: &str) -> MessageAttributeValue {
    MessageAttributeValue::builder()
        .data_type("String")
        .string_value(value)
        .build()
        .unwrap()
}

/// What an SNS message validator does: rebuild the string to sign from the message's
/// fields (a Notification's, or a confirmation's with SubscribeURL and Token), then verify
/// SHA1withRSA (SignatureVersion 1) or SHA256withRSA (2) with the key of the certificate
/// served at SigningCertURL (`certificate_pem`).
pub fn verify_signature(message: &Value, certificate_pem: &str) {
    use base64::Engine;
    use rsa::pkcs1v15::{Signature, VerifyingKey};
    use rsa::pkcs8::DecodePublicKey;
    use rsa::signature::Verifier;
    let b64 = base64::engine::general_purpose::STANDARD;
    let body: String = certificate_pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect();
    let cert = b64.decode(body).unwrap();
    // The SubjectPublicKeyInfo of a 2048-bit RSA key: its algorithm identifier, 4 bytes in.
    let rsa_oid = [
        0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
    ];
    let at = cert
        .windows(rsa_oid.len())
        .position(|w| w == rsa_oid)
        .unwrap()
        - 4;
    let key = rsa::RsaPublicKey::from_public_key_der(&cert[at..at + 294]).unwrap();
    let fields: &[&str] = if message["Type"] == "Notification" {
        &[
            "Message",
            "MessageId",
            "Subject",
            "Timestamp",
            "TopicArn",
            "Type",
        ]
    } else {
        &[
            "Message",
            "MessageId",
            "SubscribeURL",
            "Timestamp",
            "Token",
            "TopicArn",
            "Type",
        ]
    };
    let mut canonical = String::new();
    for name in fields {
        if let Some(value) = message[*name].as_str() {
            canonical.extend([*name, "\n", value, "\n"]);
        }
    }
    let signature = b64.decode(message["Signature"].as_str().unwrap()).unwrap();
    let signature = Signature::try_from(signature.as_slice()).unwrap();
    let verified = match message["SignatureVersion"].as_str() {
        Some("2") => {
            VerifyingKey::<rsa::sha2::Sha256>::new(key).verify(canonical.as_bytes(), &signature)
        }
        _ => VerifyingKey::<sha1::Sha1>::new(key).verify(canonical.as_bytes(), &signature),
    };
    verified.expect("the message's signature verifies");
}
