//! What a message on a standard queue carries, against the real SDK with a manual clock:
//! bodies and their limits, message and system attributes, their filters and digests.

use crate::common::{expect_code, expect_code_for, message, TestServer, T0};
use aws_sdk_sqs::primitives::Blob;
use aws_sdk_sqs::types::{MessageAttributeValue, MessageSystemAttributeName};

fn string_attr(v: &str) -> MessageAttributeValue {
    MessageAttributeValue::builder()
        .data_type("String")
        .string_value(v)
        .build()
        .unwrap()
}

#[tokio::test]
async fn send_receive_delete_with_md5s() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let sent = t
        .client
        .send_message()
        .queue_url(&url)
        .message_body("hello")
        .message_attributes("Foo", string_attr("Bar"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        sent.md5_of_message_body(),
        Some("5d41402abc4b2a76b9719d911017c592")
    );
    assert_eq!(
        sent.md5_of_message_attributes(),
        Some("ae7155c6026991b6d54b11589678bf9c")
    );
    assert!(sent.md5_of_message_system_attributes().is_none());
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .message_attribute_names("All")
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .send()
        .await
        .unwrap();
    let m = &got.messages()[0];
    assert_eq!(m.message_id(), sent.message_id());
    assert_eq!(m.body(), Some("hello"));
    assert_eq!(m.md5_of_body(), Some("5d41402abc4b2a76b9719d911017c592"));
    assert_eq!(
        m.md5_of_message_attributes(),
        Some("ae7155c6026991b6d54b11589678bf9c")
    );
    let attrs = m.attributes().unwrap();
    assert_eq!(
        attrs[&MessageSystemAttributeName::ApproximateReceiveCount],
        "1"
    );
    assert_eq!(
        attrs[&MessageSystemAttributeName::SentTimestamp],
        T0.to_string()
    );
    // The sender's id, AWS-shaped; never its access key id.
    let sender = &attrs[&MessageSystemAttributeName::SenderId];
    assert!(sender.starts_with("AIDA") && sender.len() == 21, "{sender}");
    assert_eq!(
        attrs[&MessageSystemAttributeName::ApproximateFirstReceiveTimestamp],
        T0.to_string()
    );
    assert_eq!(t.counts(&url).await, (0, 1, 0));
    t.delete(&url, m.receipt_handle().unwrap()).await;
    assert_eq!(t.counts(&url).await, (0, 0, 0));
}

#[tokio::test]
async fn body_validation() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with("q", &[("MaximumMessageSize", "1024")])
        .await;
    let err = t
        .client
        .send_message()
        .queue_url(&url)
        .message_body("bad \u{1} char")
        .send()
        .await
        .unwrap_err();
    assert!(err
        .as_service_error()
        .unwrap()
        .is_invalid_message_contents());
    let err = t
        .client
        .send_message()
        .queue_url(&url)
        .message_body("x".repeat(1025))
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes."
    );
    // Attribute names, types and values count toward the size.
    expect_code(
        t.client
            .send_message()
            .queue_url(&url)
            .message_body("x".repeat(1000))
            .message_attributes("a", string_attr(&"y".repeat(30)))
            .send()
            .await,
        "InvalidParameterValue",
    );
    expect_code(
        t.client
            .send_message()
            .queue_url(&url)
            .message_body("")
            .send()
            .await,
        "MissingParameter",
    );
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("x".repeat(1024))
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn message_attribute_types_and_filters() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let binary = MessageAttributeValue::builder()
        .data_type("Binary.gif")
        .binary_value(Blob::new(vec![0u8, 1, 2]))
        .build()
        .unwrap();
    let number = MessageAttributeValue::builder()
        .data_type("Number.float")
        .string_value("3.14")
        .build()
        .unwrap();
    let custom = MessageAttributeValue::builder()
        .data_type("String.custom")
        .string_value("x")
        .build()
        .unwrap();
    let sent = t
        .client
        .send_message()
        .queue_url(&url)
        .message_body("m")
        .message_attributes("a", custom)
        .message_attributes("b", binary)
        .message_attributes("n", number)
        .send()
        .await
        .unwrap();
    assert_eq!(
        sent.md5_of_message_attributes(),
        Some("f5abcad3e5a301baade10814f2ccd238")
    );
    let got = peek_with_attributes(&t, &url, &["b"]).await;
    let m = &got.messages()[0];
    let attrs = m.message_attributes().unwrap();
    assert_eq!(attrs.len(), 1);
    assert_eq!(attrs["b"].binary_value().unwrap().as_ref(), &[0u8, 1, 2]);
    assert_ne!(
        m.md5_of_message_attributes(),
        sent.md5_of_message_attributes()
    );
    let none = peek_with_attributes(&t, &url, &[]).await;
    assert!(none.messages()[0].message_attributes().is_none());
    assert!(none.messages()[0].md5_of_message_attributes().is_none());
    assert!(none.messages()[0].attributes().is_none());
    let prefix = peek_with_attributes(&t, &url, &["n.*", "a"]).await;
    assert_eq!(prefix.messages()[0].message_attributes().unwrap().len(), 2);
    // `*` means every attribute, like `All` and `.*` [aws-recorded].
    let star = peek_with_attributes(&t, &url, &["*"]).await;
    assert_eq!(star.messages()[0].message_attributes().unwrap().len(), 3);
}

/// A receive asking for the message attributes `names`, leaving the message visible.
async fn peek_with_attributes(
    t: &TestServer,
    url: &str,
    names: &[&str],
) -> aws_sdk_sqs::operation::receive_message::ReceiveMessageOutput {
    let mut call = t
        .client
        .receive_message()
        .queue_url(url)
        .visibility_timeout(0);
    for name in names {
        call = call.message_attribute_names(*name);
    }
    call.send().await.unwrap()
}

#[tokio::test]
async fn attribute_rules_and_trace_header() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let mut req = t.client.send_message().queue_url(&url).message_body("m");
    for i in 0..11 {
        req = req.message_attributes(format!("a{i}"), string_attr("v"));
    }
    expect_code_for(
        req.send().await,
        "InvalidParameterValue",
        "eleven message attributes",
    );
    expect_code(
        t.client
            .send_message()
            .queue_url(&url)
            .message_body("m")
            .message_attributes("AWS.reserved", string_attr("v"))
            .send()
            .await,
        "InvalidParameterValue",
    );
    let trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    let sent = t
        .client
        .send_message()
        .queue_url(&url)
        .message_body("m")
        .message_system_attributes(
            aws_sdk_sqs::types::MessageSystemAttributeNameForSends::AwsTraceHeader,
            aws_sdk_sqs::types::MessageSystemAttributeValue::builder()
                .data_type("String")
                .string_value(trace)
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(
        sent.md5_of_message_system_attributes(),
        Some("5ae4d5d7636402d80f4eb6d213245a88")
    );
    assert!(sent.md5_of_message_attributes().is_none());
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .message_system_attribute_names(MessageSystemAttributeName::AwsTraceHeader)
        .send()
        .await
        .unwrap();
    let attrs = got.messages()[0].attributes().unwrap();
    assert_eq!(attrs.len(), 1);
    assert_eq!(attrs[&MessageSystemAttributeName::AwsTraceHeader], trace);
}

#[tokio::test]
async fn fair_queue_group_id_is_accepted_and_returned_on_standard_queues() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("m")
        .message_group_id("tenant-1")
        .send()
        .await
        .unwrap();
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .send()
        .await
        .unwrap();
    assert_eq!(
        got.messages()[0].attributes().unwrap()[&MessageSystemAttributeName::MessageGroupId],
        "tenant-1"
    );
}
