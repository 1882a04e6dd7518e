//! Unit tests of the SNS subscription rules.

use super::*;
use crate::policy::Policy;

const QUEUE: &str = "arn:aws:sqs:us-east-1:000000000000:audit";
const TOPIC: &str = "arn:aws:sns:us-east-1:000000000000:orders";

#[test]
fn a_policy_fix_keeps_the_statements_there_and_is_one_sqs_accepts() {
    let fresh = extended_policy(None, allow_topic(QUEUE, TOPIC));
    Policy::parse(&fresh).unwrap_or_else(|e| panic!("{fresh}: {e:?}"));
    let existing = r#"{"Version":"2012-10-17","Statement":{"Effect":"Deny","Principal":"*","Action":"sqs:DeleteQueue"}}"#;
    let kept = extended_policy(Some(existing), allow_topic(QUEUE, TOPIC));
    let parsed = Policy::parse(&kept).unwrap_or_else(|e| panic!("{kept}: {e:?}"));
    assert!(parsed.text().contains("DeleteQueue") && parsed.text().contains("sns.amazonaws.com"));
}

fn subscription(queue: &str, dlq: Option<&str>) -> SubscriptionView {
    SubscriptionView {
        arn: format!("{TOPIC}:1"),
        topic: "orders".into(),
        topic_arn: TOPIC.into(),
        queue_arn: format!("arn:aws:sqs:us-east-1:000000000000:{queue}"),
        dead_letter_arn: dlq.map(str::to_owned),
        queue_admits: Some(true),
        dead_letter_admits: Some(true),
        ..SubscriptionView::default()
    }
}

fn queue(name: &str) -> QueueView {
    QueueView {
        name: name.into(),
        arn: format!("arn:aws:sqs:us-east-1:000000000000:{name}"),
        url: format!("http://h/000000000000/{name}"),
        fifo: crate::sns::engine::topics::is_fifo_name(name),
        ..QueueView::default()
    }
}

fn rules(queues: &[&str], subscriptions: Vec<SubscriptionView>) -> Vec<String> {
    let snap = Snapshot {
        endpoint: "http://h".into(),
        queues: queues.iter().map(|q| queue(q)).collect(),
        subscriptions,
        ..Snapshot::default()
    };
    check_all(&snap).into_iter().map(|f| f.rule).collect()
}

#[test]
fn a_subscription_with_its_queue_and_dead_letter_queue_in_place_has_no_findings() {
    let dlq = "arn:aws:sqs:us-east-1:000000000000:dlq";
    assert!(rules(&["q", "dlq"], vec![subscription("q", Some(dlq))]).is_empty());
}

#[test]
fn a_missing_queue_or_dead_letter_queue_and_a_type_mismatch_are_errors() {
    let dlq = "arn:aws:sqs:us-east-1:000000000000:dlq";
    assert_eq!(
        rules(&["dlq"], vec![subscription("q", Some(dlq))]),
        ["sns_queue_missing"]
    );
    assert_eq!(
        rules(&["q"], vec![subscription("q", Some(dlq))]),
        ["sns_dlq_missing"]
    );
    assert_eq!(
        rules(&["q.fifo", "dlq"], vec![subscription("q.fifo", Some(dlq))]),
        ["sns_fifo_mismatch"]
    );
    let mut fifo = subscription("q", Some("arn:aws:sqs:us-east-1:000000000000:dlq.fifo"));
    fifo.fifo_topic = true;
    assert_eq!(
        rules(&["q", "dlq.fifo"], vec![fifo]),
        ["sns_fifo_to_standard"]
    );
    let elsewhere = "arn:aws:sqs:eu-west-1:000000000000:dlq";
    assert_eq!(
        rules(&["q"], vec![subscription("q", Some(elsewhere))]),
        ["sns_dlq_elsewhere"]
    );
}
