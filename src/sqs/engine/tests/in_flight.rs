//! SQS's limit of 120,000 in-flight messages per queue, driven through the engine directly
//! (sending that many messages over HTTP would only measure the test).

use std::sync::Arc;

use crate::sqs::engine::delivery::{ReceiveParams, MAX_IN_FLIGHT};
use crate::sqs::engine::message::NewMessage;
use crate::sqs::engine::Registry;
use crate::sqs::error::ErrorKind;

fn fill(fifo: bool) -> (Registry, Arc<crate::sqs::engine::queue::Queue>) {
    let registry = Registry::new();
    let queue = super::queue(&registry, if fifo { "q.fifo" } else { "q" }, fifo);
    for i in 0..=MAX_IN_FLIGHT {
        let group = if fifo { Some(format!("g{i}")) } else { None };
        queue
            .send(
                NewMessage {
                    body: "m".into(),
                    group_id: group,
                    deduplication_id: fifo.then(|| i.to_string()),
                    sender_id: Arc::from("s"),
                    ..NewMessage::default()
                },
                0,
            )
            .unwrap();
    }
    let take_all = ReceiveParams {
        max: 10,
        ..ReceiveParams::default()
    };
    let mut held = 0;
    while held < MAX_IN_FLIGHT {
        held += registry.receive(&queue, &take_all, 0).unwrap().len();
    }
    (registry, queue)
}

#[test]
fn standard_short_poll_over_the_limit_is_over_limit_and_loses_nothing() {
    let (registry, queue) = fill(false);
    let short = ReceiveParams {
        max: 10,
        short_poll: true,
        ..ReceiveParams::default()
    };
    let err = registry.receive(&queue, &short, 0).unwrap_err();
    assert_eq!(err.kind, ErrorKind::OverLimit);
    let long = ReceiveParams {
        max: 10,
        short_poll: false,
        ..ReceiveParams::default()
    };
    assert!(registry.receive(&queue, &long, 0).unwrap().is_empty());
    let depth = queue.depth(0);
    assert_eq!((depth.in_flight, depth.visible), (MAX_IN_FLIGHT, 1));
}

#[test]
fn fifo_over_the_limit_returns_nothing() {
    let (registry, queue) = fill(true);
    let short = ReceiveParams {
        max: 10,
        short_poll: true,
        ..ReceiveParams::default()
    };
    assert!(registry.receive(&queue, &short, 0).unwrap().is_empty());
    assert_eq!(queue.depth(0).visible, 1);
}
