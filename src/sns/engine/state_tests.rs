//! The records an engine reports rebuild it: replayed in order, replayed twice, and
//! replayed over a snapshot taken part-way through, the state comes out the same.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::state::{SnsJournal, SnsRecord};
use super::subscriptions::NewSubscription;
use super::topics::NewTopic;
use super::{Owner, Publication, Sns};

const OWNER: Owner<'static> = Owner {
    region: "us-east-1",
    account: "000000000000",
};

#[derive(Debug, Default)]
struct Recorder(Mutex<Vec<SnsRecord>>);

impl SnsJournal for Recorder {
    fn record(&self, record: &SnsRecord) {
        self.0.lock().unwrap().push(record.clone());
    }
}

fn snapshot(sns: &Sns, now: u64) -> Vec<SnsRecord> {
    let mut out = Vec::new();
    sns.snapshot(now, &mut |r| {
        out.push(r.clone());
        Ok(())
    })
    .unwrap();
    out
}

fn new_topic(name: &str, attributes: &[(&str, &str)]) -> NewTopic {
    NewTopic {
        name: name.into(),
        attributes: attributes
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        tags: BTreeMap::from([("team".to_owned(), "a".to_owned())]),
    }
}

fn subscription(topic: &str, queue: &str) -> NewSubscription {
    NewSubscription {
        topic_arn: topic.into(),
        protocol: "sqs".into(),
        endpoint: format!("arn:aws:sqs:us-east-1:000000000000:{queue}"),
        attributes: BTreeMap::from([
            ("FilterPolicy".to_owned(), r#"{"a":["b"]}"#.to_owned()),
            ("FilterPolicyScope".to_owned(), "MessageBody".to_owned()),
        ]),
        principal: None,
    }
}

#[test]
fn replaying_the_records_rebuilds_the_state_whatever_it_starts_from() {
    let journal = Arc::new(Recorder::default());
    let sns = Sns::with_journal(journal.clone());
    let standard = sns.create_topic(OWNER, new_topic("t", &[])).unwrap();
    let fifo_attrs = [("FifoTopic", "true"), ("ContentBasedDeduplication", "true")];
    let fifo = sns
        .create_topic(OWNER, new_topic("f.fifo", &fifo_attrs))
        .unwrap();
    let sub = sns
        .subscribe(OWNER, subscription(&standard, "q"), 0)
        .unwrap();
    sns.subscribe(OWNER, subscription(&fifo, "q.fifo"), 0)
        .unwrap();
    let midway = snapshot(&sns, 0);
    let written = journal.0.lock().unwrap().len();
    sns.set_subscription_attribute(&sub, "RawMessageDelivery", "true")
        .unwrap();
    let message = Publication {
        message: "m".into(),
        group_id: Some("g".into()),
        ..Publication::default()
    };
    sns.publish(&fifo, &message, 0).unwrap();
    sns.unsubscribe(&sub).unwrap();
    sns.set_topic_attribute(&standard, "DisplayName", "T")
        .unwrap();
    sns.delete_topic(&fifo);
    sns.create_topic(OWNER, new_topic("f.fifo", &fifo_attrs))
        .unwrap();
    sns.publish(&fifo, &message, 1).unwrap();
    let want = snapshot(&sns, 2);
    let log = journal.0.lock().unwrap().clone();

    let replay = |start: &[SnsRecord], log: &[SnsRecord]| {
        let rebuilt = Sns::new();
        for r in start.iter().chain(log) {
            rebuilt.restore(r.clone(), 2).unwrap();
        }
        snapshot(&rebuilt, 2)
    };
    assert_eq!(replay(&[], &log), want, "from nothing");
    assert_eq!(replay(&log, &log), want, "twice over");
    // A snapshot taken part-way may already hold effects of the records after its start.
    assert_eq!(
        replay(&midway, &log[written - 2..]),
        want,
        "snapshot, then log"
    );
    assert_eq!(
        replay(&want, &log[written..]),
        want,
        "a later snapshot, then log"
    );
}
