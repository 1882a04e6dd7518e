//! The SNS side of the harness: an `aws-sdk-sns` client beside the SQS one, on the same
//! server and clock, with the few calls the SNS tests repeat.

use aws_sdk_sns::types::MessageAttributeValue;
use aws_sdk_sqs::types::Message;

use super::{sns_client_at, TestServer};

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

pub fn string_attr(value: &str) -> MessageAttributeValue {
    MessageAttributeValue::builder()
        .data_type("String")
        .string_value(value)
        .build()
        .unwrap()
}
