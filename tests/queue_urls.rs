//! Queue URL strategies (Host header, fixed public URL, path-only), URLs in other emulators'
//! styles, and queues created on first use (`--auto-create`).

mod common;

use common::{code, TestServer};
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
    let err = ts
        .client
        .purge_queue()
        .queue_url(format!("{base}/never"))
        .send()
        .await
        .unwrap_err();
    assert_eq!(code(&err), "AWS.SimpleQueueService.NonExistentQueue");
}

#[tokio::test]
async fn without_auto_create_a_missing_queue_stays_missing() {
    let ts = TestServer::start().await;
    let err = ts
        .client
        .send_message()
        .queue_url(format!("{}/000000000000/nope", ts.endpoint()))
        .message_body("x")
        .send()
        .await
        .unwrap_err();
    assert_eq!(code(&err), "AWS.SimpleQueueService.NonExistentQueue");
}

#[tokio::test]
async fn auto_create_with_an_invalid_name_answers_as_sqs_would() {
    let config = Config {
        auto_create: true,
        ..Config::ephemeral()
    };
    let ts = TestServer::start_with(config).await;
    let err = ts
        .client
        .get_queue_url()
        .queue_name("bad name!")
        .send()
        .await
        .unwrap_err();
    assert_eq!(code(&err), "AWS.SimpleQueueService.NonExistentQueue");
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
    let err = ts
        .client
        .send_message()
        .queue_url(&elsewhere)
        .message_body("x")
        .send()
        .await
        .unwrap_err();
    assert_eq!(code(&err), "AWS.SimpleQueueService.NonExistentQueue");
    let err = ts
        .client
        .get_queue_url()
        .queue_name("planted")
        .queue_owner_aws_account_id("222222222222")
        .send()
        .await
        .unwrap_err();
    assert_eq!(code(&err), "AWS.SimpleQueueService.NonExistentQueue");
    let owner = common::client_for(&ts.endpoint(), "us-east-1", "222222222222");
    let listed = owner.list_queues().send().await.unwrap();
    assert!(listed.queue_urls().is_empty(), "{listed:?}");
}
