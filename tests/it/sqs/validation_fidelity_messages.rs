//! Message and batch validation as recorded from real SQS (issue 13, items 3 and 4), through
//! the real SDK and, where the wire shape is the point, raw JSON and Query: FIFO batch entries,
//! batch entry ids, attribute names and values, the trace header, the Failed member.

use crate::common::{code, expect_code_for, message, TestServer};
use aws_sdk_sqs::types::{
    MessageAttributeValue, MessageSystemAttributeName, SendMessageBatchRequestEntry,
};

fn string_attr(value: &str) -> MessageAttributeValue {
    MessageAttributeValue::builder()
        .data_type("String")
        .string_value(value)
        .build()
        .unwrap()
}

fn entry(id: &str, group: Option<&str>, dedup: Option<&str>) -> SendMessageBatchRequestEntry {
    SendMessageBatchRequestEntry::builder()
        .id(id)
        .message_body("body")
        .set_message_group_id(group.map(str::to_owned))
        .set_message_deduplication_id(dedup.map(str::to_owned))
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_fifo_batch_entry_without_group_or_dedup_fails_the_whole_batch() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with("b.fifo", &[("FifoQueue", "true")])
        .await;
    let cases = [
        (
            entry("b", None, Some("d2")),
            "The request must contain the parameter MessageGroupId.",
        ),
        (
            entry("b", Some("g"), None),
            "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
        ),
    ];
    for (bad, want) in cases {
        let err = t
            .client
            .send_message_batch()
            .queue_url(&url)
            .entries(entry("a", Some("g"), Some("d1")))
            .entries(bad)
            .send()
            .await
            .unwrap_err();
        assert_eq!(
            (code(&err).as_str(), message(&err).as_str()),
            ("InvalidParameterValue", want)
        );
    }
    // Nothing of a refused batch was sent, not even its good entry.
    assert_eq!(t.counts(&url).await, (0, 0, 0));
}

#[tokio::test]
async fn batch_entry_ids_empty_or_malformed_are_invalid_batch_entry_ids() {
    let t = TestServer::start().await;
    let url = t.create_queue("ids").await;
    for id in ["", "has space", &"x".repeat(81), "dot.ted"] {
        let body = serde_json::json!({
            "QueueUrl": url,
            "Entries": [{"Id": id, "MessageBody": "m"}],
        });
        let res = t.json("SendMessageBatch", &body.to_string()).await;
        assert_eq!(res.status, 400, "{id:?}");
        assert_eq!(
            res.json()["__type"],
            "com.amazonaws.sqs#InvalidBatchEntryId",
            "{id:?}"
        );
        assert_eq!(
            res.json()["message"],
            "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long."
        );
        for action in ["DeleteMessageBatch", "ChangeMessageVisibilityBatch"] {
            let body = serde_json::json!({
                "QueueUrl": url,
                "Entries": [{"Id": id, "ReceiptHandle": "h", "VisibilityTimeout": 1}],
            });
            let res = t.json(action, &body.to_string()).await;
            assert_eq!(
                res.header("x-amzn-query-error"),
                Some("AWS.SimpleQueueService.InvalidBatchEntryId;Sender"),
                "{action} {id:?}"
            );
        }
    }
    // The Query form of an entry without its Id.
    let res = t
        .query(&[
            ("Action", "SendMessageBatch"),
            ("QueueUrl", &url),
            ("SendMessageBatchRequestEntry.1.MessageBody", "m"),
        ])
        .await;
    assert_eq!(
        res.xml("Code").as_deref(),
        Some("AWS.SimpleQueueService.InvalidBatchEntryId")
    );
}

#[tokio::test]
async fn attribute_names_take_unicode_letters_and_values_refuse_control_characters() {
    let t = TestServer::start().await;
    let url = t.create_queue("attrs").await;
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("m")
        .message_attributes("attr.1øßä", string_attr("Valida"))
        .send()
        .await
        .expect("a Unicode attribute name is valid");
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .message_attribute_names("All")
        .send()
        .await
        .unwrap();
    let attrs = got.messages()[0].message_attributes().unwrap();
    assert_eq!(attrs["attr.1øßä"].string_value(), Some("Valida"));

    for bad in ["Invalid-\u{8}", "Invalid-\u{b}"] {
        let sent = t
            .client
            .send_message()
            .queue_url(&url)
            .message_body("m")
            .message_attributes("attr1", string_attr(bad))
            .send()
            .await;
        expect_code_for(sent, "InvalidParameterValue", format!("{bad:?}"));
    }
    for bad_name in ["Invalid-§-attr", "Invalid-!-attr", ".lead", "AMAZON.x"] {
        let sent = t
            .client
            .send_message()
            .queue_url(&url)
            .message_body("m")
            .message_attributes(bad_name, string_attr("v"))
            .send()
            .await;
        expect_code_for(sent, "InvalidParameterValue", bad_name);
    }
}

#[tokio::test]
async fn the_trace_header_becomes_aws_trace_header_unless_set_explicitly() {
    let t = TestServer::start().await;
    let url = t.create_queue("traced").await;
    let trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    send_from_the_header_then_explicitly(&t, &url, trace).await;
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .message_system_attribute_names(MessageSystemAttributeName::AwsTraceHeader)
        .send()
        .await
        .unwrap();
    let traces: Vec<(&str, &str)> = got
        .messages()
        .iter()
        .map(|m| {
            (
                m.body().unwrap(),
                m.attributes().unwrap()[&MessageSystemAttributeName::AwsTraceHeader].as_str(),
            )
        })
        .collect();
    assert_eq!(
        traces,
        [("from header", trace), ("explicit", "Root=explicit")]
    );
    a_query_batch_takes_the_header(&t, &url).await;
}

/// One send with only the trace header, one with the header and an explicit AWSTraceHeader.
async fn send_from_the_header_then_explicitly(t: &TestServer, url: &str, trace: &'static str) {
    let sent = t
        .client
        .send_message()
        .queue_url(url)
        .message_body("from header")
        .customize()
        .mutate_request(move |req| {
            req.headers_mut().insert("X-Amzn-Trace-Id", trace);
        })
        .send()
        .await
        .unwrap();
    // The digest SQS returned for this header value when sent as the system attribute.
    assert_eq!(
        sent.md5_of_message_system_attributes(),
        Some("5ae4d5d7636402d80f4eb6d213245a88")
    );
    let explicit = MessageAttributeValue::builder()
        .data_type("String")
        .string_value("Root=explicit")
        .build()
        .unwrap();
    t.client
        .send_message()
        .queue_url(url)
        .message_body("explicit")
        .message_system_attributes(
            aws_sdk_sqs::types::MessageSystemAttributeNameForSends::AwsTraceHeader,
            aws_sdk_sqs::types::MessageSystemAttributeValue::builder()
                .data_type("String")
                .string_value(explicit.string_value().unwrap())
                .build()
                .unwrap(),
        )
        .customize()
        .mutate_request(move |req| {
            req.headers_mut().insert("X-Amzn-Trace-Id", trace);
        })
        .send()
        .await
        .unwrap();
}

/// SendMessageBatch takes the header for every entry, and the Query protocol too.
async fn a_query_batch_takes_the_header(t: &TestServer, url: &str) {
    let res = t
        .raw(
            "POST",
            "/",
            &[
                ("content-type", "application/x-www-form-urlencoded"),
                ("x-amzn-trace-id", "Root=1-batch"),
            ],
            &form_urlencoded::Serializer::new(String::new())
                .extend_pairs([
                    ("Action", "SendMessageBatch"),
                    ("QueueUrl", url),
                    ("SendMessageBatchRequestEntry.1.Id", "a"),
                    ("SendMessageBatchRequestEntry.1.MessageBody", "batched"),
                ])
                .finish(),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert!(
        res.body.contains("<MD5OfMessageSystemAttributes>"),
        "{}",
        res.body
    );
}

#[tokio::test]
async fn a_batch_without_failures_has_no_failed_member() {
    let t = TestServer::start().await;
    let url = t.create_queue("clean").await;
    let body = serde_json::json!({
        "QueueUrl": url,
        "Entries": [{"Id": "a", "MessageBody": "m"}],
    });
    let res = t.json("SendMessageBatch", &body.to_string()).await;
    let json = res.json();
    assert!(json.get("Failed").is_none(), "{json}");
    assert_eq!(json["Successful"].as_array().map(Vec::len), Some(1));
    // A failure is still listed.
    let body = serde_json::json!({
        "QueueUrl": url,
        "Entries": [{"Id": "a", "ReceiptHandle": "garbage"}],
    });
    let json = t.json("DeleteMessageBatch", &body.to_string()).await.json();
    assert_eq!(json["Failed"][0]["Code"], "ReceiptHandleIsInvalid");
}
