//! Queue URL strategies (Host header, fixed public URL, path-only), URLs in other emulators'
//! styles, and queues created on first use (`--auto-create`).

use crate::common::{expect_code, TestServer};
use sqslite::{Config, UrlStyle};

async fn create(ts: &TestServer, name: &str) -> String {
    ts.client
        .create_queue()
        .queue_name(name)
        .send()
        .await
        .unwrap()
        .queue_url
        .unwrap()
}

#[tokio::test]
async fn host_header_style_is_the_default() {
    let ts = TestServer::start().await;
    assert_eq!(
        create(&ts, "q").await,
        format!("{}/000000000000/q", ts.endpoint())
    );
}

#[tokio::test]
async fn a_fixed_public_url_is_used_and_still_resolves_through_localhost() {
    let config = Config {
        public_url: Some("http://sqs:9324".into()),
        ..Config::ephemeral()
    };
    let ts = TestServer::start_with(config).await;
    let url = create(&ts, "q").await;
    assert_eq!(url, "http://sqs:9324/000000000000/q");
    ts.send(&url, "hello").await;
    assert_eq!(ts.counts(&url).await.0, 1);
}

#[tokio::test]
async fn path_only_urls_work_with_the_sdk() {
    let config = Config {
        url_style: UrlStyle::Path,
        ..Config::ephemeral()
    };
    let ts = TestServer::start_with(config).await;
    let url = create(&ts, "q").await;
    assert_eq!(url, "/000000000000/q");
    ts.send(&url, "hello").await;
    assert_eq!(ts.counts(&url).await.0, 1);
}

#[tokio::test]
async fn urls_minted_by_other_emulators_name_the_same_queue() {
    let ts = TestServer::start().await;
    create(&ts, "q").await;
    let styles = [
        "http://elasticmq:9324/000000000000/q",
        "http://localhost:4566/queue/us-east-1/000000000000/q",
        "http://sqs.us-east-1.localhost.localstack.cloud:4566/000000000000/q",
        "http://us-east-1.queue.localhost.localstack.cloud:4566/000000000000/q",
        "http://goaws:4100/queue/q",
        "https://sqs.us-east-1.amazonaws.com/000000000000/q",
    ];
    for url in styles {
        ts.send(url, url).await;
    }
    let url = format!("{}/000000000000/q", ts.endpoint());
    assert_eq!(ts.counts(&url).await.0, styles.len() as u64);
}

#[tokio::test]
async fn auto_create_makes_queues_on_first_send_receive_or_lookup() {
    let config = Config {
        auto_create: true,
        ..Config::ephemeral()
    };
    let ts = TestServer::start_with(config).await;
    let base = format!("{}/000000000000", ts.endpoint());
    ts.send(&format!("{base}/sent-first"), "hi").await;
    assert_eq!(ts.counts(&format!("{base}/sent-first")).await.0, 1);

    let received = ts
        .client
        .receive_message()
        .queue_url(format!("{base}/jobs.fifo"))
        .send()
        .await
        .unwrap();
    assert!(received.messages().is_empty());
    assert_eq!(
        ts.attribute(&format!("{base}/jobs.fifo"), "FifoQueue")
            .await,
        "true"
    );

    let looked_up = ts
        .client
        .get_queue_url()
        .queue_name("looked-up")
        .send()
        .await
        .unwrap();
    assert_eq!(looked_up.queue_url.unwrap(), format!("{base}/looked-up"));

    // Other actions do not create queues.
    expect_code(
        ts.client
            .purge_queue()
            .queue_url(format!("{base}/never"))
            .send()
            .await,
        "AWS.SimpleQueueService.NonExistentQueue",
    );
}

#[tokio::test]
async fn without_auto_create_a_missing_queue_stays_missing() {
    let ts = TestServer::start().await;
    expect_code(
        ts.client
            .send_message()
            .queue_url(format!("{}/000000000000/nope", ts.endpoint()))
            .message_body("x")
            .send()
            .await,
        "AWS.SimpleQueueService.NonExistentQueue",
    );
}

#[tokio::test]
async fn auto_create_with_an_invalid_name_answers_as_sqs_would() {
    let config = Config {
        auto_create: true,
        ..Config::ephemeral()
    };
    let ts = TestServer::start_with(config).await;
    expect_code(
        ts.client
            .get_queue_url()
            .queue_name("bad name!")
            .send()
            .await,
        "AWS.SimpleQueueService.NonExistentQueue",
    );
}

#[tokio::test]
async fn region_style_mints_aws_shaped_urls_for_the_signed_region() {
    let config = Config {
        url_style: UrlStyle::Region,
        ..Config::ephemeral()
    };
    let ts = TestServer::start_with(config).await;
    let port = ts.server.local_addr().port();
    let client =
        crate::common::client_for(&format!("http://localhost:{port}"), "eu-west-1", "AKID");
    let url = client
        .create_queue()
        .queue_name("q")
        .send()
        .await
        .unwrap()
        .queue_url
        .unwrap();
    assert_eq!(
        url,
        format!("http://sqs.eu-west-1.localhost:{port}/000000000000/q")
    );
    client
        .send_message()
        .queue_url(&url)
        .message_body("hi")
        .send()
        .await
        .unwrap();
    // The URL's host names the region, so it resolves there through any endpoint.
    let arn = ts.attribute(&url, "QueueArn").await;
    assert_eq!(arn, "arn:aws:sqs:eu-west-1:000000000000:q");
    // A Host that already names the region is not prefixed twice.
    let host = format!("sqs.eu-west-1.localhost:{port}");
    let r = ts
        .raw(
            "GET",
            "/?Action=GetQueueUrl&QueueName=q",
            &[("host", host.as_str())],
            "",
        )
        .await;
    assert_eq!(
        r.xml("QueueUrl"),
        Some(format!("http://{host}/000000000000/q"))
    );
}

#[tokio::test]
async fn a_regional_host_chooses_the_region_of_an_unsigned_request() {
    let ts = TestServer::start().await;
    let port = ts.server.local_addr().port();
    let host = format!("sqs.ap-south-1.localhost:{port}");
    let r = ts
        .raw(
            "GET",
            "/?Action=CreateQueue&QueueName=regional",
            &[("host", host.as_str())],
            "",
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let url = r.xml("QueueUrl").unwrap();
    assert_eq!(
        ts.attribute(&url, "QueueArn").await,
        "arn:aws:sqs:ap-south-1:000000000000:regional"
    );
    // A signature's region still wins over the Host's.
    let us = ts.client.list_queues().send().await.unwrap();
    assert!(us.queue_urls().is_empty(), "{:?}", us.queue_urls());
}

/// A caller creates queues on first use in its own account only; any other account's name
/// stays missing (before, any key could fill any account's namespace).
#[tokio::test]
async fn auto_create_stays_in_the_callers_account() {
    let config = Config {
        auto_create: true,
        ..Config::ephemeral()
    };
    let ts = TestServer::start_with(config).await;
    let elsewhere = format!("{}/222222222222/planted", ts.endpoint());
    expect_code(
        ts.client
            .send_message()
            .queue_url(&elsewhere)
            .message_body("x")
            .send()
            .await,
        "AWS.SimpleQueueService.NonExistentQueue",
    );
    expect_code(
        ts.client
            .get_queue_url()
            .queue_name("planted")
            .queue_owner_aws_account_id("222222222222")
            .send()
            .await,
        "AWS.SimpleQueueService.NonExistentQueue",
    );
    let owner = crate::common::client_for(&ts.endpoint(), "us-east-1", "222222222222");
    let listed = owner.list_queues().send().await.unwrap();
    assert!(listed.queue_urls().is_empty(), "{listed:?}");
}
