//! Dead-letter queues: a message received more often than the source's maxReceiveCount moves
//! at its next receive, keeping its id, body and attributes, and the source is listed.

use super::with_queue;
use crate::common::wire::{Message, Protocol, Receive, Value};
use crate::common::T0;

over_both_protocols!(a_message_received_too_often_moves_to_the_dead_letter_queue);

async fn a_message_received_too_often_moves_to_the_dead_letter_queue(protocol: Protocol) {
    let (w, dlq) = with_queue(protocol, "orders-dlq", &[]).await;
    let policy = r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:orders-dlq","maxReceiveCount":2}"#;
    let attributes = [("VisibilityTimeout", "30"), ("RedrivePolicy", policy)];
    let orders = w.create_queue("orders", &attributes).await.unwrap();
    let canonical = w.get_attributes(&orders, &["RedrivePolicy"]).await.unwrap();
    assert_eq!(canonical["RedrivePolicy"], policy);

    let poison = Message::new("poison").attribute("kind", Value::string("String", "bad"));
    let sent = w.send(&orders, &poison).await.unwrap();
    for count in ["1", "2"] {
        let got = w.receive(&orders, &Receive::default()).await.unwrap();
        assert_eq!(got[0].system("ApproximateReceiveCount"), count);
        w.advance(30);
    }
    assert!(w
        .receive(&orders, &Receive::max(10))
        .await
        .unwrap()
        .is_empty());
    assert_eq!(w.counts(&orders).await, (0, 0, 0));
    assert_eq!(w.counts(&dlq).await, (1, 0, 0));

    let moved = w
        .receive(&dlq, &Receive::default())
        .await
        .unwrap()
        .remove(0);
    assert_eq!(moved.message_id, sent.message_id);
    assert_eq!(moved.body, "poison");
    assert_eq!(moved.md5_of_attributes, sent.md5_of_attributes);
    assert_eq!(moved.attributes["kind"], Value::string("String", "bad"));
    let source = "arn:aws:sqs:us-east-1:000000000000:orders";
    assert_eq!(moved.system("DeadLetterQueueSourceArn"), source);
    assert_eq!(moved.system("ApproximateReceiveCount"), "3");
    assert_eq!(moved.system("SentTimestamp"), T0.to_string());
    assert_eq!(w.dead_letter_sources(&dlq).await.unwrap(), [orders]);
}
