//! Mappings made through the Lambda API driving the runtime: the function gets the event,
//! a disabled mapping stops, and a caller of another region and account gets a mapping there.

use crate::common::lambda_api;

#[tokio::test]
async fn a_mapping_created_through_the_api_invokes_its_function_until_disabled() {
    let handler = crate::common::lambda::Handler::start(vec![]).await;
    let target = sqslite::config::Target::Url(handler.url.clone());
    let l = lambda_api::start(vec![sqslite::config::Function::new("live", target)]).await;
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
async fn a_mapping_of_another_region_and_account_runs_there() {
    use sqslite::config::Credential;
    let handler = crate::common::lambda::Handler::start(vec![]).await;
    let target = sqslite::config::Target::Url(handler.url.clone());
    let mut config = sqslite::Config::ephemeral().with_credential(Credential::new(
        "AKIDOTHER",
        "other-secret",
        "111111111111",
    ));
    config.triggers.functions = vec![sqslite::config::Function::new("live", target)];
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
