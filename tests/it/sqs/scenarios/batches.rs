//! Batches: each entry succeeds or fails on its own, beside the others, and the rules every
//! batch shares (at least one entry, at most ten, distinct ids) fail the whole request.

use super::{error, refused, with_queue};
use crate::common::wire::{Failed, Message, Protocol, Receive, Value};

over_both_protocols!(
    a_send_batch_answers_each_entry,
    the_whole_batch_is_refused_for_what_every_batch_shares,
    delete_and_change_visibility_batches_answer_each_entry,
);

fn failed(id: &str, code: &str, message: &str) -> Failed {
    Failed {
        id: id.to_owned(),
        code: code.to_owned(),
        message: message.to_owned(),
        sender_fault: true,
    }
}

async fn a_send_batch_answers_each_entry(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[]).await;
    let entries = [
        Message::new("good").attribute("Foo", Value::string("String", "Bar")),
        Message::new("bad").delay(901),
        Message::new("later").id("l-1").delay(30),
    ];
    let batch = w.send_batch(&url, &entries).await.unwrap();
    let ids: Vec<_> = batch.successful.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["good", "l-1"]);
    let good = &batch.successful[0];
    assert_eq!(good.md5_of_body, "755f85c2723bb39381c7379a604160d8");
    let attributes_md5 = Some("ae7155c6026991b6d54b11589678bf9c");
    assert_eq!(good.md5_of_attributes.as_deref(), attributes_md5);
    assert_eq!(batch.successful[1].md5_of_attributes, None);
    let message = "Value 901 for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900.";
    assert_eq!(
        batch.failed,
        [failed("bad", "InvalidParameterValue", message)]
    );
    assert_eq!(w.counts(&url).await, (1, 0, 1));

    let got = w.receive(&url, &Receive::max(10)).await.unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].message_id, good.message_id);
    assert_eq!(got[0].md5_of_attributes.as_deref(), attributes_md5);
}

async fn the_whole_batch_is_refused_for_what_every_batch_shares(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[]).await;
    let eleven: Vec<_> = (0..11).map(|i| Message::new(&format!("m{i}"))).collect();
    let message = "Maximum number of entries per request are 10. You have sent 11.";
    let many = error(
        400,
        "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
        message,
    );
    assert_eq!(refused(w.send_batch(&url, &eleven).await), many);

    let twins = [Message::new("a").id("same"), Message::new("b").id("same")];
    let twins = refused(w.send_batch(&url, &twins).await);
    let message = "Id same repeated.";
    let code = "AWS.SimpleQueueService.BatchEntryIdsNotDistinct";
    assert_eq!(twins, error(400, code, message));

    let spaced = refused(
        w.send_batch(&url, &[Message::new("a").id("no spaces")])
            .await,
    );
    assert_eq!(spaced.code, "AWS.SimpleQueueService.InvalidBatchEntryId");

    let empty = refused(w.delete_batch(&url, &[]).await);
    assert_eq!(empty.code, "AWS.SimpleQueueService.EmptyBatchRequest");
    assert_eq!(
        w.counts(&url).await,
        (0, 0, 0),
        "nothing of a refused batch is sent"
    );
}

async fn delete_and_change_visibility_batches_answer_each_entry(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[("VisibilityTimeout", "30")]).await;
    for body in ["a", "b", "c"] {
        w.send(&url, &Message::new(body)).await.unwrap();
    }
    let got = w.receive(&url, &Receive::max(3)).await.unwrap();
    let handle = |i: usize| got[i].receipt_handle.as_str();
    let to_change = [
        ("now", handle(0), 0),
        ("later", handle(1), 600),
        ("bad", "garbage", 0),
    ];
    let changed = w.change_visibility_batch(&url, &to_change).await.unwrap();
    assert_eq!(changed.successful, ["now", "later"]);
    let message = "The input receipt handle \"garbage\" is not a valid receipt handle.";
    assert_eq!(
        changed.failed,
        [failed("bad", "ReceiptHandleIsInvalid", message)]
    );
    assert_eq!(w.counts(&url).await, (1, 2, 0));

    let to_delete = [("x", handle(1)), ("y", handle(2)), ("z", "nope")];
    let deleted = w.delete_batch(&url, &to_delete).await.unwrap();
    assert_eq!(deleted.successful, ["x", "y"]);
    let message = "The input receipt handle \"nope\" is not a valid receipt handle.";
    assert_eq!(
        deleted.failed,
        [failed("z", "ReceiptHandleIsInvalid", message)]
    );
    assert_eq!(w.counts(&url).await, (1, 0, 0));
}
