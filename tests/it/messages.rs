//! Sending, receiving, deleting and hiding messages on standard queues, against the real SDK
//! with a manual clock.

use crate::common::{expect_code, expect_code_for, message, TestServer, T0};
use aws_sdk_sqs::primitives::Blob;
use aws_sdk_sqs::types::{MessageAttributeValue, MessageSystemAttributeName, QueueAttributeName};

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
async fn visibility_timeout_redelivers_with_a_new_handle() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with("q", &[("VisibilityTimeout", "30")])
        .await;
    t.send(&url, "m").await;
    let first = t.receive(&url).await;
    let h1 = first.messages()[0].receipt_handle().unwrap().to_owned();
    t.advance(29);
    assert!(t.receive(&url).await.messages().is_empty());
    t.advance(1);
    let second = t
        .client
        .receive_message()
        .queue_url(&url)
        .message_system_attribute_names(MessageSystemAttributeName::ApproximateReceiveCount)
        .send()
        .await
        .unwrap();
    let m = &second.messages()[0];
    assert_ne!(m.receipt_handle().unwrap(), h1);
    assert_eq!(
        m.attributes().unwrap()[&MessageSystemAttributeName::ApproximateReceiveCount],
        "2"
    );
    // An older handle still deletes (standard queues), and deleting twice succeeds.
    for _ in 0..2 {
        t.delete(&url, &h1).await;
    }
    assert_eq!(t.counts(&url).await, (0, 0, 0));
}

#[tokio::test]
async fn receive_visibility_override_and_change_visibility() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.send(&url, "m").await;
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .visibility_timeout(5)
        .send()
        .await
        .unwrap();
    let handle = got.messages()[0].receipt_handle().unwrap().to_owned();
    t.set_visibility(&url, &handle, 100).await;
    t.advance(99);
    assert_eq!(t.counts(&url).await, (0, 1, 0));
    t.advance(1);
    assert_eq!(t.counts(&url).await, (1, 0, 0));
    // An expired (but latest) handle may hide the message again.
    t.set_visibility(&url, &handle, 10).await;
    assert_eq!(t.counts(&url).await, (0, 1, 0));
    t.set_visibility(&url, &handle, 0).await;
    assert_eq!(t.counts(&url).await, (1, 0, 0));
    expect_code(
        t.client
            .change_message_visibility()
            .queue_url(&url)
            .receipt_handle(&handle)
            .visibility_timeout(43_201)
            .send()
            .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn twelve_hour_cap_counts_from_first_receive() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.send(&url, "m").await;
    let got = t.receive(&url).await;
    let handle = got.messages()[0].receipt_handle().unwrap().to_owned();
    t.advance(20);
    let err = expect_code(
        t.client
            .change_message_visibility()
            .queue_url(&url)
            .receipt_handle(&handle)
            .visibility_timeout(43_200)
            .send()
            .await,
        "InvalidParameterValue",
    );
    assert!(message(&err).contains("43200"), "{}", message(&err));
    t.set_visibility(&url, &handle, 43_180).await;
}

#[tokio::test]
async fn receipt_handle_errors() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let other = t.create_queue("other").await;
    let err = t
        .client
        .delete_message()
        .queue_url(&url)
        .receipt_handle("garbage")
        .send()
        .await
        .unwrap_err();
    assert!(err
        .as_service_error()
        .unwrap()
        .is_receipt_handle_is_invalid());
    assert_eq!(
        message(&err),
        "The input receipt handle \"garbage\" is not a valid receipt handle."
    );
    t.send(&other, "m").await;
    let got = t.receive(&other).await;
    let handle = got.messages()[0].receipt_handle().unwrap();
    expect_code(
        t.client
            .delete_message()
            .queue_url(&url)
            .receipt_handle(handle)
            .send()
            .await,
        "ReceiptHandleIsInvalid",
    );
    t.delete(&other, handle).await;
    let err = t
        .client
        .change_message_visibility()
        .queue_url(&other)
        .receipt_handle(handle)
        .visibility_timeout(5)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        format!("Value {handle} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.")
    );
}

#[tokio::test]
async fn delays_queue_and_per_message() {
    let t = TestServer::start().await;
    let url = t.create_queue_with("q", &[("DelaySeconds", "10")]).await;
    t.send(&url, "queue delay").await;
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("own delay")
        .delay_seconds(2)
        .send()
        .await
        .unwrap();
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("no delay")
        .delay_seconds(0)
        .send()
        .await
        .unwrap();
    assert_eq!(t.counts(&url).await, (1, 0, 2));
    t.advance(2);
    assert_eq!(t.counts(&url).await, (2, 0, 1));
    t.advance(8);
    assert_eq!(t.counts(&url).await, (3, 0, 0));
    expect_code(
        t.client
            .send_message()
            .queue_url(&url)
            .message_body("x")
            .delay_seconds(901)
            .send()
            .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn retention_expires_messages_even_in_flight() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with("q", &[("MessageRetentionPeriod", "60")])
        .await;
    t.send(&url, "a").await;
    t.client
        .receive_message()
        .queue_url(&url)
        .visibility_timeout(120)
        .send()
        .await
        .unwrap();
    t.send(&url, "b").await;
    t.advance(59);
    assert_eq!(t.counts(&url).await, (1, 1, 0));
    t.advance(1);
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

#[tokio::test]
async fn receive_parameter_validation() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let err = t
        .client
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(11)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided."
    );
    let err = t
        .client
        .receive_message()
        .queue_url(&url)
        .wait_time_seconds(21)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Value 21 for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided."
    );
    expect_code(
        t.client
            .receive_message()
            .queue_url(&url)
            .visibility_timeout(-1)
            .send()
            .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn receive_returns_up_to_max_in_send_order() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    for i in 0..15 {
        t.send(&url, &format!("m{i}")).await;
    }
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .send()
        .await
        .unwrap();
    let bodies: Vec<&str> = got.messages().iter().filter_map(|m| m.body()).collect();
    assert_eq!(bodies, (0..10).map(|i| format!("m{i}")).collect::<Vec<_>>());
    let one = t.receive(&url).await;
    assert_eq!(one.messages().len(), 1);
    assert_eq!(t.counts(&url).await, (4, 11, 0));
}

#[tokio::test]
async fn purge_removes_in_flight_messages_too() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.send(&url, "a").await;
    t.send(&url, "b").await;
    t.receive(&url).await;
    t.client.purge_queue().queue_url(&url).send().await.unwrap();
    assert_eq!(t.counts(&url).await, (0, 0, 0));
    let got = t
        .client
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(QueueAttributeName::ApproximateNumberOfMessages)
        .send()
        .await
        .unwrap();
    assert_eq!(
        got.attributes().unwrap()[&QueueAttributeName::ApproximateNumberOfMessages],
        "0"
    );
}

#[tokio::test]
async fn fair_queue_serves_a_quiet_tenant_behind_a_noisy_backlog() {
    let t = TestServer::start().await;
    let url = t.create_queue("tenants").await;
    for _ in 0..10 {
        let mut batch = t.client.send_message_batch().queue_url(&url);
        for i in 0..10 {
            batch = batch.entries(
                aws_sdk_sqs::types::SendMessageBatchRequestEntry::builder()
                    .id(format!("e{i}"))
                    .message_body("noisy")
                    .message_group_id("big-tenant")
                    .build()
                    .unwrap(),
            );
        }
        batch.send().await.unwrap();
    }
    t.client
        .send_message()
        .queue_url(&url)
        .message_body("quiet")
        .message_group_id("small-tenant")
        .send()
        .await
        .unwrap();
    // The noisy tenant's consumers hold 30 messages in flight...
    for _ in 0..3 {
        let got = t
            .client
            .receive_message()
            .queue_url(&url)
            .max_number_of_messages(10)
            .send()
            .await
            .unwrap();
        assert!(got.messages().iter().all(|m| m.body() == Some("noisy")));
    }
    // ...so the quiet tenant's message, sent after 100 others, is served next.
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(1)
        .send()
        .await
        .unwrap();
    assert_eq!(got.messages()[0].body(), Some("quiet"));
}
