//! Durable SNS through the real binary and the real `aws-sdk-sns` client: topics with their
//! attributes and tags, subscriptions with theirs (raw delivery, filter policy, dead-letter
//! queue) and the FIFO deduplication window are there after a SIGKILL and a restart, from
//! the log alone and from a snapshot plus the log written after it; an admin reset is too.

use std::collections::HashMap;

use aws_sdk_sns::types::MessageAttributeValue;

use crate::common::durable::{receive, temp_dir, Proc};
use crate::common::sns::subscriptions_of;
use crate::common::sns_client_for;

async fn topic_attributes(sns: &aws_sdk_sns::Client, arn: &str) -> HashMap<String, String> {
    sns.get_topic_attributes()
        .topic_arn(arn)
        .send()
        .await
        .unwrap()
        .attributes
        .unwrap_or_default()
}

async fn subscription_attributes(sns: &aws_sdk_sns::Client, arn: &str) -> HashMap<String, String> {
    sns.get_subscription_attributes()
        .subscription_arn(arn)
        .send()
        .await
        .unwrap()
        .attributes
        .unwrap_or_default()
}

async fn topics(sns: &aws_sdk_sns::Client) -> Vec<String> {
    let listed = sns.list_topics().send().await.unwrap();
    let topics = listed.topics.unwrap_or_default();
    topics.into_iter().filter_map(|t| t.topic_arn).collect()
}

async fn fifo_publish(sns: &aws_sdk_sns::Client, topic: &str, body: &str) -> (String, String) {
    let out = sns
        .publish()
        .topic_arn(topic)
        .message(body)
        .message_group_id("g")
        .send()
        .await
        .unwrap();
    (out.message_id.unwrap(), out.sequence_number.unwrap())
}

/// Topics, subscriptions and deletions of both, written by one process; returns the ARNs of
/// the topic, its subscription and the FIFO topic with its first publish.
async fn write_state(p: &Proc, sns: &aws_sdk_sns::Client) -> [String; 5] {
    let (_, audit) = p.queue("audit").await;
    let (_, dlq) = p.queue("audit-dlq").await;
    let (_, audit_fifo) = p.queue("audit.fifo").await;
    let topic = sns
        .create_topic()
        .name("orders")
        .attributes("DisplayName", "Orders")
        .tags(tag("team", "payments"))
        .tags(tag("cost", "42"))
        .send()
        .await
        .unwrap()
        .topic_arn
        .unwrap();
    sns.untag_resource()
        .resource_arn(&topic)
        .tag_keys("cost")
        .send()
        .await
        .unwrap();
    let subscription = subscribe_and_drop_another(sns, &topic, &audit, &dlq).await;
    let gone = sns.create_topic().name("gone").send().await.unwrap();
    sns.delete_topic()
        .topic_arn(gone.topic_arn.unwrap())
        .send()
        .await
        .unwrap();
    let fifo = fifo_topic_into(sns, &audit_fifo).await;
    let (id, seq) = fifo_publish(sns, &fifo, "first").await;
    [topic, subscription, fifo, id, seq]
}

/// orders.fifo (content-based deduplication) subscribed by the FIFO queue `audit_fifo`.
async fn fifo_topic_into(sns: &aws_sdk_sns::Client, audit_fifo: &str) -> String {
    let fifo = sns
        .create_topic()
        .name("orders.fifo")
        .attributes("FifoTopic", "true")
        .attributes("ContentBasedDeduplication", "true")
        .send()
        .await
        .unwrap()
        .topic_arn
        .unwrap();
    sns.subscribe()
        .topic_arn(&fifo)
        .protocol("sqs")
        .endpoint(audit_fifo)
        .send()
        .await
        .unwrap();
    fifo
}

/// Subscribes audit (raw, filtered, dead-lettering into dlq) and dlq, then drops dlq's;
/// returns audit's subscription.
async fn subscribe_and_drop_another(
    sns: &aws_sdk_sns::Client,
    topic: &str,
    audit: &str,
    dlq: &str,
) -> String {
    let subscription = sns
        .subscribe()
        .topic_arn(topic)
        .protocol("sqs")
        .endpoint(audit)
        .attributes("RawMessageDelivery", "true")
        .attributes("FilterPolicy", r#"{"color":["red"]}"#)
        .attributes(
            "RedrivePolicy",
            format!(r#"{{"deadLetterTargetArn":"{dlq}"}}"#),
        )
        .return_subscription_arn(true)
        .send()
        .await
        .unwrap()
        .subscription_arn
        .unwrap();
    let dropped = sns
        .subscribe()
        .topic_arn(topic)
        .protocol("sqs")
        .endpoint(dlq)
        .send()
        .await
        .unwrap()
        .subscription_arn
        .unwrap();
    sns.unsubscribe()
        .subscription_arn(dropped)
        .send()
        .await
        .unwrap();
    subscription
}

fn tag(key: &str, value: &str) -> aws_sdk_sns::types::Tag {
    aws_sdk_sns::types::Tag::builder()
        .key(key)
        .value(value)
        .build()
        .unwrap()
}

async fn check_topic_and_subscription(sns: &aws_sdk_sns::Client, topic: &str, sub: &str) {
    let attrs = topic_attributes(sns, topic).await;
    assert_eq!(attrs["DisplayName"], "Orders");
    assert_eq!(attrs["SubscriptionsConfirmed"], "1");
    assert_eq!(attrs["SubscriptionsDeleted"], "1");
    let tags = sns
        .list_tags_for_resource()
        .resource_arn(topic)
        .send()
        .await
        .unwrap()
        .tags
        .unwrap_or_default();
    assert_eq!(tags.len(), 1);
    assert_eq!((tags[0].key(), tags[0].value()), ("team", "payments"));
    let subs = subscriptions_of(sns, topic).await;
    assert_eq!(subs.len(), 1);
    assert_eq!(subs[0].subscription_arn(), Some(sub));
    let attrs = subscription_attributes(sns, sub).await;
    assert_eq!(attrs["RawMessageDelivery"], "true");
    assert_eq!(attrs["FilterPolicy"], r#"{"color":["red"]}"#);
    assert!(attrs["RedrivePolicy"].contains("audit-dlq"));
}

#[tokio::test]
async fn topics_subscriptions_and_the_fifo_window_survive_kill_9() {
    let dir = temp_dir("sns-kill");
    let p = Proc::start_manual(&dir);
    let sns = sns_client_for(&p.endpoint);
    let [topic, sub, fifo, first_id, first_seq] = write_state(&p, &sns).await;
    p.kill();

    let p = Proc::start_manual(&dir);
    let sns = sns_client_for(&p.endpoint);
    assert_eq!(topics(&sns).await, [topic.clone(), fifo.clone()]);
    check_topic_and_subscription(&sns, &topic, &sub).await;
    // The filter policy and raw delivery still decide what the queue gets.
    for color in ["blue", "red"] {
        let attr = MessageAttributeValue::builder()
            .data_type("String")
            .string_value(color)
            .build()
            .unwrap();
        let published = sns.publish().topic_arn(&topic).message(color);
        published
            .message_attributes("color", attr)
            .send()
            .await
            .unwrap();
    }
    let audit = p.client.get_queue_url().queue_name("audit").send().await;
    let got = receive(&p.client, audit.unwrap().queue_url().unwrap(), 10).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].body(), Some("red"));
    // Within the window the same content is the same message, and is not delivered again.
    assert_eq!(
        fifo_publish(&sns, &fifo, "first").await,
        (first_id.clone(), first_seq.clone())
    );
    let (second_id, second_seq) = fifo_publish(&sns, &fifo, "second").await;
    assert_ne!(second_id, first_id);
    assert!(second_seq > first_seq, "{second_seq} after {first_seq}");
    let fifo_url = p
        .client
        .get_queue_url()
        .queue_name("audit.fifo")
        .send()
        .await;
    let got = receive(&p.client, fifo_url.unwrap().queue_url().unwrap(), 10).await;
    let bodies: Vec<String> = got
        .iter()
        .map(|m| {
            serde_json::from_str::<serde_json::Value>(m.body().unwrap()).unwrap()["Message"]
                .to_string()
        })
        .collect();
    assert_eq!(bodies, [r#""first""#, r#""second""#]);
    // Past the five minutes the window has closed, after the restart as before it.
    p.advance(301).await;
    let (third_id, _) = fifo_publish(&sns, &fifo, "first").await;
    assert_ne!(third_id, first_id);
    let _ = std::fs::remove_dir_all(&dir);
}

async fn snapshot(p: &Proc) {
    let r = crate::common::raw(
        &p.endpoint,
        "POST",
        "/_sqslite/snapshot",
        &[("content-type", "application/json")],
        "{}",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn a_snapshot_holds_the_topics_and_the_log_after_it_replays_over_it() {
    let dir = temp_dir("sns-snapshot");
    let p = Proc::start_manual(&dir);
    let sns = sns_client_for(&p.endpoint);
    let [topic, sub, fifo, first_id, first_seq] = write_state(&p, &sns).await;
    snapshot(&p).await;
    // After the snapshot: a changed subscription, a topic more, the FIFO sequence moved on.
    sns.set_subscription_attributes()
        .subscription_arn(&sub)
        .attribute_name("FilterPolicy")
        .attribute_value(r#"{"color":["red","green"]}"#)
        .send()
        .await
        .unwrap();
    let later = sns.create_topic().name("later").send().await.unwrap();
    let (_, second_seq) = fifo_publish(&sns, &fifo, "second").await;
    p.kill();

    let p = Proc::start_manual(&dir);
    let sns = sns_client_for(&p.endpoint);
    let later = later.topic_arn.unwrap();
    assert_eq!(
        topics(&sns).await,
        [later.clone(), topic.clone(), fifo.clone()]
    );
    let attrs = subscription_attributes(&sns, &sub).await;
    assert_eq!(attrs["FilterPolicy"], r#"{"color":["red","green"]}"#);
    assert_eq!(attrs["RawMessageDelivery"], "true");
    assert_eq!(
        fifo_publish(&sns, &fifo, "first").await,
        (first_id, first_seq)
    );
    let (_, third_seq) = fifo_publish(&sns, &fifo, "third").await;
    assert!(third_seq > second_seq, "{third_seq} after {second_seq}");
    // A snapshot of the recovered state, then a reset: the reset is stored too.
    snapshot(&p).await;
    let r = crate::common::raw(
        &p.endpoint,
        "POST",
        "/_sqslite/reset",
        &[("content-type", "application/json")],
        "",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    p.kill();
    let p = Proc::start_manual(&dir);
    assert!(topics(&sns_client_for(&p.endpoint)).await.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The token of the one SubscriptionConfirmation recorded for an email-json endpoint.
async fn recorded_token(p: &Proc) -> String {
    let got = crate::common::raw(&p.endpoint, "GET", "/_sqslite/sns/deliveries", &[], "").await;
    let records = got.json()["deliveries"].as_array().unwrap().clone();
    let confirmation = records
        .iter()
        .find(|r| r["type"] == "SubscriptionConfirmation")
        .expect("a recorded confirmation");
    let doc: serde_json::Value =
        serde_json::from_str(confirmation["payload"].as_str().unwrap()).unwrap();
    doc["Token"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_pending_subscription_and_its_token_survive_a_restart() {
    let dir = temp_dir("sns-pending");
    let p = Proc::start_manual(&dir);
    let sns = sns_client_for(&p.endpoint);
    let topic = sns.create_topic().name("alerts").send().await.unwrap();
    let topic = topic.topic_arn.unwrap();
    let subscribed = sns.subscribe().topic_arn(&topic).protocol("email-json");
    let subscribed = subscribed
        .endpoint("ops@example.com")
        .return_subscription_arn(true);
    let sub = subscribed.send().await.unwrap().subscription_arn.unwrap();
    let token = recorded_token(&p).await;
    p.kill();

    let p = Proc::start_manual(&dir);
    let sns = sns_client_for(&p.endpoint);
    let attributes = subscription_attributes(&sns, &sub).await;
    assert_eq!(attributes["PendingConfirmation"], "true");
    let confirmed = sns.confirm_subscription().topic_arn(&topic).token(&token);
    let confirmed = confirmed.authenticate_on_unsubscribe("true").send().await;
    assert_eq!(confirmed.unwrap().subscription_arn.unwrap(), sub);
    p.kill();

    // The confirmation itself is stored: still confirmed, and only a signed Unsubscribe.
    let p = Proc::start_manual(&dir);
    let sns = sns_client_for(&p.endpoint);
    let attributes = subscription_attributes(&sns, &sub).await;
    assert_eq!(attributes["PendingConfirmation"], "false");
    assert_eq!(attributes["ConfirmationWasAuthenticated"], "true");
    let unsigned = format!("/?Action=Unsubscribe&SubscriptionArn={sub}");
    let refused = crate::common::raw(&p.endpoint, "GET", &unsigned, &[], "").await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    let _ = std::fs::remove_dir_all(&dir);
}
