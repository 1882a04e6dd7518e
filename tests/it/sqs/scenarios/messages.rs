//! A standard queue's messages: send, receive and delete with their MD5s and attributes,
//! receives up to their maximum in send order, delays, and a purge.

use super::{error, refused, with_queue};
use crate::common::wire::{Message, Protocol, Receive, Value, Wire};
use crate::common::T0;

over_both_protocols!(
    send_receive_delete_with_md5s_and_attributes,
    a_receive_takes_up_to_its_maximum_in_send_order,
    delays_hide_messages_until_they_are_due,
    purge_removes_messages_in_flight_too,
    a_missing_queue_is_an_error_in_each_protocols_words,
);

async fn send_receive_delete_with_md5s_and_attributes(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[]).await;
    // Characters each encoding escapes its own way: CR, quotes, `&`, `<`, and non-ASCII.
    let body = "line1\r\n\"quoted\" & <tag> é";
    let message = Message::new(body)
        .attribute("Foo", Value::string("String", "Bar"))
        .attribute("count", Value::string("Number", "42"))
        .attribute("raw", Value::binary(&[0, 1, 0xff]));
    let sent = w.send(&url, &message).await.unwrap();
    assert_eq!(sent.md5_of_body, "2ebbd24721508144525110329e4491e7");
    let attributes_md5 = "a2406bb29de7b015ce4e4775e3cbed48";
    assert_eq!(sent.md5_of_attributes.as_deref(), Some(attributes_md5));
    assert_eq!(
        sent.sequence_number, None,
        "a standard queue numbers nothing"
    );
    assert_eq!(sent.message_id.len(), 36, "a UUID: {}", sent.message_id);

    let got = w.receive(&url, &Receive::default()).await.unwrap();
    assert_eq!(got.len(), 1);
    let m = &got[0];
    assert_eq!(m.message_id, sent.message_id);
    assert_eq!(
        (m.body.as_str(), m.md5_of_body.as_str()),
        (body, sent.md5_of_body.as_str())
    );
    assert_eq!(m.md5_of_attributes.as_deref(), Some(attributes_md5));
    assert_eq!(m.attributes, message.attributes.into_iter().collect());
    assert_eq!(m.system("ApproximateReceiveCount"), "1");
    assert_eq!(m.system("SentTimestamp"), T0.to_string());
    assert_eq!(m.system("ApproximateFirstReceiveTimestamp"), T0.to_string());
    let sender = m.system("SenderId");
    assert!(sender.starts_with("AIDA") && sender.len() == 21, "{sender}");
    assert_eq!(w.counts(&url).await, (0, 1, 0));

    w.delete(&url, &m.receipt_handle).await.unwrap();
    assert_eq!(w.counts(&url).await, (0, 0, 0));
    let garbage = refused(w.delete(&url, "garbage").await);
    let message = "The input receipt handle \"garbage\" is not a valid receipt handle.";
    assert_eq!(garbage, error(404, "ReceiptHandleIsInvalid", message));
}

async fn a_receive_takes_up_to_its_maximum_in_send_order(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[]).await;
    for i in 0..12 {
        w.send(&url, &Message::new(&format!("m{i}"))).await.unwrap();
    }
    let ten = w.receive(&url, &Receive::max(10)).await.unwrap();
    let want: Vec<_> = (0..10).map(|i| format!("m{i}")).collect();
    assert_eq!(Wire::bodies(&ten), want);
    let rest = w.receive(&url, &Receive::max(10)).await.unwrap();
    assert_eq!(Wire::bodies(&rest), ["m10", "m11"]);
    assert!(w.receive(&url, &Receive::max(10)).await.unwrap().is_empty());
    assert_eq!(w.counts(&url).await, (0, 12, 0));

    let eleven = refused(w.receive(&url, &Receive::max(11)).await);
    let message = "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.";
    assert_eq!(eleven, error(400, "InvalidParameterValue", message));
}

async fn delays_hide_messages_until_they_are_due(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[("DelaySeconds", "5")]).await;
    w.send(&url, &Message::new("queue's delay")).await.unwrap();
    w.send(&url, &Message::new("own delay").delay(20))
        .await
        .unwrap();
    w.send(&url, &Message::new("no delay").delay(0))
        .await
        .unwrap();
    assert_eq!(w.counts(&url).await, (1, 0, 2));
    w.advance(5);
    let got = w.receive(&url, &Receive::max(10)).await.unwrap();
    assert_eq!(Wire::bodies(&got), ["queue's delay", "no delay"]);
    assert_eq!(w.counts(&url).await, (0, 2, 1));
    w.advance(15);
    let got = w.receive(&url, &Receive::max(10)).await.unwrap();
    assert_eq!(Wire::bodies(&got), ["own delay"]);

    let late = refused(w.send(&url, &Message::new("x").delay(901)).await);
    let message = "Value 901 for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900.";
    assert_eq!(late, error(400, "InvalidParameterValue", message));
}

async fn purge_removes_messages_in_flight_too(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[]).await;
    for body in ["a", "b", "c"] {
        w.send(&url, &Message::new(body)).await.unwrap();
    }
    let held = w.receive(&url, &Receive::max(1)).await.unwrap();
    assert_eq!(w.counts(&url).await, (2, 1, 0));
    w.purge(&url).await.unwrap();
    assert_eq!(w.counts(&url).await, (0, 0, 0));
    w.advance(60);
    assert!(w.receive(&url, &Receive::max(10)).await.unwrap().is_empty());
    let gone = refused(w.change_visibility(&url, &held[0].receipt_handle, 5).await);
    assert_eq!(gone.code, "InvalidParameterValue", "{gone:?}");
}

async fn a_missing_queue_is_an_error_in_each_protocols_words(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "doomed", &[]).await;
    assert_eq!(w.get_queue_url("doomed").await.unwrap(), url);
    w.delete_queue(&url).await.unwrap();
    // AWS's Query answer still names the WSDL version; its JSON one does not.
    let message = w.either(
        "The specified queue does not exist.",
        "The specified queue does not exist for this wsdl version.",
    );
    let missing = error(400, "AWS.SimpleQueueService.NonExistentQueue", message);
    assert_eq!(refused(w.get_queue_url("doomed").await), missing);
    assert_eq!(refused(w.send(&url, &Message::new("x")).await), missing);
    assert_eq!(refused(w.receive(&url, &Receive::default()).await), missing);
}
