//! Coming from LocalStack (docs/src/migration.md): the binary started with the flags the guide gives mints
//! LocalStack's queue URLs, and the URLs a LocalStack suite hard-codes reach the same queue.

use std::process::{Command, Stdio};

use crate::common::TestServer;
use sqslite::Config;

const LOCALSTACK_BASE: &str = "http://sqs.us-east-1.localhost.localstack.cloud:4566";

/// Every shape a test suite written for LocalStack may have stored for queue `orders`.
const LOCALSTACK_URLS: [&str; 5] = [
    "http://sqs.us-east-1.localhost.localstack.cloud:4566/000000000000/orders",
    // LOCALSTACK_HOST=localstack:4566, as in a docker-compose file.
    "http://sqs.us-east-1.localstack:4566/000000000000/orders",
    "http://us-east-1.queue.localhost.localstack.cloud:4566/000000000000/orders",
    // SQS_ENDPOINT_STRATEGY=path and =off.
    "http://localhost:4566/queue/us-east-1/000000000000/orders",
    "http://localhost:4566/000000000000/orders",
];

#[tokio::test]
async fn the_guides_flags_mint_localstack_urls() {
    // As in the guide, with port 0 for 4566 so that parallel runs never collide.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sqslite"));
    cmd.args(["--port", "0", "--public-url", LOCALSTACK_BASE])
        .env("SQSLITE_LOG", "info")
        .stdout(Stdio::null());
    let (child, endpoint) = crate::common::spawn_listening(&mut cmd);
    let _server = crate::common::KillOnDrop(child);
    let client = crate::common::client_for(&endpoint, "us-east-1", "test");
    let url = client
        .create_queue()
        .queue_name("orders")
        .send()
        .await
        .unwrap()
        .queue_url
        .unwrap();
    assert_eq!(url, LOCALSTACK_URLS[0]);
    let looked_up = client.get_queue_url().queue_name("orders").send().await;
    assert_eq!(looked_up.unwrap().queue_url.unwrap(), url);
    let listed = client.list_queues().send().await.unwrap();
    assert_eq!(listed.queue_urls(), std::slice::from_ref(&url));
    for stored in LOCALSTACK_URLS {
        client
            .send_message()
            .queue_url(stored)
            .message_body(stored)
            .send()
            .await
            .unwrap();
    }
    // LocalStack's developer endpoint, given the URL LocalStack would have minted.
    let peek = crate::common::raw(
        &endpoint,
        "GET",
        &format!("/_aws/sqs/messages?QueueUrl={url}"),
        &[("accept", "application/json")],
        "",
    )
    .await;
    assert_eq!(peek.status, 200, "{}", peek.body);
    let bodies: Vec<String> = peek.json()["Messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["Body"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(bodies, LOCALSTACK_URLS);
}

#[tokio::test]
async fn localstack_urls_reach_queues_made_in_the_default_style() {
    // No flags at all: URLs minted by LocalStack still name the queue by their path.
    let ts = TestServer::start_with(Config::ephemeral()).await;
    let url = ts.create_queue("orders").await;
    for stored in LOCALSTACK_URLS {
        ts.send(stored, stored).await;
    }
    assert_eq!(ts.counts(&url).await.0, LOCALSTACK_URLS.len() as u64);
}

#[tokio::test]
async fn the_region_style_mints_each_regions_localstack_url() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sqslite"));
    cmd.args(["--port", "0", "--url-style", "region"])
        .args(["--public-url", "http://localhost.localstack.cloud:4566"])
        .stdout(Stdio::null());
    let (child, endpoint) = crate::common::spawn_listening(&mut cmd);
    let _server = crate::common::KillOnDrop(child);
    for region in ["us-east-1", "eu-west-1"] {
        let client = crate::common::client_for(&endpoint, region, "test");
        let url = client
            .create_queue()
            .queue_name("orders")
            .send()
            .await
            .unwrap()
            .queue_url
            .unwrap();
        assert_eq!(
            url,
            format!("http://sqs.{region}.localhost.localstack.cloud:4566/000000000000/orders")
        );
        client
            .send_message()
            .queue_url(&url)
            .message_body(region)
            .send()
            .await
            .unwrap();
        let got = client
            .receive_message()
            .queue_url(&url)
            .send()
            .await
            .unwrap();
        assert_eq!(
            got.messages()[0].body(),
            Some(region),
            "the URL finds its own region's queue"
        );
    }
}

/// The developer endpoint reads its `QueueUrl` as the SQS path reads one: a queue outside the
/// server's region is found from the region a LocalStack URL names (before, only `Region=`
/// could name it, so these URLs got a 404).
#[tokio::test]
async fn the_developer_endpoint_reads_the_region_from_the_queue_url() {
    let decl = sqslite::QueueDecl {
        region: Some("eu-west-1".into()),
        ..sqslite::QueueDecl::new("orders")
    };
    let t = TestServer::start_with(Config::ephemeral().with_queue(decl)).await;
    let client = crate::common::client_for(&t.endpoint(), "eu-west-1", "test");
    let url = client
        .get_queue_url()
        .queue_name("orders")
        .send()
        .await
        .unwrap()
        .queue_url
        .unwrap();
    client
        .send_message()
        .queue_url(&url)
        .message_body("in eu-west-1")
        .send()
        .await
        .unwrap();
    let t = &t;
    let peek = |query: String| async move {
        let path = format!("/_aws/sqs/messages?{query}");
        t.raw("GET", &path, &[("accept", "application/json")], "")
            .await
    };
    for stored in [
        "http://sqs.eu-west-1.localhost.localstack.cloud:4566/000000000000/orders",
        "http://eu-west-1.queue.localhost.localstack.cloud:4566/000000000000/orders",
        "http://localhost:4566/queue/eu-west-1/000000000000/orders",
    ] {
        let r = peek(format!("QueueUrl={stored}")).await;
        assert_eq!(r.status, 200, "{stored}: {}", r.body);
        assert_eq!(r.json()["Messages"][0]["Body"], "in eu-west-1", "{stored}");
    }
    // A URL naming no region is in the server's (us-east-1), unless `Region=` says otherwise.
    let plain = "http://localhost:4566/000000000000/orders";
    assert_eq!(peek(format!("QueueUrl={plain}")).await.status, 404);
    let r = peek(format!("QueueUrl={plain}&Region=eu-west-1")).await;
    assert_eq!(r.status, 200, "{}", r.body);
}
