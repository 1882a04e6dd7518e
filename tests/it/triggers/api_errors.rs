//! Every refusal of Lambda's event-source-mapping API, through the real `aws-sdk-lambda`
//! client, with Lambda's code, HTTP status and message.

use aws_sdk_lambda::types::{Filter, FilterCriteria, FunctionResponseType, ScalingConfig};

use crate::common::lambda_api::{failure, server, Lambda, ORDERS_ARN};

#[tokio::test]
async fn list_refuses_an_unknown_function_and_bad_max_items() {
    let l = server().await;
    let err = l
        .lambda
        .list_event_source_mappings()
        .function_name("nope")
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        failure(&err),
        (
            "ResourceNotFoundException".into(),
            404,
            "Function not found: arn:aws:lambda:us-east-1:000000000000:function:nope".into()
        )
    );
    let err = l
        .lambda
        .list_event_source_mappings()
        .max_items(0)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        failure(&err),
        (
            "ValidationException".into(),
            400,
            "1 validation error detected: Value '0' at 'maxItems' failed to satisfy constraint: Member must have value greater than or equal to 1".into()
        )
    );
}

/// CreateEventSourceMapping with a body the test shapes, through the real client.
async fn refused_create(
    l: &Lambda,
    shape: impl FnOnce(
        aws_sdk_lambda::operation::create_event_source_mapping::builders::CreateEventSourceMappingFluentBuilder,
    ) -> aws_sdk_lambda::operation::create_event_source_mapping::builders::CreateEventSourceMappingFluentBuilder,
) -> (String, u16, String) {
    let err = shape(l.lambda.create_event_source_mapping())
        .send()
        .await
        .expect_err("refused");
    failure(&err)
}

fn validation(message: &str) -> (String, u16, String) {
    ("ValidationException".into(), 400, message.into())
}

fn invalid(message: &str) -> (String, u16, String) {
    ("InvalidParameterValueException".into(), 400, message.into())
}

#[tokio::test]
async fn create_refuses_what_lambda_refuses_with_its_words() {
    let l = server().await;
    let (_, queue) = l.queue("orders", &[("VisibilityTimeout", "30")]).await;
    let q = queue.as_str();
    assert_eq!(
        refused_create(&l, |b| b.event_source_arn(q)).await,
        validation("1 validation error detected: Value null at 'functionName' failed to satisfy constraint: Member must not be null")
    );
    assert_eq!(
        refused_create(&l, |b| b.function_name("orders").event_source_arn("orders")).await,
        validation(
            r"1 validation error detected: Value 'orders' at 'eventSourceArn' failed to satisfy constraint: Member must satisfy regular expression pattern: arn:(aws[a-zA-Z0-9-]*):([a-zA-Z0-9\-])+:([a-z]{2}(-gov)?-[a-z]+-\d{1})?:(\d{12})?:(.*)"
        )
    );
    assert_eq!(
        refused_create(&l, |b| b.function_name("nope").event_source_arn(q)).await,
        invalid("Function does not exist")
    );
    assert_eq!(
        refused_create(&l, |b| b
            .function_name("orders")
            .event_source_arn("arn:aws:sqs:us-east-1:000000000000:missing"))
        .await,
        invalid(
            "The provided execution role does not have permissions to call ReceiveMessage on SQS"
        )
    );
    let ranges = [
        (0, 0, "Value '0' at 'batchSize' failed to satisfy constraint: Member must have value greater than or equal to 1"),
        (10_001, 1, "Value '10001' at 'batchSize' failed to satisfy constraint: Member must have value less than or equal to 10000"),
        (10, 301, "Value '301' at 'maximumBatchingWindowInSeconds' failed to satisfy constraint: Member must have value less than or equal to 300"),
    ];
    for (size, window, message) in ranges {
        let got = refused_create(&l, |b| {
            b.function_name("orders")
                .event_source_arn(q)
                .batch_size(size)
                .maximum_batching_window_in_seconds(window)
        })
        .await;
        assert_eq!(
            got,
            validation(&format!("1 validation error detected: {message}"))
        );
    }
    for (max, bound) in [
        (1, "greater than or equal to 2"),
        (1001, "less than or equal to 1000"),
    ] {
        let got = refused_create(&l, |b| {
            b.function_name("orders")
                .event_source_arn(q)
                .scaling_config(ScalingConfig::builder().maximum_concurrency(max).build())
        })
        .await;
        assert_eq!(got, validation(&format!("1 validation error detected: Value '{max}' at 'scalingConfig.maximumConcurrency' failed to satisfy constraint: Member must have value {bound}")));
    }
}

#[tokio::test]
async fn create_refuses_settings_against_the_queue_kind_and_function() {
    let l = server().await;
    let (_, queue) = l.queue("orders", &[("VisibilityTimeout", "30")]).await;
    let (_, fifo) = l.queue("orders.fifo", &[("FifoQueue", "true")]).await;
    let q = queue.as_str();
    assert_eq!(
        refused_create(&l, |b| b.function_name("orders").event_source_arn(q).batch_size(11)).await,
        invalid("Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10")
    );
    assert_eq!(
        refused_create(&l, |b| b
            .function_name("orders")
            .event_source_arn(&fifo)
            .batch_size(5)
            .maximum_batching_window_in_seconds(1))
        .await,
        invalid("Batching window is not supported for FIFO queues")
    );
    let too_big = refused_create(&l, |b| {
        b.function_name("orders")
            .event_source_arn(&fifo)
            .batch_size(11)
    })
    .await;
    assert_eq!(
        (too_big.0.as_str(), too_big.1),
        ("InvalidParameterValueException", 400),
        "{too_big:?}"
    );
    assert_eq!(
        refused_create(&l, |b| b
            .function_name("orders")
            .event_source_arn(q)
            .function_response_types(FunctionResponseType::from("Nope")))
        .await,
        validation("1 validation error detected: Value '[Nope]' at 'functionResponseTypes' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value set: [ReportBatchItemFailures]]")
    );
    malformed_filter_patterns_are_refused(&l, q).await;
    assert_eq!(
        refused_create(&l, |b| b
            .function_name("orders")
            .event_source_arn(q)
            .starting_position(aws_sdk_lambda::types::EventSourcePosition::Latest))
        .await,
        invalid("StartingPosition is not valid for SQS event sources.")
    );
    assert_eq!(
        refused_create(&l, |b| b.function_name("slow").event_source_arn(q)).await,
        invalid("Queue visibility timeout: 30 seconds is less than Function timeout: 60 seconds")
    );
}

/// Filter patterns that are not JSON, not an object of lists, or a bad numeric rule.
async fn malformed_filter_patterns_are_refused(l: &Lambda, q: &str) {
    for pattern in [
        "not json",
        r#"{"body": "x"}"#,
        r#"{"body": {"a": [{"numeric": ["<"]}]}}"#,
    ] {
        let got = refused_create(l, |b| {
            b.function_name("orders")
                .event_source_arn(q)
                .filter_criteria(
                    FilterCriteria::builder()
                        .filters(Filter::builder().pattern(pattern).build())
                        .build(),
                )
        })
        .await;
        assert_eq!(
            got,
            invalid("Invalid filter pattern definition."),
            "{pattern}"
        );
    }
}

#[tokio::test]
async fn a_second_mapping_of_one_queue_to_one_function_conflicts() {
    let l = server().await;
    let (_, queue) = l.queue("orders", &[]).await;
    let first = l.map("orders", &queue).await.uuid.unwrap();
    let got = refused_create(&l, |b| b.function_name(ORDERS_ARN).event_source_arn(&queue)).await;
    assert_eq!(
        got,
        (
            "ResourceConflictException".into(),
            409,
            format!("An event source mapping with SQS arn (\" {queue} \") and function (\" orders \") already exists. Please update or delete the existing mapping with UUID {first}")
        )
    );
    // Another function may take the same queue.
    let audit = l.map("audit", &queue).await.uuid.unwrap();
    // Moving it onto the first mapping's function conflicts the same way.
    l.settled(&audit).await;
    let err = l
        .lambda
        .update_event_source_mapping()
        .uuid(&audit)
        .function_name("orders")
        .send()
        .await
        .unwrap_err();
    assert_eq!(failure(&err).1, 409);
}

#[tokio::test]
async fn update_refuses_with_the_same_rules() {
    let l = server().await;
    let (_, queue) = l.queue("orders", &[]).await;
    let uuid = l.map("orders", &queue).await.uuid.unwrap();
    l.settled(&uuid).await;
    let update = || l.lambda.update_event_source_mapping().uuid(&uuid);
    let err = update().batch_size(20).send().await.unwrap_err();
    assert_eq!(failure(&err), invalid("Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10"));
    let err = update().function_name("nope").send().await.unwrap_err();
    assert_eq!(failure(&err), invalid("Function does not exist"));
    let err = update().function_name("slow").send().await.unwrap_err();
    assert_eq!(
        failure(&err).2,
        "Queue visibility timeout: 30 seconds is less than Function timeout: 60 seconds"
    );
    let err = update()
        .maximum_batching_window_in_seconds(-1)
        .send()
        .await
        .unwrap_err();
    assert_eq!(failure(&err), validation("1 validation error detected: Value '-1' at 'maximumBatchingWindowInSeconds' failed to satisfy constraint: Member must have value greater than or equal to 0"));
    // Nothing refused changed the mapping.
    let got = l.get(&uuid).await;
    assert_eq!(
        (got.batch_size, got.function_arn.as_deref()),
        (Some(10), Some(ORDERS_ARN))
    );
}

#[tokio::test]
async fn other_lambda_operations_are_refused_by_name() {
    let l = server().await;
    let err = l.lambda.list_functions().send().await.unwrap_err();
    let (code, status, message) = failure(&err);
    assert_eq!((code.as_str(), status), ("UnknownOperationException", 404));
    assert!(
        message.contains("GET /2015-03-31/functions is not one of them"),
        "{message}"
    );
}

#[tokio::test]
async fn with_credentials_configured_the_api_checks_signatures() {
    use crate::common::lambda_api::lambda_client_with;
    let t = crate::common::signed_server().await;
    let ok = lambda_client_with(&t.endpoint(), "AKIDEXAMPLE", "secret", &t.clock);
    let listed = ok.list_event_source_mappings().send().await.unwrap();
    assert!(listed.event_source_mappings().is_empty());
    let refused = [
        ("AKIDEXAMPLE", "wrong", "InvalidSignatureException"),
        ("AKIDNOBODY", "secret", "UnrecognizedClientException"),
    ];
    for (key, secret, code) in refused {
        let client = lambda_client_with(&t.endpoint(), key, secret, &t.clock);
        let err = client
            .list_event_source_mappings()
            .send()
            .await
            .unwrap_err();
        let (got, status, _) = failure(&err);
        assert_eq!((got.as_str(), status), (code, 403), "{key}");
    }
    // Unsigned, a Lambda path is refused before anything else is looked at.
    let r = t
        .raw("GET", "/2015-03-31/event-source-mappings/", &[], "")
        .await;
    assert_eq!(
        (r.status, r.header("x-amzn-errortype")),
        (403, Some("MissingAuthenticationTokenException"))
    );
}

#[tokio::test]
async fn a_declared_mapping_keeps_the_visibility_rule() {
    let mut config = sqslite::Config::ephemeral()
        .with_queue(sqslite::QueueDecl::new("quick").attribute("VisibilityTimeout", 2));
    config.triggers.functions = vec![crate::common::lambda_api::function("orders")];
    config.triggers.mappings = vec![sqslite::config::MappingDecl::new("orders", "quick")];
    let err = crate::common::TestServer::try_start_with(config)
        .await
        .err()
        .expect("refused at start");
    assert!(
        err.to_string().contains(
            "Queue visibility timeout: 2 seconds is less than Function timeout: 3 seconds"
        ),
        "{err}"
    );
}

#[tokio::test]
async fn a_huge_bad_value_is_quoted_only_in_part() {
    let l = server().await;
    // The review's 3.9 MB EventSourceArn, which the 400 answered whole.
    let huge = format!(
        "arn:aws:kinesis:us-east-1:000000000000:stream/{}",
        "q".repeat(3_900_000)
    );
    let body = serde_json::json!({"EventSourceArn": huge, "FunctionName": "orders"}).to_string();
    let got =
        l.t.raw(
            "POST",
            "/2015-03-31/event-source-mappings/",
            &[("content-type", "application/json")],
            &body,
        )
        .await;
    assert_eq!(got.status, 400, "{}", &got.body[..200.min(got.body.len())]);
    assert!(got.body.len() < 5_000, "{} bytes answered", got.body.len());
    let message = got.json()["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(message.ends_with('…'), "{message}");
}
