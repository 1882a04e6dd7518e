//! What a publish carries into a queue and what it is refused for, as AWS records it: the
//! FIFO topic's unsigned envelope and the queue's own sequence numbers, the X-Ray trace
//! header, a standard topic's MessageGroupId, message attribute refusals (Publish and
//! PublishBatch alike) and a FIFO subscription's dead-letter queue. Sources: LocalStack's
//! AWS-validated snapshots (`tests/aws/services/sns/test_sns.snapshot.json`), keys per case.

use aws_sdk_sns::primitives::Blob;
use aws_sdk_sns::types::{MessageAttributeValue, PublishBatchRequestEntry};
use aws_sdk_sqs::types::MessageSystemAttributeName;
use serde_json::Value;

use crate::common::sns::start;
use crate::common::{code, message};

#[tokio::test]
async fn a_fifo_topics_envelope_is_unsigned_and_the_queue_numbers_its_messages() {
    let s = start().await;
    let attrs = [("FifoTopic", "true"), ("ContentBasedDeduplication", "true")];
    let topic = s.topic("ordered.fifo", &attrs).await;
    let (url, queue) = s.queue("ordered.fifo", &[("FifoQueue", "true")]).await;
    s.subscribe(&topic, &queue, &[]).await;
    let call = s
        .sns
        .publish()
        .topic_arn(&topic)
        .message("Test")
        .message_group_id("g");
    let published = call.send().await.unwrap();
    // test_message_to_fifo_sqs[False]: messages
    let got = s.t.client.receive_message().queue_url(&url);
    let got = got.message_system_attribute_names(MessageSystemAttributeName::All);
    let got = got.send().await.unwrap().messages.unwrap();
    let envelope: Value = serde_json::from_str(got[0].body().unwrap()).unwrap();
    let keys: Vec<&str> = envelope
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let want = [
        "Type",
        "MessageId",
        "SequenceNumber",
        "TopicArn",
        "Message",
        "Timestamp",
        "UnsubscribeURL",
    ];
    assert_eq!(keys, want);
    let topic_seq = published.sequence_number.unwrap();
    assert_eq!(envelope["SequenceNumber"], topic_seq.as_str());
    let attributes = got[0].attributes.as_ref().unwrap();
    let queue_seq = &attributes[&MessageSystemAttributeName::SequenceNumber];
    assert_ne!(
        queue_seq, &topic_seq,
        "the queue numbers its messages itself"
    );
    assert_eq!(attributes[&MessageSystemAttributeName::MessageGroupId], "g");
    // The content-based id is the SHA-256 of the message (sha256("Test")).
    let dedup = &attributes[&MessageSystemAttributeName::MessageDeduplicationId];
    assert_eq!(
        dedup,
        "532eaabd9574880dbf76b9b8cc00832c20a6ec113d682299550d7a6e0f345e25"
    );
}

#[tokio::test]
async fn the_trace_header_and_a_standard_topics_group_reach_the_queue() {
    let s = start().await;
    let topic = s.topic("traced", &[]).await;
    let (url, queue) = s.queue("traced-q", &[]).await;
    s.subscribe(&topic, &queue, &[]).await;
    // test_publish_sqs_from_sns_with_xray_propagation: the header, identical.
    let trace = "Root=1-3152b799-8954dae64eda91bc9a23a7e8;Parent=7fa8c0f79203be72;Sampled=1";
    let body = format!(
        "Action=Publish&Message=traced&MessageGroupId=my-group-id-1&TopicArn={}",
        form_urlencoded::byte_serialize(topic.as_bytes()).collect::<String>()
    );
    let headers = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("x-amzn-trace-id", trace),
    ];
    let got = s.t.raw("POST", "/", &headers, &body).await;
    assert_eq!(got.status, 200, "{}", got.body);
    let got = s.t.client.receive_message().queue_url(&url);
    let got = got.message_system_attribute_names(MessageSystemAttributeName::All);
    let got = got.send().await.unwrap().messages.unwrap();
    let attributes = got[0].attributes.as_ref().unwrap();
    assert_eq!(
        attributes[&MessageSystemAttributeName::AwsTraceHeader],
        trace
    );
    // test_publish_message_group_id: the group reaches the standard queue's message.
    assert_eq!(
        attributes[&MessageSystemAttributeName::MessageGroupId],
        "my-group-id-1"
    );
    let envelope: Value = serde_json::from_str(got[0].body().unwrap()).unwrap();
    assert!(envelope.get("MessageGroupId").is_none() && envelope.get("Signature").is_some());
}

fn text(data_type: &str, value: Option<&str>) -> MessageAttributeValue {
    let b = MessageAttributeValue::builder().data_type(data_type);
    b.set_string_value(value.map(str::to_owned))
        .build()
        .unwrap()
}

fn binary(data_type: &str, value: &[u8]) -> MessageAttributeValue {
    let b = MessageAttributeValue::builder().data_type(data_type);
    b.binary_value(Blob::new(value)).build().unwrap()
}

#[tokio::test]
async fn message_attributes_are_refused_as_aws_refuses_them() {
    let s = start().await;
    let topic = s.topic("attributed", &[]).await;
    let not_empty = "The message attribute 'attr1' must contain non-empty message attribute value for message attribute type";
    let bad_type = "The message attribute 'attr1' has an invalid message attribute type, the set of supported type prefixes is Binary, Number, and String.";
    let long: &'static str = "a".repeat(257).leak();
    // test_empty_or_wrong_message_attributes, test_message_attributes_prefixes
    let cases: Vec<(&str, MessageAttributeValue, String)> = vec![
        ("attr1", text("String", Some("")), format!("{not_empty} 'String'.")),
        ("attr1", text("String", None), format!("{not_empty} 'String'.")),
        ("attr1", binary("Binary", b""), format!("{not_empty} 'Binary'.")),
        ("attr1", binary("String", b"x"), "The message attribute 'attr1' with type 'String' must use field 'String'.".into()),
        ("attr1", binary("Number", b"x"), "The message attribute 'attr1' with type 'Number' must use field 'String'.".into()),
        ("attr1", text("Binary", Some("x")), "The message attribute 'attr1' with type 'Binary' must use field 'Binary'.".into()),
        ("attr1", text("InvalidType", Some("x")), bad_type.into()),
        ("attr1", text("String.", Some("x")), bad_type.into()),
        ("attr1", text("Stringprefixed", Some("x")), bad_type.into()),
        (long, text("String", Some("x")), "Length of message attribute name must be less than 256 bytes.".into()),
        ("a^*?", text("String", Some("x")), "Invalid non-alphanumeric character '#x5E' was found in the message attribute name. Can only include alphanumeric characters, hyphens, underscores, or dots.".into()),
        (".abc", text("String", Some("x")), "Invalid message attribute name starting with character '.' was found.".into()),
        ("abc.", text("String", Some("x")), "Invalid message attribute name ending with character '.' was found.".into()),
        ("a..bc", text("String", Some("x")), "Message attribute name can not have successive '.' character.".into()),
    ];
    for (name, value, want) in cases {
        let call = s.sns.publish().topic_arn(&topic).message("m");
        let err = call
            .message_attributes(name, value.clone())
            .send()
            .await
            .unwrap_err();
        let got = (code(&err), message(&err));
        assert_eq!(
            got,
            ("ParameterValueInvalid".to_owned(), want.clone()),
            "{name}"
        );
        // The batch-* keys: the same refusal, for the whole request.
        let entry = |id: &str| PublishBatchRequestEntry::builder().id(id).message("m");
        let bad = entry("1").message_attributes(name, value).build().unwrap();
        let call = s
            .sns
            .publish_batch()
            .topic_arn(&topic)
            .publish_batch_request_entries(bad);
        let call = call.publish_batch_request_entries(entry("3").build().unwrap());
        let err = call.send().await.unwrap_err();
        assert_eq!(
            (code(&err), message(&err)),
            ("ParameterValueInvalid".to_owned(), want),
            "{name}"
        );
    }
    // "String.prefixed" and "String.  prefixed." are custom types SNS takes.
    for data_type in ["String.prefixed", "String.  prefixed."] {
        let call = s.sns.publish().topic_arn(&topic).message("m");
        call.message_attributes("attr1", text(data_type, Some("x")))
            .send()
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn a_missing_data_type_is_the_validation_layers() {
    let s = start().await;
    let topic = s.topic("untyped", &[]).await;
    let arn: String = form_urlencoded::byte_serialize(topic.as_bytes()).collect();
    let headers = [("content-type", "application/x-www-form-urlencoded")];
    for (body, path) in [
        (
            format!("Action=Publish&TopicArn={arn}&Message=m&MessageAttributes.entry.1.Name=attr1&MessageAttributes.entry.1.Value.StringValue=x"),
            "messageAttributes.attr1.member.dataType",
        ),
        (
            format!("Action=PublishBatch&TopicArn={arn}&PublishBatchRequestEntries.member.1.Id=1&PublishBatchRequestEntries.member.1.Message=m&PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Name=attr1&PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.StringValue=x"),
            "publishBatchRequestEntries.1.member.messageAttributes.attr1.member.dataType",
        ),
    ] {
        let got = s.t.raw("POST", "/", &headers, &body).await;
        assert_eq!(got.status, 400, "{}", got.body);
        assert!(got.body.contains("<Code>ValidationError</Code>"), "{}", got.body);
        let want = format!("<Message>1 validation error detected: Value null at &apos;{path}&apos; failed to satisfy constraint: Member must not be null</Message>");
        let alt = want.replace("&apos;", "'");
        assert!(got.body.contains(&want) || got.body.contains(&alt), "{}", got.body);
    }
}

#[tokio::test]
async fn a_fifo_subscriptions_dead_letter_queue_is_fifo() {
    let s = start().await;
    let attrs = [("FifoTopic", "true"), ("ContentBasedDeduplication", "true")];
    let topic = s.topic("dlq.fifo", &attrs).await;
    let (_, fifo_queue) = s.queue("dlq-sub.fifo", &[("FifoQueue", "true")]).await;
    let (_, standard_queue) = s.queue("dlq-sub", &[]).await;
    let (_, standard_dlq) = s.queue("dlq-standard", &[]).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{standard_dlq}"}}"#);
    // test_validations_for_fifo: regular-queue-for-dlq-of-fifo-topic
    let sub = s.subscribe(&topic, &fifo_queue, &[]).await;
    let call = s.sns.set_subscription_attributes().subscription_arn(&sub);
    let err = call
        .attribute_name("RedrivePolicy")
        .attribute_value(&redrive)
        .send()
        .await
        .unwrap_err();
    let want = "Invalid parameter: RedrivePolicy: must use a FIFO queue as DLQ for a FIFO Subscription to a FIFO Topic.";
    assert_eq!(
        (code(&err), message(&err)),
        ("InvalidParameter".to_owned(), want.to_owned())
    );
    // A standard queue's subscription to the FIFO topic may dead-letter into a standard queue.
    s.subscribe(&topic, &standard_queue, &[("RedrivePolicy", &redrive)])
        .await;
}
