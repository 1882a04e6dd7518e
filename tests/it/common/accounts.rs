//! Two accounts on one server (AKIDEXAMPLE -> [`OWNER`], AKIDOTHER -> [`OTHER`]) with each
//! account's SQS, SNS and Lambda clients, and the queue policies the cross-account tests use.

use aws_sdk_sqs::types::QueueAttributeName;
use serde_json::{json, Value};

use super::lambda_api::lambda_client_with;
use super::signing::Signer;
use super::{client_at, sns_client_at, sns_client_with, RawResponse, TestServer, OTHER, OWNER};

/// One server, each account's SQS, SNS and Lambda clients.
pub struct Accounts {
    pub t: TestServer,
    pub sns: aws_sdk_sns::Client,
    pub lambda: aws_sdk_lambda::Client,
    pub other_sqs: aws_sdk_sqs::Client,
    pub other_sns: aws_sdk_sns::Client,
    pub other_lambda: aws_sdk_lambda::Client,
}

pub async fn two_accounts(functions: Vec<sqslite::config::Function>) -> Accounts {
    two_accounts_with(functions, Vec::new()).await
}

/// [`two_accounts`] with these roles declared (`[[roles]]`), for STS.
pub async fn two_accounts_with(
    functions: Vec<sqslite::config::Function>,
    roles: Vec<sqslite::config::Role>,
) -> Accounts {
    let mut config = sqslite::Config::ephemeral();
    config.triggers.functions = functions;
    config.roles = roles;
    two_accounts_from(config).await
}

/// [`two_accounts`] from this configuration (its bounds, functions, roles), with the two
/// accounts' keys added.
pub async fn two_accounts_from(config: sqslite::Config) -> Accounts {
    use sqslite::config::Credential;
    let config = config
        .with_credential(Credential::new("AKIDEXAMPLE", "secret", OWNER))
        .with_credential(Credential::new("AKIDOTHER", "other-secret", OTHER));
    let t = TestServer::start_with(config).await;
    let (e, clock) = (t.endpoint(), t.clock.clone());
    Accounts {
        sns: sns_client_at(&e, &clock),
        lambda: lambda_client_with(&e, "AKIDEXAMPLE", "secret", &clock),
        other_sqs: client_at(&e, "AKIDOTHER", "other-secret", &clock),
        other_sns: sns_client_with(&e, "AKIDOTHER", "other-secret", &clock),
        other_lambda: lambda_client_with(&e, "AKIDOTHER", "other-secret", &clock),
        t,
    }
}

impl Accounts {
    /// The owner's queue with this Policy (none for `Value::Null`): its URL and ARN.
    pub async fn queue(&self, name: &str, policy: &Value) -> (String, String) {
        let url = self.t.create_queue(name).await;
        if !policy.is_null() {
            let call = self.t.client.set_queue_attributes().queue_url(&url);
            call.attributes(QueueAttributeName::Policy, policy.to_string())
                .send()
                .await
                .unwrap();
        }
        let arn = self.t.attribute(&url, "QueueArn").await;
        (url, arn)
    }

    /// How many messages the owner's queue holds.
    pub async fn depth(&self, url: &str) -> String {
        self.t.attribute(url, "ApproximateNumberOfMessages").await
    }
}

/// A queue Policy denying OTHER everything, as the review's `qa` had.
pub fn deny_other(queue: &str) -> Value {
    json!({"Version": "2012-10-17", "Statement": [{"Effect": "Deny",
        "Principal": {"AWS": format!("arn:aws:iam::{OTHER}:root")},
        "Action": "sqs:*", "Resource": format!("arn:aws:sqs:us-east-1:{OWNER}:{queue}")}]})
}

/// A queue Policy letting SNS send the topic's messages.
pub fn allow_topic(queue_arn: &str, topic_arn: &str) -> Value {
    json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Principal": {"Service": "sns.amazonaws.com"}, "Action": "sqs:SendMessage",
        "Resource": queue_arn, "Condition": {"ArnEquals": {"aws:SourceArn": topic_arn}}}]})
}

impl Accounts {
    /// A Query request of `service` (`sqs`, `sns`) signed as the other account.
    pub async fn other_query(&self, service: &str, params: &[(&str, &str)]) -> RawResponse {
        let body: String = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        let signer = Signer {
            key: "AKIDOTHER",
            secret: "other-secret",
            service,
            ..Signer::default()
        };
        let form = [("content-type", "application/x-www-form-urlencoded")];
        let request = signer.sign(&self.t, "POST", "/", &form, &body);
        request.send(&self.t, "POST", &body).await
    }

    /// An email-json subscription of the owner's, confirmed with AuthenticateOnUnsubscribe.
    pub async fn authenticated_subscription(&self, topic: &str) -> String {
        let call = self.sns.subscribe().topic_arn(topic).protocol("email-json");
        let call = call
            .endpoint("ops@example.com")
            .return_subscription_arn(true);
        let sub = call.send().await.unwrap().subscription_arn.unwrap();
        let records = self
            .t
            .raw("GET", "/_sqslite/sns/deliveries", &[], "")
            .await
            .json();
        let payload = records["deliveries"][0]["payload"].as_str().unwrap();
        let doc: serde_json::Value = serde_json::from_str(payload).unwrap();
        let call = self.sns.confirm_subscription().topic_arn(topic);
        let call = call.token(doc["Token"].as_str().unwrap());
        call.authenticate_on_unsubscribe("true")
            .send()
            .await
            .unwrap();
        sub
    }
}
