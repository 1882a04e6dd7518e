//! Topics and subscriptions declared in sqslite.toml: there before the first request, made
//! through SNS's own checks (a declaration SNS refuses stops the start with SNS's message and
//! the declaration's place), and, on a data directory, brought up to date from an edited
//! file at the next start.

use crate::common::durable::{command, temp_dir, Proc};
use crate::common::sns::{start_with, string_attr, subscriptions_of};
use crate::common::{sns_client_for, TestServer};
use sqslite::Config;

const DECLARED: &str = r#"
[[queues]]
name = "audit"

[[queues]]
name = "audit-dlq"

[[queues]]
name = "audit.fifo"
FifoQueue = true

[[topics]]
name = "orders"
DisplayName = "Orders"
tags = { team = "payments" }

[[topics.subscriptions]]
protocol = "sqs"
endpoint = "audit"
RawMessageDelivery = true
FilterPolicy = { color = ["red"] }
dead_letter_queue = "audit-dlq"

[[topics]]
name = "orders.fifo"
FifoTopic = true
ContentBasedDeduplication = true

[[topics.subscriptions]]
protocol = "sqs"
endpoint = "arn:aws:sqs:us-east-1:000000000000:audit.fifo"
"#;

const ORDERS: &str = "arn:aws:sns:us-east-1:000000000000:orders";

fn config(text: &str) -> Config {
    Config::from_text("sqslite.toml", text).unwrap().config
}

async fn only_subscription(sns: &aws_sdk_sns::Client, topic: &str) -> String {
    let subs = subscriptions_of(sns, topic).await;
    assert_eq!(subs.len(), 1, "{subs:?}");
    subs[0].subscription_arn().unwrap().to_owned()
}

async fn subscription_attributes(
    sns: &aws_sdk_sns::Client,
    arn: &str,
) -> std::collections::HashMap<String, String> {
    let got = sns.get_subscription_attributes().subscription_arn(arn);
    got.send().await.unwrap().attributes.unwrap_or_default()
}

#[tokio::test]
async fn declared_topics_and_subscriptions_exist_before_the_first_request() {
    let s = start_with(config(DECLARED)).await;
    let attrs = s.sns.get_topic_attributes().topic_arn(ORDERS).send().await;
    let attrs = attrs.unwrap().attributes.unwrap();
    assert_eq!(attrs["DisplayName"], "Orders");
    let tags = s
        .sns
        .list_tags_for_resource()
        .resource_arn(ORDERS)
        .send()
        .await;
    let tags = tags.unwrap().tags.unwrap();
    assert_eq!((tags[0].key(), tags[0].value()), ("team", "payments"));
    let sub = only_subscription(&s.sns, ORDERS).await;
    let attrs = subscription_attributes(&s.sns, &sub).await;
    assert_eq!(
        attrs["Endpoint"],
        "arn:aws:sqs:us-east-1:000000000000:audit"
    );
    assert_eq!(attrs["RawMessageDelivery"], "true");
    assert_eq!(attrs["FilterPolicy"], r#"{"color":["red"]}"#);
    assert_eq!(
        attrs["RedrivePolicy"],
        r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:audit-dlq"}"#
    );
    let fifo = s.sns.get_topic_attributes();
    let fifo = fifo
        .topic_arn(format!("{ORDERS}.fifo"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        fifo.attributes.unwrap()["ContentBasedDeduplication"],
        "true"
    );
    // The declared filter and raw delivery decide what the queue gets.
    for color in ["blue", "red"] {
        let publish = s.sns.publish().topic_arn(ORDERS).message(color);
        let publish = publish.message_attributes("color", string_attr(color));
        publish.send().await.unwrap();
    }
    let url = s.t.create_queue("audit").await;
    let got = s.receive(&url).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].body(), Some("red"));
}

async fn start_error(text: &str) -> String {
    TestServer::try_start_with(config(text))
        .await
        .err()
        .expect("the start fails")
        .to_string()
}

#[tokio::test]
async fn a_declaration_sns_refuses_stops_the_start_with_snss_message_and_its_place() {
    let bad_scope = "[[topics]]\nname = \"orders\"\n\n[[topics.subscriptions]]\nprotocol = \"sqs\"\nendpoint = \"audit\"\nFilterPolicyScope = \"Everything\"\n";
    assert_eq!(
        start_error(bad_scope).await,
        "sqslite.toml:4: topic `orders`: subscription to `audit`: InvalidParameter: Invalid parameter: Attributes Reason: FilterPolicyScope: Invalid value [Everything]. Please use either MessageBody or MessageAttributes"
    );
    assert_eq!(
        start_error("[[topics]]\nname = \"bad name\"\n").await,
        "sqslite.toml:1: topic `bad name`: InvalidParameter: Invalid parameter: Topic Name"
    );
    // A FIFO queue cannot take a standard topic's messages: Subscribe's own refusal.
    let fifo_queue = "[[topics]]\nname = \"orders\"\nsubscriptions = [{ protocol = \"sqs\", endpoint = \"audit.fifo\" }]\n";
    assert!(start_error(fifo_queue)
        .await
        .ends_with("FIFO SQS Queues can not be subscribed to standard SNS topics"));
    let typo = Config::from_text(
        "sqslite.toml",
        "[[topics]]\nname = \"t\"\ndisplay_name = \"x\"\n",
    );
    assert_eq!(
        typo.unwrap_err().to_string(),
        "sqslite.toml:3: unknown key `display_name` in a topic; did you mean `DisplayName`?"
    );
}

fn start_declared(dir: &std::path::Path, file: &std::path::Path) -> Proc {
    let mut cmd = command(dir);
    cmd.arg("--config")
        .arg(file)
        .stdout(std::process::Stdio::inherit())
        .stderr(std::process::Stdio::piped());
    Proc::spawn(cmd)
}

#[tokio::test]
async fn an_edited_declaration_applies_to_the_stored_topic_at_the_next_start() {
    let dir = temp_dir("sns-declared");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.with_extension("toml");
    std::fs::write(&file, DECLARED).unwrap();
    let p = start_declared(&dir, &file);
    let sns = sns_client_for(&p.endpoint);
    let sub = only_subscription(&sns, ORDERS).await;
    // Set at run time, and not named by the file: it stays.
    sns.set_topic_attributes()
        .topic_arn(ORDERS)
        .attribute_name("TracingConfig")
        .attribute_value("Active")
        .send()
        .await
        .unwrap();
    p.kill();
    let edited = DECLARED
        .replace("DisplayName = \"Orders\"", "DisplayName = \"Orders v2\"")
        .replace("RawMessageDelivery = true", "RawMessageDelivery = false");
    std::fs::write(&file, edited).unwrap();
    let p = start_declared(&dir, &file);
    let sns = sns_client_for(&p.endpoint);
    let attrs = sns.get_topic_attributes().topic_arn(ORDERS).send().await;
    let attrs = attrs.unwrap().attributes.unwrap();
    assert_eq!(attrs["DisplayName"], "Orders v2");
    assert_eq!(attrs["TracingConfig"], "Active");
    assert_eq!(only_subscription(&sns, ORDERS).await, sub);
    let attrs = subscription_attributes(&sns, &sub).await;
    assert_eq!(attrs["RawMessageDelivery"], "false");
    assert_eq!(attrs["FilterPolicy"], r#"{"color":["red"]}"#);
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&file);
}
