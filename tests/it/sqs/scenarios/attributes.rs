//! A queue's attributes: those it is created with, SQS's defaults, a change and its
//! timestamp, the values refused, and CreateQueue answering the same URL only for the same
//! attributes.

use super::{error, refused, with_queue};
use crate::common::wire::Protocol;
use crate::common::T0;

over_both_protocols!(
    attributes_are_read_changed_and_validated,
    create_queue_is_idempotent_for_the_same_attributes_only,
);

async fn attributes_are_read_changed_and_validated(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "q", &[("VisibilityTimeout", "45")]).await;
    let all = w.get_attributes(&url, &["All"]).await.unwrap();
    let created = (T0 / 1000).to_string();
    for (name, value) in [
        ("VisibilityTimeout", "45"),
        ("MaximumMessageSize", "1048576"),
        ("MessageRetentionPeriod", "345600"),
        ("DelaySeconds", "0"),
        ("ReceiveMessageWaitTimeSeconds", "0"),
        ("ApproximateNumberOfMessages", "0"),
        ("QueueArn", "arn:aws:sqs:us-east-1:000000000000:q"),
        ("CreatedTimestamp", created.as_str()),
        ("LastModifiedTimestamp", created.as_str()),
        ("SqsManagedSseEnabled", "true"),
    ] {
        assert_eq!(all.get(name).map(String::as_str), Some(value), "{name}");
    }
    assert_eq!(all.len(), 12, "{all:?}");
    assert!(!all.contains_key("Policy"), "listed only once set");

    w.advance(10);
    let change = [
        ("DelaySeconds", "7"),
        ("ReceiveMessageWaitTimeSeconds", "20"),
    ];
    w.set_attributes(&url, &change).await.unwrap();
    let names = [
        "DelaySeconds",
        "ReceiveMessageWaitTimeSeconds",
        "LastModifiedTimestamp",
    ];
    let read = w.get_attributes(&url, &names).await.unwrap();
    let modified = (T0 / 1000 + 10).to_string();
    let want = [
        ("DelaySeconds", "7"),
        ("ReceiveMessageWaitTimeSeconds", "20"),
    ];
    let want = want
        .into_iter()
        .chain([("LastModifiedTimestamp", modified.as_str())]);
    let want = want.map(|(k, v)| (k.to_owned(), v.to_owned())).collect();
    assert_eq!(read, want);

    let too_late = refused(w.set_attributes(&url, &[("DelaySeconds", "901")]).await);
    let message = "Invalid value for the parameter DelaySeconds.";
    assert_eq!(too_late, error(400, "InvalidAttributeValue", message));
    let unknown = refused(w.get_attributes(&url, &["Nope"]).await);
    let message = "Unknown Attribute Nope.";
    assert_eq!(unknown, error(400, "InvalidAttributeName", message));
}

async fn create_queue_is_idempotent_for_the_same_attributes_only(protocol: Protocol) {
    let (w, url) = with_queue(protocol, "orders", &[("VisibilityTimeout", "45")]).await;
    assert!(url.ends_with("/000000000000/orders"), "{url}");
    let again = w
        .create_queue("orders", &[("VisibilityTimeout", "45")])
        .await;
    assert_eq!(again.unwrap(), url);
    let other = refused(
        w.create_queue("orders", &[("VisibilityTimeout", "46")])
            .await,
    );
    let message = "A queue already exists with the same name and a different value for attribute VisibilityTimeout";
    assert_eq!(other, error(400, "QueueAlreadyExists", message));
    let bad_name = refused(w.create_queue("has space", &[]).await);
    assert_eq!(bad_name.code, "InvalidParameterValue");
    let short = refused(
        w.create_queue("q", &[("MessageRetentionPeriod", "59")])
            .await,
    );
    assert_eq!(short.code, "InvalidAttributeValue");
}
