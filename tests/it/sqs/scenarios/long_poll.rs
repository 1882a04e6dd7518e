//! Long polling: a receive that waits is answered as soon as a message can be had (sent, or
//! hidden and now visible again) and empty at its deadline, never before, on the server clock.

use std::time::Duration;

use super::with_queue;
use crate::common::wire::{Message, Protocol, Receive, Wire};

over_both_protocols!(
    a_waiting_receive_is_answered_by_the_next_message,
    a_waiting_receive_ends_empty_at_its_deadline_and_not_before,
);

/// Receives with `receive` once it is parked on queue `name`, while `then` runs; panics if the
/// receive is not answered within 5 s of wall time after that.
async fn parked<F: std::future::Future<Output = ()>>(
    w: &Wire,
    url: &str,
    receive: Receive,
    then: F,
) -> Vec<String> {
    let name = url.rsplit('/').next().unwrap();
    // Boxed: the SDK's request futures are large.
    let receiving = Box::pin(tokio::time::timeout(
        Duration::from_secs(5),
        w.receive(url, &receive),
    ));
    let act = Box::pin(async {
        w.wait_parked(name, 1).await;
        then.await;
    });
    let (got, ()) = tokio::join!(receiving, act);
    let got = got.expect("the receive was answered").unwrap();
    Wire::bodies(&got).into_iter().map(str::to_owned).collect()
}

async fn a_waiting_receive_is_answered_by_the_next_message(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[("VisibilityTimeout", "30")]).await;
    let sent = parked(&w, &url, Receive::max(10).wait(20).visibility(5), async {
        w.send(&url, &Message::new("wake")).await.unwrap();
    });
    assert_eq!(sent.await, ["wake"]);
    // The message is in flight for 5 s; its visibility ending answers the next wait.
    let visible = parked(&w, &url, Receive::max(10).wait(20), async {
        w.advance(5);
    });
    assert_eq!(visible.await, ["wake"]);
}

async fn a_waiting_receive_ends_empty_at_its_deadline_and_not_before(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[("ReceiveMessageWaitTimeSeconds", "20")]).await;
    // No WaitTimeSeconds: the queue's 20 s apply, so at 19 s the receive still waits.
    let late = parked(&w, &url, Receive::default(), async {
        w.advance(19);
        w.send(&url, &Message::new("late")).await.unwrap();
    });
    assert_eq!(late.await, ["late"]);
    let empty = parked(&w, &url, Receive::default().wait(5), async {
        w.advance(5);
    });
    assert!(empty.await.is_empty());
}
