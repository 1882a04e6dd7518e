//! Engine tests with explicit instants: deduplication windows, filtering, the envelope.

use std::collections::BTreeMap;

use super::envelope::Origin;
use super::publish::{AttrData, Attribute};
use super::subscriptions::NewSubscription;
use super::topics::NewTopic;
use super::{Owner, Publication, Sns};

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

#[test]
fn fifo_deduplication_lasts_five_minutes() {
    let sns = Sns::new();
    let arn = topic(
        &sns,
        "t.fifo",
        &[("FifoTopic", "true"), ("ContentBasedDeduplication", "true")],
    );
    subscribe(&sns, &arn, "q.fifo", &[]);
    let first = sns
        .publish(&arn, &message("m", Some("g")), &ORIGIN, 0)
        .unwrap();
    assert_eq!(first.deliveries.len(), 1);
    let dup = sns
        .publish(&arn, &message("m", Some("g")), &ORIGIN, 299_999)
        .unwrap();
    assert_eq!(dup.message_id, first.message_id);
    assert!(dup.deliveries.is_empty());
    let later = sns
        .publish(&arn, &message("m", Some("g")), &ORIGIN, 300_000)
        .unwrap();
    assert_ne!(later.message_id, first.message_id);
    assert_eq!(later.deliveries.len(), 1);
    assert_eq!(
        later.deliveries[0].deduplication_id,
        first.deliveries[0].deduplication_id
    );
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
    let small = sns.publish(&arn, &p, &ORIGIN, 0).unwrap();
    let queues: Vec<_> = small
        .deliveries
        .iter()
        .map(|d| d.queue_arn.as_str())
        .collect();
    assert_eq!(queues, ["arn:aws:sqs:eu-west-1:123456789012:all"]);
    assert_eq!(small.deliveries[0].body, "body");
    assert_eq!(small.deliveries[0].attributes.len(), 1);
    p.attributes.get_mut("n").unwrap().data = AttrData::Text("11".into());
    assert_eq!(
        sns.publish(&arn, &p, &ORIGIN, 0).unwrap().deliveries.len(),
        2
    );
}

#[test]
fn publish_checks_snss_rules() {
    let sns = Sns::new();
    let arn = topic(&sns, "t", &[]);
    let refused = |p: &Publication| sns.publish(&arn, p, &ORIGIN, 0).unwrap_err().message;
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
