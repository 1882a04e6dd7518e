//! Parked long polls are woken one per receivable message, not all at once (issue 17): a
//! send among a thousand parked polls must not cost a thousand receive attempts.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use crate::sqs::engine::message::NewMessage;
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;

use super::queue;

fn message(body: &str) -> NewMessage {
    NewMessage {
        body: body.into(),
        sender_id: Arc::from("s"),
        ..NewMessage::default()
    }
}

/// How many of the parked futures are ready now (a woken one stays ready).
fn ready(parked: &mut [Pin<Box<tokio::sync::futures::Notified<'_>>>]) -> usize {
    let mut cx = Context::from_waker(Waker::noop());
    let mut n = 0;
    for f in parked.iter_mut() {
        if f.as_mut().poll(&mut cx) == Poll::Ready(()) {
            n += 1;
        }
    }
    n
}

fn park(q: &Queue, n: usize) -> Vec<Pin<Box<tokio::sync::futures::Notified<'_>>>> {
    (0..n)
        .map(|_| {
            let mut f = Box::pin(q.notify.notified());
            f.as_mut().enable();
            f
        })
        .collect()
}

#[test]
fn each_send_wakes_one_parked_poll() {
    let registry = Registry::new();
    let q = queue(&registry, "wake-one", false);
    let mut parked = park(&q, 100);
    q.send(message("a"), 0).unwrap();
    assert_eq!(ready(&mut parked), 1);
    q.send(message("b"), 0).unwrap();
    q.send(message("c"), 0).unwrap();
    assert_eq!(ready(&mut parked), 3, "two more sends, two more woken");
}

#[test]
fn a_woken_poll_that_goes_away_hands_its_wake_up_on() {
    let registry = Registry::new();
    let q = queue(&registry, "hand-on", false);
    let mut parked = park(&q, 3);
    q.send(message("a"), 0).unwrap();
    // The first poll parked is the one woken; its client disconnects before it runs.
    let first = parked.remove(0);
    drop(first);
    assert_eq!(
        ready(&mut parked),
        1,
        "the wake-up moved to a poll still parked"
    );
}

#[test]
fn deleting_the_queue_wakes_every_parked_poll() {
    let registry = Registry::new();
    let q = queue(&registry, "wake-all", false);
    let mut parked = park(&q, 10);
    registry.delete(&q.key, 0).unwrap();
    assert_eq!(ready(&mut parked), 10);
}
