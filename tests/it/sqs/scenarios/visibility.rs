//! Visibility: a received message hides for the queue's timeout (or the receive's), comes back
//! with a new handle and a higher receive count, and ChangeMessageVisibility moves its deadline.

use super::{error, refused, with_queue};
use crate::common::wire::{Message, Protocol, Receive};
use crate::common::T0;

over_both_protocols!(
    an_unfinished_message_comes_back_with_a_new_handle,
    change_visibility_moves_the_deadline_either_way,
);

async fn an_unfinished_message_comes_back_with_a_new_handle(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[("VisibilityTimeout", "30")]).await;
    let sent = w.send(&url, &Message::new("work")).await.unwrap();
    let first = w
        .receive(&url, &Receive::default())
        .await
        .unwrap()
        .remove(0);
    w.advance(29);
    assert!(w
        .receive(&url, &Receive::default())
        .await
        .unwrap()
        .is_empty());
    assert_eq!(w.counts(&url).await, (0, 1, 0));
    w.advance(1);
    let again = w
        .receive(&url, &Receive::default())
        .await
        .unwrap()
        .remove(0);
    assert_eq!(again.message_id, sent.message_id);
    assert_ne!(again.receipt_handle, first.receipt_handle);
    assert_eq!(again.system("ApproximateReceiveCount"), "2");
    assert_eq!(
        again.system("ApproximateFirstReceiveTimestamp"),
        T0.to_string()
    );
    // On a standard queue an older handle still deletes the message.
    w.delete(&url, &first.receipt_handle).await.unwrap();
    assert_eq!(w.counts(&url).await, (0, 0, 0));
}

async fn change_visibility_moves_the_deadline_either_way(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[("VisibilityTimeout", "30")]).await;
    w.send(&url, &Message::new("m")).await.unwrap();
    let held = Receive::default().visibility(10);
    assert_eq!(w.receive(&url, &held).await.unwrap().len(), 1);
    w.advance(9);
    assert!(w
        .receive(&url, &Receive::default())
        .await
        .unwrap()
        .is_empty());
    w.advance(1);
    let m = w
        .receive(&url, &Receive::default())
        .await
        .unwrap()
        .remove(0);
    // The queue's 30 s this time: extended to 100 s, then released at once.
    w.change_visibility(&url, &m.receipt_handle, 100)
        .await
        .unwrap();
    w.advance(99);
    assert!(w
        .receive(&url, &Receive::default())
        .await
        .unwrap()
        .is_empty());
    w.change_visibility(&url, &m.receipt_handle, 0)
        .await
        .unwrap();
    let back = w
        .receive(&url, &Receive::default())
        .await
        .unwrap()
        .remove(0);
    assert_eq!(back.system("ApproximateReceiveCount"), "3");

    let too_long = refused(
        w.change_visibility(&url, &back.receipt_handle, 43_201)
            .await,
    );
    let message = "Value 43201 for parameter VisibilityTimeout is invalid. Reason: Must be between 0 and 43200, if provided.";
    assert_eq!(too_long, error(400, "InvalidParameterValue", message));
    w.delete(&url, &back.receipt_handle).await.unwrap();
    let deleted = refused(w.change_visibility(&url, &back.receipt_handle, 5).await);
    let message = format!(
        "Value {} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.",
        back.receipt_handle
    );
    assert_eq!(deleted, error(400, "InvalidParameterValue", &message));
}
