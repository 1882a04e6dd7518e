//! Malformed requests get SQS's errors in the right protocol: never a 500, a panic or a hang.

use std::fmt::Write;

use crate::common::TestServer;

#[tokio::test]
async fn json_protocol_errors() {
    let t = TestServer::start().await;
    malformed_and_mistyped_json(&t).await;
    missing_members_and_unknown_operations(&t).await;
    empty_and_out_of_range_requests(&t).await;
}

/// A body that is not JSON, and values of the wrong type, in Coral's words.
async fn malformed_and_mistyped_json(t: &TestServer) {
    let r = t.json("CreateQueue", "{not json").await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["__type"],
        "com.amazon.coral.service#SerializationException"
    );
    assert_eq!(
        r.header("x-amzn-query-error"),
        Some("SerializationException;Sender")
    );

    assert_eq!(
        r.body, r#"{"__type":"com.amazon.coral.service#SerializationException"}"#,
        "a malformed body is Coral's bare SerializationException"
    );

    // A value of the wrong type: Coral's wording, never serde's.
    let r = t.json("CreateQueue", r#"{"QueueName": 5}"#).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "class com.amazon.coral.value.json.numbers.TruncatingBigNumber can not be converted to an String"
    );
    let r = t
        .json(
            "ReceiveMessage",
            r#"{"QueueUrl":"q","MaxNumberOfMessages":"10"}"#,
        )
        .await;
    assert_eq!(
        r.json()["message"],
        "class java.lang.String can not be converted to an Integer"
    );
    let r = t
        .json(
            "GetQueueAttributes",
            r#"{"QueueUrl":"q","AttributeNames":{}}"#,
        )
        .await;
    assert_eq!(
        r.json()["message"],
        "Start of structure or map found where not expected."
    );
}

/// Missing members are named; an unknown or absent operation is Coral's UnknownOperation.
async fn missing_members_and_unknown_operations(t: &TestServer) {
    // A missing member inside a batch entry is named, as at the top level.
    let r = t
        .json(
            "DeleteMessageBatch",
            r#"{"QueueUrl":"q","Entries":[{"Id":"a"}]}"#,
        )
        .await;
    assert_eq!(
        r.json()["message"],
        "The request must contain the parameter ReceiptHandle."
    );
    assert!(!r.body.contains('`'), "{}", r.body);

    let r = t.json("CreateQueue", "{}").await;
    assert_eq!(
        r.json()["__type"],
        "com.amazon.coral.service#MissingRequiredParameterException"
    );
    assert_eq!(
        r.json()["message"],
        "The request must contain the parameter QueueName."
    );
    assert_eq!(
        r.header("x-amzn-query-error"),
        Some("MissingParameter;Sender")
    );

    let r = t.json("Frobnicate", "{}").await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["__type"],
        "com.amazon.coral.service#UnknownOperationException"
    );

    let r = t
        .raw(
            "POST",
            "/",
            &[("content-type", "application/x-amz-json-1.0")],
            "{}",
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["__type"],
        "com.amazon.coral.service#UnknownOperationException"
    );
}

/// An empty body, a number out of range and an empty queue URL.
async fn empty_and_out_of_range_requests(t: &TestServer) {
    // An empty body is an empty request, as for ListQueues.
    let r = t.json("ListQueues", "").await;
    assert_eq!((r.status, r.body.as_str()), (200, "{}"));

    let r = t
        .json(
            "ReceiveMessage",
            r#"{"QueueUrl":"http://x/000000000000/none","MaxNumberOfMessages":1e40}"#,
        )
        .await;
    assert_eq!(r.status, 400);

    let r = t
        .json("SendMessage", r#"{"QueueUrl":"","MessageBody":"x"}"#)
        .await;
    assert_eq!(
        r.json()["message"],
        "The request must contain the parameter QueueUrl."
    );
}

#[tokio::test]
async fn query_protocol_errors() {
    let t = TestServer::start().await;
    let r = t.query(&[("Version", "2012-11-05")]).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.xml("Code").as_deref(), Some("InvalidAction"));

    let r = t.raw("GET", "/", &[], "").await;
    assert_eq!(r.status, 400);
    assert_eq!(r.header("content-type"), Some("text/xml"));

    let r = t
        .query(&[("Action", "ListQueues"), ("MaxResults", "lots")])
        .await;
    assert_eq!(r.xml("Code").as_deref(), Some("InvalidParameterValue"));

    let r = t
        .raw(
            "POST",
            "/",
            &[("content-type", "application/x-www-form-urlencoded")],
            "Action=ListQueues&%ZZ=%%%",
        )
        .await;
    assert_eq!(
        r.status, 200,
        "undecodable pairs are ignored, as unknown parameters are"
    );

    let r = t
        .query(&[
            ("Action", "SendMessage"),
            ("QueueUrl", "http://x/000000000000/none"),
            ("MessageBody", "x"),
        ])
        .await;
    assert_eq!(
        r.xml("Code").as_deref(),
        Some("AWS.SimpleQueueService.NonExistentQueue")
    );
    assert!(r.body.contains("<RequestId>"));
}

/// Decoding is bounded in values and nesting: a body packed with list items or nesting (far
/// beyond any valid SQS request) is refused before it is decoded, in both protocols.
#[tokio::test]
async fn decoding_budgets_refuse_packed_bodies() {
    let t = TestServer::start().await;
    let items = vec![r#""SenderId""#; 5_000].join(",");
    let r = t
        .json(
            "GetQueueAttributes",
            &format!(r#"{{"QueueUrl":"q","AttributeNames":[{items}]}}"#),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["__type"],
        "com.amazon.coral.service#SerializationException"
    );
    let deep = format!(
        r#"{{"QueueName":"q","x":{}1{}}}"#,
        "[".repeat(100),
        "]".repeat(100)
    );
    let r = t.json("CreateQueue", &deep).await;
    assert_eq!(r.status, 400);

    let names = (1..=5_000).fold(String::new(), |mut text, i| {
        let _ = write!(text, "&AttributeName.{i}=All");
        text
    });
    let r = t
        .raw(
            "POST",
            "/",
            &[("content-type", "application/x-www-form-urlencoded")],
            &format!("Action=GetQueueAttributes&QueueUrl=q{names}"),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.xml("Code").as_deref(), Some("InvalidParameterValue"));

    // Unknown keys are not kept at all, however many: the request runs.
    let r = t
        .raw(
            "POST",
            "/",
            &[("content-type", "application/x-www-form-urlencoded")],
            &format!(
                "Action=ListQueues&Version=2012-11-05{}",
                "&a".repeat(100_000)
            ),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn oversized_and_binary_bodies_are_refused_cleanly() {
    let t = TestServer::start().await;
    let huge = "x".repeat(5 * 1024 * 1024);
    let r = t.json("SendMessage", &huge).await;
    assert_eq!(r.status, 400);
    let r = t.json("SendMessage", "\u{0}\u{1}\u{2}").await;
    assert_eq!(r.status, 400);
}

#[tokio::test]
async fn health_answers() {
    let t = TestServer::start().await;
    let r = t.raw("GET", "/health", &[], "").await;
    assert_eq!(r.status, 200);
}

/// A request for another service gets an error naming sqslite and what it serves, in its own
/// SDK's shape (before: a REST call got an empty 404, which SDKs report as `UnknownError`).
#[tokio::test]
async fn a_request_for_another_service_says_what_sqslite_serves() {
    let t = TestServer::start().await;
    let route53 = "AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/route53/aws4_request, SignedHeaders=host;x-amz-date, Signature=00";
    let r = t
        .raw(
            "POST",
            "/2013-04-01/hostedzone",
            &[
                ("authorization", route53),
                ("x-amz-date", "20240101T000000Z"),
            ],
            "hello",
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.xml("Code").as_deref(), Some("UnknownService"));
    let message = r.xml("Message").unwrap();
    assert!(
        message.starts_with("sqslite serves Amazon SQS"),
        "{message}"
    );
    assert!(message.contains("'route53'"), "{message}");

    let r = t
        .raw(
            "POST",
            "/",
            &[
                ("content-type", "application/x-amz-json-1.0"),
                ("x-amz-target", "DynamoDB_20120810.ListTables"),
            ],
            "{}",
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["__type"], "UnknownService");
    let message = r.json()["message"].as_str().unwrap().to_owned();
    assert!(message.contains("'DynamoDB_20120810'"), "{message}");
}
