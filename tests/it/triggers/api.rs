//! Lambda's event-source-mapping API through the real `aws-sdk-lambda` client: create, get,
//! list (with pagination), update, delete and the wire shapes; mappings made through the API
//! driving the runtime in `api_live.rs`, the refusals in `api_errors.rs`.

use aws_sdk_lambda::types::{Filter, FilterCriteria, FunctionResponseType, ScalingConfig};

use crate::common::lambda_api::{failure, server, Lambda, ORDERS_ARN};

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
    pages_of_two_and_the_paginator_see_all_six(&l).await;
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

/// MaxItems pages with a marker; the SDK's paginator walks every page.
async fn pages_of_two_and_the_paginator_see_all_six(l: &Lambda) {
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

    errors_have_lambdas_statuses_and_shapes(&l, &body).await;
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

/// A conflict, an unknown mapping and a malformed body, each in Lambda's error shape.
async fn errors_have_lambdas_statuses_and_shapes(l: &Lambda, body: &str) {
    let json = [("content-type", "application/json")];
    let r =
        l.t.raw("POST", "/2015-03-31/event-source-mappings/", &json, body)
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
}
