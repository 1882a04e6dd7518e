//! The admin API the dashboard's Topics page reads: topics with their subscriptions and
//! counts, and a sample message tested against each filter policy (which key failed which
//! condition), driven by the real `aws-sdk-sns` and `aws-sdk-sqs` clients.

use crate::common::sns::{start, Sns};
use serde_json::{json, Value};

/// The test endpoint's answer for the subscription into `queue`.
fn for_queue<'a>(answer: &'a Value, queue: &str) -> &'a Value {
    let end = format!(":{queue}");
    answer["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["endpoint"].as_str().unwrap().ends_with(&end))
        .unwrap()
}

#[tokio::test]
async fn the_topics_endpoint_lists_subscriptions_with_their_counts() {
    let s = start().await;
    let topic = s.topic("orders", &[]).await;
    let (_, red) = s.queue("red", &[]).await;
    let sub = s
        .subscribe(
            &topic,
            &red,
            &[
                ("FilterPolicy", r#"{"color": ["red"]}"#),
                ("RawMessageDelivery", "true"),
            ],
        )
        .await;
    s.publish_with(&topic, "one", &[("color", "red")]).await;
    s.publish_with(&topic, "two", &[("color", "blue")]).await;
    let (status, answer) = s.admin_get("/_sqslite/topics").await;
    assert_eq!(status, 200);
    let t = &answer["topics"][0];
    assert_eq!(t["name"], "orders");
    assert_eq!(t["arn"], topic.as_str());
    assert_eq!(t["published"], 2);
    let sub_json = &t["subscriptions"][0];
    assert_eq!(sub_json["arn"], sub.as_str());
    assert_eq!(sub_json["protocol"], "sqs");
    assert_eq!(sub_json["endpoint"], red.as_str());
    assert_eq!(sub_json["raw"], true);
    assert_eq!(sub_json["filter_policy"], r#"{"color": ["red"]}"#);
    assert_eq!(sub_json["filter_policy_scope"], "MessageAttributes");
    assert_eq!(sub_json["counts"]["delivered"], 1);
    assert_eq!(sub_json["counts"]["filtered_out"], 1);
}

#[tokio::test]
async fn a_sample_message_is_tested_against_every_filter_policy_and_nothing_is_published() {
    let s = start().await;
    let topic = s.topic("orders", &[]).await;
    let all_url = subscribe_all_red_and_body(&s, &topic).await;
    let sample = json!({
        "topic_arn": topic,
        "message": r#"{"order": {"kind": "sale"}}"#,
        "attributes": {"color": "blue", "size": 9},
    });
    let (status, answer) = s.admin_post("/_sqslite/topics/test", &sample).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(for_queue(&answer, "all")["delivers"], true);
    assert_eq!(for_queue(&answer, "all")["explanation"], Value::Null);
    let r = for_queue(&answer, "red");
    assert_eq!(r["delivers"], false);
    let misses = &r["explanation"]["branches"][0]["misses"];
    assert_eq!(
        misses.as_array().unwrap().len(),
        1,
        "size 9 > 5 matches: {misses}"
    );
    assert_eq!(misses[0]["key"], "color");
    assert_eq!(misses[0]["found"], json!([r#""blue""#]));
    assert_eq!(
        misses[0]["reason"],
        r#"color is "blue"; the policy needs ["red"]"#
    );
    let b = for_queue(&answer, "body");
    assert_eq!(b["filter_policy_scope"], "MessageBody");
    assert_eq!(
        b["explanation"]["branches"][0]["misses"][0]["key"],
        "order.kind"
    );

    let (_, answer) = s.admin_post(
        "/_sqslite/topics/test",
        &json!({"topic_arn": topic, "message": "plain", "attributes": {"color": "red", "size": 7}}),
    )
    .await;
    let red = for_queue(&answer, "red");
    assert_eq!(red["delivers"], true, "a JSON number is a Number attribute");
    let body = for_queue(&answer, "body");
    assert!(body["explanation"]["unreadable"]
        .as_str()
        .unwrap()
        .contains("not a JSON"));
    assert!(
        s.receive(&all_url).await.is_empty(),
        "a test publishes nothing"
    );
    let (_, topics) = s.admin_get("/_sqslite/topics").await;
    assert_eq!(topics["topics"][0]["published"], 0);
}

/// Subscribes all (no filter), red (color and size) and body (a body filter); returns
/// all's URL.
async fn subscribe_all_red_and_body(s: &Sns, topic: &str) -> String {
    let (all_url, all) = s.queue("all", &[]).await;
    let (_, red) = s.queue("red", &[]).await;
    let (_, body) = s.queue("body", &[]).await;
    s.subscribe(topic, &all, &[]).await;
    s.subscribe(
        topic,
        &red,
        &[(
            "FilterPolicy",
            r#"{"color": ["red"], "size": [{"numeric": [">", 5]}]}"#,
        )],
    )
    .await;
    s.subscribe(
        topic,
        &body,
        &[
            ("FilterPolicyScope", "MessageBody"),
            ("FilterPolicy", r#"{"order": {"kind": ["refund"]}}"#),
        ],
    )
    .await;
    all_url
}

#[tokio::test]
async fn the_test_endpoint_refuses_an_unknown_topic_and_malformed_samples() {
    let s = start().await;
    let topic = s.topic("orders", &[]).await;
    let (status, e) = s
        .admin_post(
            "/_sqslite/topics/test",
            &json!({"topic_arn": "arn:aws:sns:us-east-1:000000000000:nope"}),
        )
        .await;
    assert_eq!(status, 404, "{e}");
    let (status, e) = s
        .admin_post(
            "/_sqslite/topics/test",
            &json!({"topic_arn": topic, "attributes": {"a": true}}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        e["error"].as_str().unwrap().contains("attribute `a`"),
        "{e}"
    );
    let (status, _) = s
        .admin_post("/_sqslite/topics/test", &json!({"topic": topic}))
        .await;
    assert_eq!(status, 400);
}
