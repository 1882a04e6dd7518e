//! The seal, checked from outside: a registry rebuilt from nothing but the records a live one
//! reported equals the live one, after every kind of change the engine makes. A change that
//! skipped its record would leave the copy behind.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::json;

use super::*;
use crate::durable::codec;
use crate::sqs::engine::fixture::{key, message, receive_params as receive, Fixture};
use crate::sqs::engine::mutation::{Journal, Mutation};
use crate::sqs::engine::receipt::ReceiptKey;
use crate::sqs::engine::replay::Replayer;

/// Keeps every record as the durable log would write it.
#[derive(Debug, Default)]
struct Tape(Mutex<Vec<Vec<u8>>>);

impl Journal for Tape {
    fn record(&self, m: &Mutation<'_>) {
        let mut bytes = Vec::new();
        codec::encode(m, &mut bytes);
        self.0.lock().unwrap().push(bytes);
    }
}

/// Everything that tells one queue's state apart, in a comparable form.
fn picture(r: &Registry, now: Millis) -> Vec<String> {
    let mut queues = r.all();
    queues.sort_by_key(|q| q.uid);
    let mut out = Vec::new();
    for q in queues {
        let state = q.lock_settled(now);
        out.push(format!("{:?}", q.meta(&state)));
        out.extend(state.store().iter().map(|(seq, m)| format!("{seq} {m:?}")));
        let ledger = state.ledger_ref();
        out.extend(ledger.dedup().entries(q.uid).map(|d| format!("{d:?}")));
        out.extend(ledger.attempts().entries(q.uid).map(|a| format!("{a:?}")));
    }
    // A task's next step time is not stored (a restored task is due at once).
    let tasks = r.move_tasks(&key("dlq").arn(), 10);
    out.extend(tasks.iter().map(|t| {
        let (id, status, moved, total) = (t.task_id, t.status, t.moved, t.to_move);
        format!("{id} {status:?} {moved}/{total} {:?}", t.failure_reason)
    }));
    out
}

fn live_changes(f: &Fixture) {
    let r = &f.registry;
    let dlq = f.queue("dlq");
    let policy = json!({"deadLetterTargetArn": dlq.arn(), "maxReceiveCount": 1}).to_string();
    let src = f.create("src", &[("RedrivePolicy", &policy)], &[("team", "a")]);
    let fifo = f.queue("f.fifo");
    for n in 0..6 {
        src.send(message(&format!("m{n}"), None), 10).unwrap();
        fifo.send(message(&format!("f{n}"), Some("g")), 10).unwrap();
    }
    // A duplicate inside the window, a receive with an attempt id, a visibility change.
    fifo.send(message("f0", Some("g")), 11).unwrap();
    let got = r.receive(&fifo, &receive(2, Some("try")), 20).unwrap();
    fifo.delete_message(&got[0].receipt_handle, 21).unwrap();
    fifo.change_visibility(&got[1].receipt_handle, 0, 22)
        .unwrap();
    let got = r.receive(&src, &receive(3, None), 30).unwrap();
    src.delete_message(&got[0].receipt_handle, 31).unwrap();
    src.change_visibility(&got[1].receipt_handle, 100, 32)
        .unwrap();
    // Past maxReceiveCount: the third message is dead-lettered at its second receive.
    let _ = r.receive(&src, &receive(10, None), 70_000).unwrap();
    src.set_attributes(
        &BTreeMap::from([("DelaySeconds".into(), "5".into())]),
        70_001,
    )
    .unwrap();
    src.edit_tags(70_002, |t| t.insert("env".into(), "ci".into()));
    // A move task puts the dead letters back, one step at a time.
    let start = move_task::Start {
        source_arn: dlq.arn(),
        destination_arn: None,
        max_per_second: None,
        mover: None,
    };
    r.start_move_task(start, 70_003).unwrap();
    r.step_move_tasks(70_004);
    let other = f.queue("gone");
    other.send(message("x", None), 70_005).unwrap();
    r.purge(&other, 70_006).unwrap();
    r.delete(&key("gone"), 70_007).unwrap();
}

#[test]
fn a_registry_replayed_from_its_records_equals_the_live_one() {
    let tape = Arc::new(Tape::default());
    let live = Fixture::with(Registry::with_journal(
        false,
        ReceiptKey::from_secret(b"k"),
        tape.clone(),
    ));
    live_changes(&live);
    let live = live.registry;
    let copy = Registry::with_journal(
        false,
        ReceiptKey::from_secret(b"k"),
        Arc::new(Tape::default()),
    );
    let mut replayer = Replayer::new(&copy, 80_000);
    for bytes in tape.0.lock().unwrap().iter() {
        replayer.apply(codec::decode(bytes).unwrap()).unwrap();
    }
    let (live, copy) = (picture(&live, 80_000), picture(&copy, 80_000));
    assert!(live.len() > 20, "the scenario stored little: {live:#?}");
    assert_eq!(live, copy);
}
