//! The poller's gathering against a real engine: a batch cut short at Lambda's payload
//! limit, and what becomes of the records received past it.

use std::time::Duration;

use super::*;
use crate::config::{Config, QueueDecl};
use crate::sqs::engine::message::NewMessage;
use crate::triggers::{Function, Settings, Target};

/// One megabyte of body: six fit in an event, seven do not.
const BODY_BYTES: usize = 1_000_000;

async fn job(queue: &str, fifo: bool) -> Job {
    let mut decl = QueueDecl::new(queue);
    if fifo {
        decl = decl.attribute("FifoQueue", "true");
    }
    let config = Config::ephemeral().with_queue(decl);
    let app = crate::app::App::new(config, Arc::new(crate::clock::ManualClock::new(1)));
    app.declare_all().unwrap();
    let queue = app.sqs.registry.all().pop().unwrap();
    for n in 0..7 {
        let msg = NewMessage {
            body: format!("{n}{}", "x".repeat(BODY_BYTES)),
            group_id: fifo.then(|| "g".to_owned()),
            deduplication_id: fifo.then(|| format!("d-{n}")),
            sender_id: Arc::from("test"),
            ..NewMessage::default()
        };
        queue.send(msg, app.now()).unwrap();
    }
    let mapping = Mapping::new(
        "arn:aws:lambda:us-east-1:000000000000:function:f".into(),
        queue.arn(),
        Settings::default(),
        true,
        1,
    );
    Job {
        app: app.triggers.clone(),
        mapping,
        function: Function::new("f", Target::Url("http://127.0.0.1:9/".into())),
        queue,
        stats: Arc::default(),
        refused: std::sync::atomic::AtomicBool::new(false),
    }
}

async fn next(job: &Job, carry: &mut Vec<Record>) -> Vec<Record> {
    tokio::time::timeout(Duration::from_secs(5), gather(job, carry))
        .await
        .expect("a batch")
        .expect("the queue is there")
}

fn receive_count(r: &Record) -> &str {
    r.json["attributes"]["ApproximateReceiveCount"]
        .as_str()
        .unwrap()
}

fn event_bytes(batch: &[Record]) -> usize {
    event::event(batch.iter().map(Record::full).collect())
        .to_string()
        .len()
}

#[tokio::test]
async fn a_standard_batch_stops_at_the_payload_limit_and_the_rest_starts_the_next() {
    let job = job("orders", false).await;
    let mut carry = Vec::new();
    let first = next(&job, &mut carry).await;
    assert_eq!(first.len(), 6);
    assert!(event_bytes(&first) <= MAX_PAYLOAD_BYTES);
    assert_eq!(carry.len(), 1, "the seventh was received with them");
    let second = next(&job, &mut carry).await;
    assert!(carry.is_empty());
    assert_eq!(second.len(), 1);
    assert!(second[0].body.starts_with('6'));
    // Carried, not received again: its receive count is still its first.
    assert_eq!(receive_count(&second[0]), "1");
}

#[tokio::test]
async fn a_fifo_batch_makes_the_rest_visible_again_behind_its_group() {
    let job = job("orders.fifo", true).await;
    let mut carry = Vec::new();
    let first = next(&job, &mut carry).await;
    assert_eq!(first.len(), 6);
    assert!(carry.is_empty(), "released, not carried");
    // The group stays held while its first six are in flight; once they are deleted, the
    // seventh comes next, received a second time.
    for r in &first {
        delete(&job, r);
    }
    let second = next(&job, &mut carry).await;
    assert_eq!(second.len(), 1);
    assert!(second[0].body.starts_with('6'));
    assert_eq!(receive_count(&second[0]), "2");
}
