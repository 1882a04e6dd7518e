//! Lambda's event-source-mapping API through the real `aws-sdk-lambda` client: create, get,
//! list (with pagination), update, delete, and every refusal with Lambda's code, HTTP status
//! and message.

use aws_sdk_lambda::types::{Filter, FilterCriteria, FunctionResponseType, ScalingConfig};

use crate::common::lambda_api::{self, failure, function, Lambda};

const ORDERS_ARN: &str = "arn:aws:lambda:us-east-1:000000000000:function:orders";

async fn server() -> Lambda {
    let mut slow = function("slow");
    slow.timeout = std::time::Duration::from_secs(60);
    lambda_api::start(vec![function("orders"), function("audit"), slow]).await
}

#[tokio::test]
async fn create_answers_creating_and_the_mapping_settles_enabled() {
    let l = server().await;
    let (_, queue) = l.queue("orders", &[]).await;
    let created = l.map("orders", &queue).await;
    assert_eq!(created.state.as_deref(), Some("Creating"));
    assert_eq!(created.batch_size, Some(10));
    assert_eq!(created.maximum_batching_window_in_seconds, Some(0));
    assert_eq!(created.function_arn.as_deref(), Some(ORDERS_ARN));
    assert_eq!(created.event_source_arn.as_deref(), Some(queue.as_str()));
    assert_eq!(
        created.state_transition_reason.as_deref(),
        Some("USER_INITIATED")
    );
    assert_eq!(created.function_response_types, Some(vec![]));
    let uuid = created.uuid.clone().unwrap();
    assert_eq!(
        created.event_source_mapping_arn,
        Some(format!(
            "arn:aws:lambda:us-east-1:000000000000:event-source-mapping:{uuid}"
        ))
    );
    let last_modified = created.last_modified.unwrap().as_secs_f64();
    assert!(
        (last_modified - crate::common::T0 as f64 / 1000.0).abs() < 1.0,
        "{last_modified}"
    );
    assert_eq!(l.settled(&uuid).await, "Enabled");
}

#[tokio::test]
async fn create_takes_every_sqs_setting_and_gets_them_back() {
    let l = server().await;
    let (_, queue) = l.queue("orders", &[]).await;
    let out = l
        .lambda
        .create_event_source_mapping()
        .function_name(ORDERS_ARN)
        .event_source_arn(&queue)
        .enabled(false)
        .batch_size(500)
        .maximum_batching_window_in_seconds(5)
        .function_response_types(FunctionResponseType::ReportBatchItemFailures)
        .scaling_config(ScalingConfig::builder().maximum_concurrency(4).build())
        .filter_criteria(
            FilterCriteria::builder()
                .filters(
                    Filter::builder()
                        .pattern(r#"{"body":{"kind":["order"]}}"#)
                        .build(),
                )
                .build(),
        )
        .send()
        .await
        .unwrap();
    // Created disabled, a mapping answers Disabled at once (as AWS recorded it).
    assert_eq!(out.state.as_deref(), Some("Disabled"));
    let got = l
        .lambda
        .get_event_source_mapping()
        .uuid(out.uuid.unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(
        (got.batch_size, got.maximum_batching_window_in_seconds),
        (Some(500), Some(5))
    );
    assert_eq!(
        got.function_response_types,
        Some(vec![FunctionResponseType::ReportBatchItemFailures])
    );
    assert_eq!(
        got.scaling_config.and_then(|s| s.maximum_concurrency),
        Some(4)
    );
    let patterns: Vec<_> = got
        .filter_criteria
        .unwrap()
        .filters
        .unwrap()
        .into_iter()
        .map(|f| f.pattern.unwrap())
        .collect();
    assert_eq!(patterns, vec![r#"{"body":{"kind":["order"]}}"#.to_owned()]);
    assert_eq!(got.state.as_deref(), Some("Disabled"));
}

#[tokio::test]
async fn list_pages_by_max_items_and_filters_by_queue_and_function() {
    let l = server().await;
    let mut queues = Vec::new();
    for i in 0..5 {
        let (_, arn) = l.queue(&format!("q{i}"), &[]).await;
        l.map("orders", &arn).await;
        queues.push(arn);
    }
    l.map("audit", &queues[0]).await;
    let page = l
        .lambda
        .list_event_source_mappings()
        .max_items(2)
        .send()
        .await
        .unwrap();
    assert_eq!(page.event_source_mappings().len(), 2);
    let marker = page.next_marker.clone().expect("more pages");
    let next = l
        .lambda
        .list_event_source_mappings()
        .max_items(2)
        .marker(&marker)
        .send()
        .await
        .unwrap();
    assert_eq!(next.event_source_mappings().len(), 2);
    assert!(next.event_source_mappings()[0].uuid.as_deref() == Some(marker.as_str()));
    // The SDK's paginator walks every page: six mappings, none twice.
    let all: Vec<_> = l
        .lambda
        .list_event_source_mappings()
        .max_items(4)
        .into_paginator()
        .items()
        .send()
        .collect::<Result<Vec<_>, _>>()
        .await
        .unwrap();
    let mut uuids: Vec<_> = all.iter().map(|m| m.uuid.clone().unwrap()).collect();
    uuids.sort();
    uuids.dedup();
    assert_eq!(uuids.len(), 6);

    let of_queue = l
        .lambda
        .list_event_source_mappings()
        .event_source_arn(&queues[0])
        .send()
        .await
        .unwrap();
    assert_eq!(of_queue.event_source_mappings().len(), 2);
    assert!(of_queue.next_marker.is_none());
    for name in [
        "audit",
        "arn:aws:lambda:us-east-1:000000000000:function:audit",
    ] {
        let of_function = l
            .lambda
            .list_event_source_mappings()
            .function_name(name)
            .send()
            .await
            .unwrap();
        assert_eq!(of_function.event_source_mappings().len(), 1, "{name}");
    }
    let both = l
        .lambda
        .list_event_source_mappings()
        .function_name("orders")
        .event_source_arn(&queues[3])
        .send()
        .await
        .unwrap();
    assert_eq!(both.event_source_mappings().len(), 1);
}

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

#[tokio::test]
async fn update_disables_enables_and_changes_settings() {
    let l = server().await;
    let (_, queue) = l.queue("orders", &[]).await;
    let uuid = l.map("orders", &queue).await.uuid.unwrap();
    assert_eq!(l.settled(&uuid).await, "Enabled");

    let update = || l.lambda.update_event_source_mapping().uuid(&uuid);
    let out = update().enabled(false).send().await.unwrap();
    assert_eq!(out.state.as_deref(), Some("Disabling"));
    assert_eq!(l.settled(&uuid).await, "Disabled");

    let out = update().enabled(true).send().await.unwrap();
    assert_eq!(out.state.as_deref(), Some("Enabling"));
    assert_eq!(l.settled(&uuid).await, "Enabled");

    l.t.advance(60);
    let out = update()
        .batch_size(100)
        .maximum_batching_window_in_seconds(2)
        .function_name("audit")
        .send()
        .await
        .unwrap();
    assert_eq!(out.state.as_deref(), Some("Updating"));
    assert_eq!(
        (out.batch_size, out.maximum_batching_window_in_seconds),
        (Some(100), Some(2))
    );
    assert_eq!(
        out.function_arn.as_deref(),
        Some("arn:aws:lambda:us-east-1:000000000000:function:audit")
    );
    let modified = out.last_modified.unwrap().as_secs_f64();
    assert!((modified - (crate::common::T0 as f64 / 1000.0 + 60.0)).abs() < 1.0);
    assert_eq!(l.settled(&uuid).await, "Enabled");
    let got = l.get(&uuid).await;
    assert_eq!(got.batch_size, Some(100));

    // What an update leaves out stays; empty values remove filters and the concurrency cap.
    let out = update()
        .scaling_config(ScalingConfig::builder().maximum_concurrency(3).build())
        .send()
        .await
        .unwrap();
    assert_eq!(
        out.scaling_config.and_then(|s| s.maximum_concurrency),
        Some(3)
    );
    assert_eq!(out.batch_size, Some(100));
    l.settled(&uuid).await;
    let out = update()
        .scaling_config(ScalingConfig::builder().build())
        .send()
        .await
        .unwrap();
    assert!(out.scaling_config.is_none());
}

#[tokio::test]
async fn delete_answers_deleting_then_the_mapping_is_gone() {
    let l = server().await;
    let (_, queue) = l.queue("orders", &[]).await;
    let uuid = l.map("orders", &queue).await.uuid.unwrap();
    let out = l
        .lambda
        .delete_event_source_mapping()
        .uuid(&uuid)
        .send()
        .await
        .unwrap();
    assert_eq!(out.state.as_deref(), Some("Deleting"));
    assert_eq!(out.uuid.as_deref(), Some(uuid.as_str()));
    let gone = (
        "ResourceNotFoundException".to_owned(),
        404,
        "The resource you requested does not exist.".to_owned(),
    );
    let err = l
        .lambda
        .get_event_source_mapping()
        .uuid(&uuid)
        .send()
        .await
        .unwrap_err();
    assert_eq!(failure(&err), gone);
    let err = l
        .lambda
        .delete_event_source_mapping()
        .uuid(&uuid)
        .send()
        .await
        .unwrap_err();
    assert_eq!(failure(&err), gone);
    let err = l
        .lambda
        .update_event_source_mapping()
        .uuid(&uuid)
        .batch_size(1)
        .send()
        .await
        .unwrap_err();
    assert_eq!(failure(&err), gone);
    // The queue may be mapped to the function again.
    l.map("orders", &queue).await;
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
    for pattern in [
        "not json",
        r#"{"body": "x"}"#,
        r#"{"body": {"a": [{"numeric": ["<"]}]}}"#,
    ] {
        let got = refused_create(&l, |b| {
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
async fn statuses_and_error_shapes_on_the_wire() {
    let l = server().await;
    let (_, queue) = l.queue("orders", &[]).await;
    let json = [("content-type", "application/json")];
    let body = format!(r#"{{"FunctionName":"orders","EventSourceArn":"{queue}"}}"#);
    let r =
        l.t.raw("POST", "/2015-03-31/event-source-mappings/", &json, &body)
            .await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(r.header("x-amzn-requestid").is_some());
    let uuid = r.json()["UUID"].as_str().unwrap().to_owned();
    let r =
        l.t.raw(
            "GET",
            &format!("/2015-03-31/event-source-mappings/{uuid}"),
            &[],
            "",
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r =
        l.t.raw(
            "GET",
            "/2015-03-31/event-source-mappings?MaxItems=1",
            &[],
            "",
        )
        .await;
    assert_eq!(
        (
            r.status,
            r.json()["EventSourceMappings"][0]["UUID"].as_str()
        ),
        (200, Some(uuid.as_str()))
    );

    let r =
        l.t.raw("POST", "/2015-03-31/event-source-mappings/", &json, &body)
            .await;
    assert_eq!(r.status, 409);
    assert_eq!(
        r.header("x-amzn-errortype"),
        Some("ResourceConflictException")
    );
    assert_eq!(r.json()["Type"], "User");
    assert!(r.json()["message"]
        .as_str()
        .unwrap()
        .starts_with("An event source mapping"));
    let r =
        l.t.raw("GET", "/2015-03-31/event-source-mappings/nope", &[], "")
            .await;
    assert_eq!(
        (r.status, r.header("x-amzn-errortype")),
        (404, Some("ResourceNotFoundException"))
    );
    assert_eq!(
        r.json(),
        serde_json::json!({"Type": "User", "Message": "The resource you requested does not exist."})
    );
    let r =
        l.t.raw("POST", "/2015-03-31/event-source-mappings/", &json, "{oops")
            .await;
    assert_eq!(
        (r.status, r.header("x-amzn-errortype")),
        (400, Some("InvalidRequestContentException"))
    );

    let r =
        l.t.raw(
            "DELETE",
            &format!("/2015-03-31/event-source-mappings/{uuid}"),
            &[],
            "",
        )
        .await;
    assert_eq!(
        (r.status, r.json()["State"].as_str()),
        (202, Some("Deleting"))
    );
}

#[tokio::test]
async fn a_mapping_created_through_the_api_invokes_its_function_until_disabled() {
    let handler = crate::common::lambda::Handler::start(vec![]).await;
    let target = sqslite::triggers::Target::Url(handler.url.clone());
    let l = lambda_api::start(vec![sqslite::triggers::Function::new("live", target)]).await;
    let (url, queue) = l.queue("live-orders", &[]).await;
    let uuid = l.map("live", &queue).await.uuid.unwrap();
    assert_eq!(l.settled(&uuid).await, "Enabled");
    l.t.send(&url, "first").await;
    let events = crate::common::lambda::within("an invocation", handler.wait_events(1)).await;
    assert_eq!(events[0]["Records"][0]["body"], "first");
    assert_eq!(events[0]["Records"][0]["eventSourceARN"], queue.as_str());
    // Deleted after the function succeeded, as Lambda deletes a successful batch.
    l.t.wait_counts(&url, (0, 0)).await;

    let out = l
        .lambda
        .update_event_source_mapping()
        .uuid(&uuid)
        .enabled(false)
        .send()
        .await
        .unwrap();
    assert_eq!(out.state.as_deref(), Some("Disabling"));
    assert_eq!(l.settled(&uuid).await, "Disabled");
    l.t.send(&url, "second").await;
    // A disabled mapping leaves the message in the queue, visible, for anyone to receive.
    let got =
        l.t.client
            .receive_message()
            .queue_url(&url)
            .send()
            .await
            .unwrap();
    assert_eq!(got.messages()[0].body(), Some("second"));
    assert_eq!(handler.events().len(), 1);
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
async fn a_mapping_of_another_region_and_account_runs_there() {
    use sqslite::config::Credential;
    let handler = crate::common::lambda::Handler::start(vec![]).await;
    let target = sqslite::triggers::Target::Url(handler.url.clone());
    let mut config = sqslite::Config::ephemeral().with_credential(Credential::new(
        "AKIDOTHER",
        "other-secret",
        "111111111111",
    ));
    config.triggers.functions = vec![sqslite::triggers::Function::new("live", target)];
    let t = crate::common::TestServer::start_with(config).await;
    let sqs = crate::common::client_at(&t.endpoint(), "AKIDOTHER", "other-secret", &t.clock);
    let sqs = aws_sdk_sqs::Client::from_conf(
        sqs.config()
            .to_builder()
            .region(aws_sdk_sqs::config::Region::new("eu-west-1"))
            .build(),
    );
    let url = sqs
        .create_queue()
        .queue_name("far")
        .send()
        .await
        .unwrap()
        .queue_url
        .unwrap();
    let lambda =
        lambda_api::lambda_client_with(&t.endpoint(), "AKIDOTHER", "other-secret", &t.clock);
    let lambda = aws_sdk_lambda::Client::from_conf(
        lambda
            .config()
            .to_builder()
            .region(aws_sdk_lambda::config::Region::new("eu-west-1"))
            .build(),
    );
    let queue = "arn:aws:sqs:eu-west-1:111111111111:far";
    let out = lambda
        .create_event_source_mapping()
        .function_name("live")
        .event_source_arn(queue)
        .send()
        .await
        .unwrap();
    assert_eq!(
        out.function_arn.as_deref(),
        Some("arn:aws:lambda:eu-west-1:111111111111:function:live")
    );
    sqs.send_message()
        .queue_url(&url)
        .message_body("far away")
        .send()
        .await
        .unwrap();
    let events = crate::common::lambda::within("an invocation", handler.wait_events(1)).await;
    assert_eq!(events[0]["Records"][0]["awsRegion"], "eu-west-1");
    assert_eq!(events[0]["Records"][0]["eventSourceARN"], queue);
}
