//! FIFO queues: order within a group and a group held while a message of it is in flight,
//! sequence numbers, deduplication by id and by content within the five-minute window,
//! retried receives, and the parameters a FIFO send must and must not carry.

use super::{error, refused, with_queue};
use crate::common::wire::{Message, Protocol, Receive, Wire};

over_both_protocols!(
    a_group_is_served_in_order_and_held_while_in_flight,
    duplicates_within_five_minutes_are_the_first_send,
    a_retried_receive_gets_the_same_messages,
    a_fifo_send_needs_a_group_and_a_deduplication_id,
);

fn in_group(body: &str, group: &str) -> Message {
    Message::new(body).group(group).dedup(body)
}

async fn a_group_is_served_in_order_and_held_while_in_flight(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q.fifo", &[("FifoQueue", "true")]).await;
    let mut numbers = Vec::new();
    for (body, group) in [("a1", "a"), ("a2", "a"), ("b1", "b"), ("a3", "a")] {
        let sent = w.send(&url, &in_group(body, group)).await.unwrap();
        let number = sent.sequence_number.expect("a FIFO send is numbered");
        assert_eq!(number.len(), 20, "{number}");
        numbers.push(number.parse::<u128>().unwrap());
    }
    assert!(numbers.windows(2).all(|n| n[0] < n[1]), "{numbers:?}");

    let a = w.receive(&url, &Receive::max(2)).await.unwrap();
    assert_eq!(Wire::bodies(&a), ["a1", "a2"]);
    assert_eq!(a[0].system("MessageGroupId"), "a");
    assert_eq!(a[0].system("MessageDeduplicationId"), "a1");
    assert_eq!(a[0].system("SequenceNumber"), numbers[0].to_string());
    // Group a is in flight, so only b is served, however many are asked for.
    let b = w.receive(&url, &Receive::max(10)).await.unwrap();
    assert_eq!(Wire::bodies(&b), ["b1"]);
    assert!(w.receive(&url, &Receive::max(10)).await.unwrap().is_empty());
    for m in &a {
        w.delete(&url, &m.receipt_handle).await.unwrap();
    }
    let rest = w.receive(&url, &Receive::max(10)).await.unwrap();
    assert_eq!(Wire::bodies(&rest), ["a3"]);
}

async fn duplicates_within_five_minutes_are_the_first_send(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q.fifo", &[("FifoQueue", "true")]).await;
    let first = w.send(&url, &in_group("same", "g")).await.unwrap();
    w.advance(299);
    let duplicate = w.send(&url, &in_group("same", "g")).await.unwrap();
    assert_eq!(duplicate, first, "the same id, MD5 and sequence number");
    assert_eq!(w.counts(&url).await, (1, 0, 0));
    w.advance(1);
    let later = w.send(&url, &in_group("same", "g")).await.unwrap();
    assert_ne!(later.message_id, first.message_id);
    assert_eq!(w.counts(&url).await, (2, 0, 0));

    let attributes = [("FifoQueue", "true"), ("ContentBasedDeduplication", "true")];
    let cbd = w.create_queue("cbd.fifo", &attributes).await.unwrap();
    let one = w
        .send(&cbd, &Message::new("body").group("g"))
        .await
        .unwrap();
    let again = w
        .send(&cbd, &Message::new("body").group("h"))
        .await
        .unwrap();
    assert_eq!(
        again.message_id, one.message_id,
        "the body is the id, whatever the group"
    );
    let got = w.receive(&cbd, &Receive::max(10)).await.unwrap();
    assert_eq!(Wire::bodies(&got), ["body"]);
    // SHA-256 of the body, in hex.
    let id = "230d8358dc8e8890b4c58deeb62912ee2f20357ae92a5cc861b98e68fe31acb5";
    assert_eq!(got[0].system("MessageDeduplicationId"), id);
}

async fn a_retried_receive_gets_the_same_messages(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q.fifo", &[("FifoQueue", "true")]).await;
    w.send(&url, &in_group("m1", "g")).await.unwrap();
    w.send(&url, &in_group("m2", "h")).await.unwrap();
    let first = w
        .receive(&url, &Receive::max(10).attempt("try-1"))
        .await
        .unwrap();
    assert_eq!(Wire::bodies(&first), ["m1", "m2"]);
    let retry = w
        .receive(&url, &Receive::max(10).attempt("try-1"))
        .await
        .unwrap();
    assert_eq!(retry, first, "the same messages and handles");
    let other = w
        .receive(&url, &Receive::max(10).attempt("try-2"))
        .await
        .unwrap();
    assert!(other.is_empty());
}

async fn a_fifo_send_needs_a_group_and_a_deduplication_id(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q.fifo", &[("FifoQueue", "true")]).await;
    let no_group = refused(w.send(&url, &Message::new("x").dedup("d")).await);
    let message = "The request must contain the parameter MessageGroupId.";
    assert_eq!(no_group, error(400, "MissingParameter", message));
    let no_dedup = refused(w.send(&url, &Message::new("x").group("g")).await);
    let message = "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly";
    assert_eq!(no_dedup, error(400, "InvalidParameterValue", message));
    let delayed = refused(w.send(&url, &in_group("x", "g").delay(2)).await);
    let message = "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.";
    assert_eq!(delayed, error(400, "InvalidParameterValue", message));
    assert_eq!(w.counts(&url).await, (0, 0, 0));
}
