//! SNS seen from the side: `/metrics` under CloudWatch's SNS metric names and the advisor's
//! findings for subscriptions, driven by the real `aws-sdk-sns` and `aws-sdk-sqs` clients
//! (the dashboard's admin API is in `topics_api`).

use crate::common::sns::{start, Sns};
use serde_json::{json, Value};

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
    let body_sub = subscribe_filtered_and_dead_lettered(&s, &topic).await;
    s.publish_with(&topic, "hello", &[("color", "blue")]).await;
    s.publish_with(&topic, r#"{"kind":"order"}"#, &[]).await;
    s.publish_with(&topic, "not json", &[]).await;

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
    assert_notification_counts(&metrics);
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

/// Subscribes all, red (attribute filter), body (body filter), gone (its queue deleted,
/// dead-lettering) and lost (deleted, its dead-letter queue missing); returns body's ARN.
async fn subscribe_filtered_and_dead_lettered(s: &Sns, topic: &str) -> String {
    let (_, all) = s.queue("all", &[]).await;
    let (_, red) = s.queue("red", &[]).await;
    let (_, body) = s.queue("body", &[]).await;
    let (_, dlq) = s.queue("gone-dlq", &[]).await;
    let (gone_url, gone) = s.queue("gone", &[]).await;
    let (lost_url, lost) = s.queue("lost", &[]).await;
    s.subscribe(topic, &all, &[]).await;
    s.subscribe(topic, &red, &[("FilterPolicy", r#"{"color": ["red"]}"#)])
        .await;
    let body_sub = s
        .subscribe(
            topic,
            &body,
            &[
                ("FilterPolicyScope", "MessageBody"),
                ("FilterPolicy", r#"{"kind": ["order"]}"#),
            ],
        )
        .await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq}"}}"#);
    s.subscribe(topic, &gone, &[("RedrivePolicy", &redrive)])
        .await;
    let nowhere = r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:nowhere"}"#;
    s.subscribe(topic, &lost, &[("RedrivePolicy", nowhere)])
        .await;
    delete_queue(s, &gone_url).await;
    delete_queue(s, &lost_url).await;
    body_sub
}

/// Each subscription's notification counters after the three publishes.
fn assert_notification_counts(metrics: &str) {
    let of = |queue: &str, metric: &str| {
        let series = format!(
            "sns_number_of_notifications_{metric}_total{{account=\"000000000000\",endpoint=\"arn:aws:sqs:us-east-1:000000000000:{queue}\","
        );
        sample(metrics, &series)
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
    let undeliverable = |queue: &str, fate: &str| {
        let lines: Vec<&str> = metrics
            .lines()
            .filter(|l| {
                l.starts_with("sqslite_sns_notifications_undeliverable_total{")
                    && l.contains(&format!(":{queue}\","))
                    && l.contains(&format!("fate=\"{fate}\",reason=\"queue_refused\"}}"))
            })
            .collect();
        assert_eq!(lines.len(), 1, "{queue} {fate} in\n{metrics}");
        lines[0].rsplit(' ').next().unwrap().to_owned()
    };
    assert_eq!(undeliverable("gone", "dead_lettered"), "3");
    assert_eq!(undeliverable("gone", "dropped"), "0");
    assert_eq!(undeliverable("lost", "dead_lettered"), "0");
    assert_eq!(undeliverable("lost", "dropped"), "3");
}

/// The Topics page's figures: how many of a subscription's notifications were dead-lettered
/// or dropped, and its latest failure with the reason.
#[tokio::test]
async fn the_topics_api_shows_what_was_dropped_or_dead_lettered_and_why() {
    let s = start().await;
    let topic = s.topic("orders", &[]).await;
    subscribe_filtered_and_dead_lettered(&s, &topic).await;
    s.publish(&topic, "hello").await;
    let (status, topics) = s.admin_get("/_sqslite/topics").await;
    assert_eq!(status, 200);
    let sub = |queue: &str| {
        topics["topics"][0]["subscriptions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| {
                s["endpoint"]
                    .as_str()
                    .unwrap()
                    .ends_with(&format!(":{queue}"))
            })
            .unwrap()
            .clone()
    };
    let gone = sub("gone");
    assert_eq!(gone["counts"]["dropped"], 0);
    assert_eq!(
        gone["counts"]["undeliverable"]["queue_refused"]["dead_lettered"],
        1
    );
    assert_eq!(gone["last_failure"]["why"], "queue_refused");
    assert_eq!(gone["last_failure"]["dead_lettered"], true);
    assert_eq!(gone["last_failure"]["reason"], "the queue does not exist");
    let lost = sub("lost");
    assert_eq!(lost["counts"]["dropped"], 1);
    assert_eq!(lost["last_failure"]["dead_lettered"], false);
    assert!(lost["last_failure"]["at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(sub("all")["last_failure"], Value::Null);
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
    let (audit_url, audit_sub) = five_subscriptions_with_four_flaws(&s, &orders).await;
    let (status, advice) = s.admin_get("/_sqslite/advice").await;
    assert_eq!(status, 200);
    assert_eq!(advice["subscriptions"], 5);
    assert_eq!(
        sns_rules(&advice),
        owned(&[
            ("sns_dlq_policy_refuses", "other", "mixed"),
            ("sns_dlq_type", "events", "events"),
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
        .contains("needs a standard one"));
    apply_the_audit_fixes(&s, &orders, findings, &audit_url, &audit_sub).await;
    let (_, advice) = s.admin_get("/_sqslite/advice").await;
    let left = sns_rules(&advice);
    assert!(!left.iter().any(|(_, _, q)| q == "audit"), "{left:?}");
}

/// audit (no Policy, no dead-letter queue), billing (all in place), events (dead-letters
/// into a FIFO queue) and mixed (raw from orders, JSON from other, its DLQ refusing
/// other); returns audit's URL and subscription.
async fn five_subscriptions_with_four_flaws(s: &Sns, orders: &str) -> (String, String) {
    let other = s.topic("other", &[]).await;
    let events = s.topic("events", &[]).await;
    // audit: no Policy and no dead-letter queue.
    let (audit_url, audit) = s.queue("audit", &[]).await;
    let audit_sub = s.subscribe(orders, &audit, &[]).await;
    // billing: everything in place.
    let (dlq_url, billing_dlq) = s.queue("billing-dlq", &[]).await;
    let (billing_url, billing) = s.queue("billing", &[]).await;
    set_policy(s, &billing_url, &allow_topic(&billing, orders)).await;
    set_policy(s, &dlq_url, &allow_topic(&billing_dlq, orders)).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{billing_dlq}"}}"#);
    s.subscribe(orders, &billing, &[("RedrivePolicy", &redrive)])
        .await;
    // events: a standard topic whose subscription dead-letters into a FIFO queue (the
    // other way round, SNS refuses the RedrivePolicy itself).
    let (events_url, events_q) = s.queue("events", &[]).await;
    set_policy(s, &events_url, &allow_topic(&events_q, &events)).await;
    let (_, events_dlq) = s.queue("events-dlq.fifo", &[("FifoQueue", "true")]).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{events_dlq}"}}"#);
    s.subscribe(&events, &events_q, &[("RedrivePolicy", &redrive)])
        .await;
    // mixed: raw from orders, JSON notifications from other.
    let (mixed_url, mixed) = s.queue("mixed", &[]).await;
    let both = json!({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"},
        "Action": "sqs:SendMessage", "Resource": mixed}]});
    set_policy(s, &mixed_url, &both.to_string()).await;
    let mixed_redrive = format!(r#"{{"deadLetterTargetArn":"{billing_dlq}"}}"#);
    s.subscribe(
        orders,
        &mixed,
        &[
            ("RawMessageDelivery", "true"),
            ("RedrivePolicy", &mixed_redrive),
        ],
    )
    .await;
    s.subscribe(&other, &mixed, &[("RedrivePolicy", &mixed_redrive)])
        .await;
    (audit_url, audit_sub)
}

/// The fixes of audit's two findings, applied as given (they are checked to clear).
async fn apply_the_audit_fixes(
    s: &Sns,
    orders: &str,
    findings: &[Value],
    audit_url: &str,
    audit_sub: &str,
) {
    let refused = findings
        .iter()
        .find(|f| f["rule"] == "sns_policy_refuses")
        .unwrap();
    let policy = refused["fix"]["attributes"]["Policy"].as_str().unwrap();
    set_policy(s, audit_url, policy).await;
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
    set_policy(s, &dlq_url, &allow_topic(&audit_dlq, orders)).await;
    let redrive = missing["fix"]["attributes"]["RedrivePolicy"]
        .as_str()
        .unwrap();
    s.set_subscription(audit_sub, "RedrivePolicy", redrive)
        .await;
}

#[tokio::test]
async fn sqslite_doctor_prints_a_subscription_finding_as_topic_to_queue() {
    let s = start().await;
    let topic = s.topic("orders", &[]).await;
    let (_, audit) = s.queue("audit", &[]).await;
    s.subscribe(&topic, &audit, &[]).await;
    let (code, text) = crate::observe::advisor::doctor(&s.t, &["--queue", "audit"]).await;
    assert_eq!(code, Some(1), "an error finding fails CI: {text}");
    assert!(
        text.contains("ERROR  orders → audit  [sns_policy_refuses]"),
        "{text}"
    );
    assert!(
        text.contains("WARN   orders → audit  [sns_redrive_policy_missing]"),
        "{text}"
    );
    assert!(
        text.contains("aws sns set-subscription-attributes --endpoint-url"),
        "{text}"
    );
    assert!(text.contains("--attribute-name RedrivePolicy"), "{text}");
}

/// Under `--strict` a queue whose Policy refuses the topic refuses the notification, as on
/// AWS: it counts as failed, and its dead-letter queue (refusing too) as failed to redrive.
#[tokio::test]
async fn strict_refusals_count_as_failed_notifications() {
    let s = crate::common::sns::start_with(sqslite::Config {
        strict: true,
        ..sqslite::Config::ephemeral()
    })
    .await;
    let topic = s.topic("guarded", &[]).await;
    let (_, closed) = s.queue("closed", &[]).await;
    let (_, dlq) = s.queue("closed-dlq", &[]).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq}"}}"#);
    s.subscribe(&topic, &closed, &[("RedrivePolicy", &redrive)])
        .await;
    s.publish(&topic, "refused").await;
    let (_, topics) = s.admin_get("/_sqslite/topics").await;
    let counts = &topics["topics"][0]["subscriptions"][0]["counts"];
    assert_eq!(counts["delivered"], 0, "{counts}");
    assert_eq!(counts["failed"], 1);
    assert_eq!(counts["redriven_to_dlq"], 0);
    assert_eq!(counts["failed_to_redrive_to_dlq"], 1);
}
