//! SNS seen from the side: `/metrics` under CloudWatch's SNS metric names, the advisor's
//! findings for subscriptions, and the admin API the dashboard's topic page reads (topics with
//! counts, and a sample message tested against each filter policy), all driven by the real
//! `aws-sdk-sns` and `aws-sdk-sqs` clients.

use crate::common::sns::{start, string_attr, Sns};
use serde_json::{json, Value};

async fn get(s: &Sns, path: &str) -> (u16, Value) {
    let r = s.t.raw("GET", path, &[], "").await;
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

async fn post(s: &Sns, path: &str, body: &Value) -> (u16, Value) {
    let r =
        s.t.raw(
            "POST",
            path,
            &[("content-type", "application/json")],
            &body.to_string(),
        )
        .await;
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

async fn set_policy(s: &Sns, url: &str, policy: &str) {
    s.t.set_attribute(url, aws_sdk_sqs::types::QueueAttributeName::Policy, policy)
        .await
        .expect("set Policy");
}

async fn delete_queue(s: &Sns, url: &str) {
    s.t.client
        .delete_queue()
        .queue_url(url)
        .send()
        .await
        .unwrap();
}

/// Publishes with String attributes.
async fn publish_with(s: &Sns, topic: &str, message: &str, attributes: &[(&str, &str)]) {
    let mut req = s.sns.publish().topic_arn(topic).message(message);
    for (k, v) in attributes {
        req = req.message_attributes(*k, string_attr(v));
    }
    req.send().await.expect("publish");
}

/// The value of the one series line that starts with `series` (name and labels).
fn sample(metrics: &str, series: &str) -> String {
    let lines: Vec<&str> = metrics.lines().filter(|l| l.starts_with(series)).collect();
    assert_eq!(lines.len(), 1, "{series} in\n{metrics}");
    lines[0].rsplit(' ').next().unwrap().to_owned()
}

#[tokio::test]
async fn metrics_count_publishes_deliveries_filters_and_dead_letters() {
    let s = start().await;
    let topic = s.topic("orders", &[]).await;
    let (_, all) = s.queue("all", &[]).await;
    let (_, red) = s.queue("red", &[]).await;
    let (_, body) = s.queue("body", &[]).await;
    let (_, dlq) = s.queue("gone-dlq", &[]).await;
    let (gone_url, gone) = s.queue("gone", &[]).await;
    let (lost_url, lost) = s.queue("lost", &[]).await;
    s.subscribe(&topic, &all, &[]).await;
    s.subscribe(&topic, &red, &[("FilterPolicy", r#"{"color": ["red"]}"#)])
        .await;
    let body_sub = s
        .subscribe(
            &topic,
            &body,
            &[
                ("FilterPolicyScope", "MessageBody"),
                ("FilterPolicy", r#"{"kind": ["order"]}"#),
            ],
        )
        .await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq}"}}"#);
    s.subscribe(&topic, &gone, &[("RedrivePolicy", &redrive)])
        .await;
    let nowhere = r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:nowhere"}"#;
    s.subscribe(&topic, &lost, &[("RedrivePolicy", nowhere)])
        .await;
    delete_queue(&s, &gone_url).await;
    delete_queue(&s, &lost_url).await;

    publish_with(&s, &topic, "hello", &[("color", "blue")]).await;
    publish_with(&s, &topic, r#"{"kind":"order"}"#, &[]).await;
    publish_with(&s, &topic, "not json", &[]).await;

    let metrics = s.t.raw("GET", "/metrics", &[], "").await.body;
    let t = r#"{account="000000000000",region="us-east-1",topic="orders"}"#;
    assert_eq!(
        sample(
            &metrics,
            &format!("sns_number_of_messages_published_total{t}")
        ),
        "3"
    );
    // (5 + "color" 5 + "String" 6 + "blue" 4) + 16 + 8 bytes over 3 messages.
    assert_eq!(
        sample(&metrics, &format!("sns_publish_size_bytes{t}")),
        (44.0f64 / 3.0).to_string()
    );
    let of = |queue: &str, metric: &str| {
        let series = format!(
            "sns_number_of_notifications_{metric}_total{{account=\"000000000000\",endpoint=\"arn:aws:sqs:us-east-1:000000000000:{queue}\","
        );
        sample(&metrics, &series)
    };
    assert_eq!(of("all", "delivered"), "3");
    assert_eq!(of("all", "filtered_out"), "0");
    assert_eq!(of("red", "delivered"), "0");
    assert_eq!(of("red", "filtered_out"), "3");
    assert_eq!(of("red", "filtered_out_no_message_attributes"), "2");
    assert_eq!(of("red", "filtered_out_invalid_message_body"), "0");
    assert_eq!(of("body", "delivered"), "1");
    assert_eq!(of("body", "filtered_out"), "2");
    assert_eq!(of("body", "filtered_out_invalid_message_body"), "2");
    assert_eq!(of("body", "filtered_out_no_message_attributes"), "0");
    assert_eq!(of("body", "filtered_out_invalid_attributes"), "0");
    assert_eq!(of("gone", "failed"), "3");
    assert_eq!(of("gone", "redriven_to_dlq"), "3");
    assert_eq!(of("gone", "failed_to_redrive_to_dlq"), "0");
    assert_eq!(of("lost", "failed"), "3");
    assert_eq!(of("lost", "redriven_to_dlq"), "0");
    assert_eq!(of("lost", "failed_to_redrive_to_dlq"), "3");
    let id = body_sub.rsplit(':').next().unwrap();
    assert!(
        metrics.contains(&format!(
            r#"protocol="sqs",region="us-east-1",subscription="{id}",topic="orders"}} 1"#
        )),
        "{metrics}"
    );
    assert!(metrics.contains("# TYPE sns_number_of_notifications_delivered_total counter"));

    // An unsubscribed subscription's series go with it; the topic's stay.
    s.sns
        .unsubscribe()
        .subscription_arn(&body_sub)
        .send()
        .await
        .unwrap();
    let metrics = s.t.raw("GET", "/metrics", &[], "").await.body;
    assert!(!metrics.contains(id));
    assert!(metrics.contains(&format!("sns_number_of_messages_published_total{t} 3")));
}

#[tokio::test]
async fn a_server_without_topics_shows_no_sns_series() {
    let s = start().await;
    let metrics = s.t.raw("GET", "/metrics", &[], "").await.body;
    assert!(!metrics.contains("sns_"), "{metrics}");
    s.topic("quiet", &[]).await;
    let metrics = s.t.raw("GET", "/metrics", &[], "").await.body;
    assert!(metrics.contains("sns_number_of_messages_published_total"));
    assert!(
        !metrics.contains("sns_number_of_notifications"),
        "no subscription yet"
    );
}

/// Rule ids of the subscription findings, as (rule, topic, queue).
fn sns_rules(advice: &Value) -> Vec<(String, String, String)> {
    let mut out: Vec<_> = advice["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["topic"].is_string())
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap().to_owned();
            (s("rule"), s("topic"), s("queue"))
        })
        .collect();
    out.sort();
    out
}

fn owned(items: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    items
        .iter()
        .map(|(a, b, c)| ((*a).into(), (*b).into(), (*c).into()))
        .collect()
}

fn allow_topic(queue_arn: &str, topic_arn: &str) -> String {
    json!({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"},
        "Action": "sqs:SendMessage", "Resource": queue_arn,
        "Condition": {"ArnEquals": {"aws:SourceArn": topic_arn}}}]})
    .to_string()
}

#[tokio::test]
async fn the_advisor_flags_subscriptions_aws_would_refuse_lose_or_mix() {
    let s = start().await;
    let orders = s.topic("orders", &[]).await;
    let other = s.topic("other", &[]).await;
    let events = s
        .topic(
            "events.fifo",
            &[("FifoTopic", "true"), ("ContentBasedDeduplication", "true")],
        )
        .await;
    // audit: no Policy and no dead-letter queue.
    let (audit_url, audit) = s.queue("audit", &[]).await;
    let audit_sub = s.subscribe(&orders, &audit, &[]).await;
    // billing: everything in place.
    let (dlq_url, billing_dlq) = s.queue("billing-dlq", &[]).await;
    let (billing_url, billing) = s.queue("billing", &[]).await;
    set_policy(&s, &billing_url, &allow_topic(&billing, &orders)).await;
    set_policy(&s, &dlq_url, &allow_topic(&billing_dlq, &orders)).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{billing_dlq}"}}"#);
    s.subscribe(&orders, &billing, &[("RedrivePolicy", &redrive)])
        .await;
    // events.fifo: a FIFO topic whose subscription dead-letters into a standard queue.
    let (events_url, events_q) = s.queue("events.fifo", &[("FifoQueue", "true")]).await;
    set_policy(&s, &events_url, &allow_topic(&events_q, &events)).await;
    let (_, events_dlq) = s.queue("events-dlq", &[]).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{events_dlq}"}}"#);
    s.subscribe(&events, &events_q, &[("RedrivePolicy", &redrive)])
        .await;
    // mixed: raw from orders, JSON notifications from other.
    let (mixed_url, mixed) = s.queue("mixed", &[]).await;
    let both = json!({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"},
        "Action": "sqs:SendMessage", "Resource": mixed}]});
    set_policy(&s, &mixed_url, &both.to_string()).await;
    let mixed_redrive = format!(r#"{{"deadLetterTargetArn":"{billing_dlq}"}}"#);
    s.subscribe(
        &orders,
        &mixed,
        &[
            ("RawMessageDelivery", "true"),
            ("RedrivePolicy", &mixed_redrive),
        ],
    )
    .await;
    s.subscribe(&other, &mixed, &[("RedrivePolicy", &mixed_redrive)])
        .await;

    let (status, advice) = get(&s, "/_sqslite/advice").await;
    assert_eq!(status, 200);
    assert_eq!(advice["subscriptions"], 5);
    assert_eq!(
        sns_rules(&advice),
        owned(&[
            ("sns_dlq_policy_refuses", "other", "mixed"),
            ("sns_dlq_type", "events.fifo", "events.fifo"),
            ("sns_policy_refuses", "orders", "audit"),
            ("sns_raw_mixed", "other", "mixed"),
            ("sns_redrive_policy_missing", "orders", "audit"),
        ])
    );
    let findings = advice["findings"].as_array().unwrap();
    let refused = findings
        .iter()
        .find(|f| f["rule"] == "sns_policy_refuses")
        .unwrap();
    assert_eq!(refused["severity"], "error");
    assert_eq!(refused["subscription"], audit_sub.as_str());
    assert!(refused["message"]
        .as_str()
        .unwrap()
        .contains("on AWS this subscription delivers nothing"));
    let dlq_type = findings
        .iter()
        .find(|f| f["rule"] == "sns_dlq_type")
        .unwrap();
    assert!(dlq_type["message"]
        .as_str()
        .unwrap()
        .contains("needs a FIFO one"));

    // The fixes, applied as given, clear their findings.
    let policy = refused["fix"]["attributes"]["Policy"].as_str().unwrap();
    set_policy(&s, &audit_url, policy).await;
    let missing = findings
        .iter()
        .find(|f| f["rule"] == "sns_redrive_policy_missing")
        .unwrap();
    let commands = missing["fix"]["commands"].as_array().unwrap();
    assert!(commands[0]
        .as_str()
        .unwrap()
        .contains("--queue-name audit-sns-dlq"));
    assert!(commands[2]
        .as_str()
        .unwrap()
        .starts_with("aws sns set-subscription-attributes"));
    let (dlq_url, audit_dlq) = s.queue("audit-sns-dlq", &[]).await;
    set_policy(&s, &dlq_url, &allow_topic(&audit_dlq, &orders)).await;
    let redrive = missing["fix"]["attributes"]["RedrivePolicy"]
        .as_str()
        .unwrap();
    s.set_subscription(&audit_sub, "RedrivePolicy", redrive)
        .await;
    let (_, advice) = get(&s, "/_sqslite/advice").await;
    let left = sns_rules(&advice);
    assert!(!left.iter().any(|(_, _, q)| q == "audit"), "{left:?}");
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
    publish_with(&s, &topic, "one", &[("color", "red")]).await;
    publish_with(&s, &topic, "two", &[("color", "blue")]).await;
    let (status, answer) = get(&s, "/_sqslite/topics").await;
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
    let (all_url, all) = s.queue("all", &[]).await;
    let (_, red) = s.queue("red", &[]).await;
    let (_, body) = s.queue("body", &[]).await;
    s.subscribe(&topic, &all, &[]).await;
    s.subscribe(
        &topic,
        &red,
        &[(
            "FilterPolicy",
            r#"{"color": ["red"], "size": [{"numeric": [">", 5]}]}"#,
        )],
    )
    .await;
    s.subscribe(
        &topic,
        &body,
        &[
            ("FilterPolicyScope", "MessageBody"),
            ("FilterPolicy", r#"{"order": {"kind": ["refund"]}}"#),
        ],
    )
    .await;
    let sample = json!({
        "topic_arn": topic,
        "message": r#"{"order": {"kind": "sale"}}"#,
        "attributes": {"color": "blue", "size": 9},
    });
    let (status, answer) = post(&s, "/_sqslite/topics/test", &sample).await;
    assert_eq!(status, 200, "{answer}");
    let by_queue = |q: &str| {
        answer["subscriptions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["endpoint"].as_str().unwrap().ends_with(&format!(":{q}")))
            .unwrap()
            .clone()
    };
    assert_eq!(by_queue("all")["delivers"], true);
    assert_eq!(by_queue("all")["explanation"], Value::Null);
    let r = by_queue("red");
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
    let b = by_queue("body");
    assert_eq!(b["filter_policy_scope"], "MessageBody");
    assert_eq!(
        b["explanation"]["branches"][0]["misses"][0]["key"],
        "order.kind"
    );

    let (_, answer) = post(
        &s,
        "/_sqslite/topics/test",
        &json!({"topic_arn": topic, "message": "plain", "attributes": {"color": "red", "size": 7}}),
    )
    .await;
    let red = answer["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["endpoint"].as_str().unwrap().ends_with(":red"))
        .unwrap();
    assert_eq!(red["delivers"], true, "a JSON number is a Number attribute");
    let body = answer["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["endpoint"].as_str().unwrap().ends_with(":body"))
        .unwrap();
    assert!(body["explanation"]["unreadable"]
        .as_str()
        .unwrap()
        .contains("not a JSON"));
    assert!(
        s.receive(&all_url).await.is_empty(),
        "a test publishes nothing"
    );
    let (_, topics) = get(&s, "/_sqslite/topics").await;
    assert_eq!(topics["topics"][0]["published"], 0);
}

#[tokio::test]
async fn the_test_endpoint_refuses_an_unknown_topic_and_malformed_samples() {
    let s = start().await;
    let topic = s.topic("orders", &[]).await;
    let (status, e) = post(
        &s,
        "/_sqslite/topics/test",
        &json!({"topic_arn": "arn:aws:sns:us-east-1:000000000000:nope"}),
    )
    .await;
    assert_eq!(status, 404, "{e}");
    let (status, e) = post(
        &s,
        "/_sqslite/topics/test",
        &json!({"topic_arn": topic, "attributes": {"a": true}}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        e["error"].as_str().unwrap().contains("attribute `a`"),
        "{e}"
    );
    let (status, _) = post(&s, "/_sqslite/topics/test", &json!({"topic": topic})).await;
    assert_eq!(status, 400);
}
