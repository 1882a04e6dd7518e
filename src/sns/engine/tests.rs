//! Engine tests with explicit instants: deduplication windows, filtering, the envelope.

use std::collections::BTreeMap;

use super::envelope::Origin;
use super::publish::{AttrData, Attribute};
use super::subscriptions::NewSubscription;
use super::topics::NewTopic;
use super::{Delivery, Owner, Publication, Sns};
use crate::clock::Millis;

const OWNER: Owner<'static> = Owner {
    region: "eu-west-1",
    account: "123456789012",
};
const ORIGIN: Origin<'static> = Origin {
    base_url: "http://localhost:9324",
};

fn topic(sns: &Sns, name: &str, attributes: &[(&str, &str)]) -> String {
    sns.create_topic(
        OWNER,
        NewTopic {
            name: name.into(),
            attributes: attributes
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            tags: BTreeMap::new(),
        },
    )
    .unwrap()
}

fn subscribe(sns: &Sns, topic: &str, queue: &str, attributes: &[(&str, &str)]) -> String {
    sns.subscribe(
        OWNER,
        NewSubscription {
            topic_arn: topic.into(),
            protocol: "sqs".into(),
            endpoint: format!("arn:aws:sqs:eu-west-1:123456789012:{queue}"),
            attributes: attributes
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            principal: None,
        },
        0,
    )
    .unwrap()
}

fn message(text: &str, group: Option<&str>) -> Publication {
    Publication {
        message: text.into(),
        group_id: group.map(str::to_owned),
        ..Publication::default()
    }
}

/// Publishes `p` and makes every delivery, chunk by chunk.
fn publish(sns: &Sns, arn: &str, p: &Publication, now: Millis) -> (String, Vec<Delivery>) {
    let mut published = sns.publish(arn, p, now).unwrap();
    let mut all = Vec::new();
    while !published.fanout.is_empty() {
        all.extend(published.fanout.next_chunk(p, &ORIGIN));
    }
    (published.message_id, all)
}

#[test]
fn fifo_deduplication_lasts_five_minutes() {
    let sns = Sns::new();
    let arn = topic(
        &sns,
        "t.fifo",
        &[("FifoTopic", "true"), ("ContentBasedDeduplication", "true")],
    );
    subscribe(&sns, &arn, "q.fifo", &[]);
    let first = publish(&sns, &arn, &message("m", Some("g")), 0);
    assert_eq!(first.1.len(), 1);
    let dup = publish(&sns, &arn, &message("m", Some("g")), 299_999);
    assert_eq!(dup.0, first.0);
    assert!(dup.1.is_empty());
    let later = publish(&sns, &arn, &message("m", Some("g")), 300_000);
    assert_ne!(later.0, first.0);
    assert_eq!(later.1.len(), 1);
    assert_eq!(later.1[0].deduplication_id, first.1[0].deduplication_id);
}

#[test]
fn a_filter_policy_chooses_the_deliveries() {
    let sns = Sns::new();
    let arn = topic(&sns, "t", &[]);
    subscribe(&sns, &arn, "all", &[("RawMessageDelivery", "true")]);
    subscribe(
        &sns,
        &arn,
        "big",
        &[("FilterPolicy", r#"{"n":[{"numeric":[">",10]}]}"#)],
    );
    let mut p = message("body", None);
    p.attributes.insert(
        "n".into(),
        Attribute {
            data_type: "Number".into(),
            data: AttrData::Text("3".into()),
        },
    );
    let (_, small) = publish(&sns, &arn, &p, 0);
    let queues: Vec<_> = small.iter().map(|d| d.queue_arn.as_str()).collect();
    assert_eq!(queues, ["arn:aws:sqs:eu-west-1:123456789012:all"]);
    assert_eq!(&*small[0].body, "body");
    assert_eq!(small[0].attributes.len(), 1);
    p.attributes.get_mut("n").unwrap().data = AttrData::Text("11".into());
    assert_eq!(publish(&sns, &arn, &p, 0).1.len(), 2);
}

#[test]
fn a_publish_to_many_subscriptions_is_delivered_a_chunk_at_a_time() {
    let sns = Sns::new();
    let arn = topic(&sns, "wide", &[]);
    for i in 0..40 {
        subscribe(
            &sns,
            &arn,
            &format!("q{i}"),
            &[("RawMessageDelivery", "true")],
        );
    }
    let p = message(&"x".repeat(1000), None);
    let mut published = sns.publish(&arn, &p, 0).unwrap();
    let first = published.fanout.next_chunk(&p, &ORIGIN);
    assert_eq!(first.len(), super::fanout::CHUNK);
    // Raw bodies are the publish's one text, not a copy each.
    assert!(first
        .iter()
        .all(|d| std::sync::Arc::ptr_eq(&d.body, &first[0].body)));
    let mut made = first.len();
    while !published.fanout.is_empty() {
        made += published.fanout.next_chunk(&p, &ORIGIN).len();
    }
    assert_eq!(made, 40);
}

#[test]
fn publish_checks_snss_rules() {
    let sns = Sns::new();
    let arn = topic(&sns, "t", &[]);
    let refused = |p: &Publication| sns.publish(&arn, p, 0).unwrap_err().message;
    assert_eq!(
        refused(&message("", None)),
        "Invalid parameter: Empty message"
    );
    let big = "x".repeat(super::publish::MAX_MESSAGE_BYTES + 1);
    assert_eq!(
        refused(&message(&big, None)),
        "Invalid parameter: Message too long"
    );
    let mut p = message("m", None);
    p.deduplication_id = Some("d".into());
    assert!(refused(&p).starts_with("Invalid parameter: MessageDeduplicationId"));
    let mut p = message("m", None);
    p.attributes.insert(
        "a".into(),
        Attribute {
            data_type: "Number".into(),
            data: AttrData::Text("nan?".into()),
        },
    );
    assert_eq!(
        refused(&p),
        "Could not cast message attribute 'a' value to number."
    );
}

#[test]
fn deleting_a_topic_drops_its_subscriptions() {
    let sns = Sns::new();
    let arn = topic(&sns, "t", &[]);
    let sub = subscribe(&sns, &arn, "q", &[]);
    sns.delete_topic(&arn);
    assert!(sns.subscription(&sub).is_err());
    assert!(sns.list_topics(OWNER, None).0.is_empty());
    // Idempotent.
    sns.delete_topic(&arn);
}

#[test]
fn a_source_owner_condition_grants_the_callers_account() {
    let sns = Sns::new();
    let arn = topic(&sns, "shared", &[]);
    let policy = format!(
        r#"{{"Version":"2008-10-17","Statement":[{{"Effect":"Allow","Principal":{{"AWS":"*"}},"Action":"SNS:Publish","Resource":"{arn}","Condition":{{"StringEquals":{{"AWS:SourceOwner":"111111111111"}}}}}}]}}"#
    );
    sns.set_topic_attribute(&arn, "Policy", &policy).unwrap();
    let topic = sns.topic(&arn).unwrap();
    let caller = |account| super::access::Access {
        account,
        arn: "arn:aws:iam::111111111111:root",
        operation: "Publish",
        now: 0,
    };
    assert!(topic.admits(&caller("111111111111")));
    assert!(!topic.admits(&caller("222222222222")));
}
