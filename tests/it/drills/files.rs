//! `sqslite drill run FILE` against a server it did not start (`--endpoint`): a drill file
//! whose consumer is the test's own aws-sdk-sqs loop passes and writes its JUnit verdict, and a
//! drill the server's clock cannot serve stops before it sends anything.

use std::io::Write as _;

use crate::common::TestServer;
use sqslite::drill::file::{run, RunOptions};
use sqslite::{Config, QueueDecl};

/// A drill file in a fresh directory.
pub(super) fn drill_file(text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sqslite-drill-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("drill.toml");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    path
}

pub(super) fn options(file: std::path::PathBuf, endpoint: String) -> RunOptions {
    RunOptions {
        junit: Some(file.with_extension("xml")),
        file,
        endpoint: Some(endpoint),
        serve: false,
        consumer: None,
        report: None,
    }
}

const DRILL: &str = r#"
[drill]
name = "the team's consumer"
look_ms = 10

[requires]
queues = ["orders", "orders-dlq"]

[[method]]
name = "poison"
action = "send"
queue = "orders"
kind = "poison"
body = "<<not json>>"

[[method]]
name = "batch"
action = "send"
queue = "orders"
count = 15

[[expect]]
name = "the batch drains"
deleted = "valid"
within_seconds = 10

[[expect]]
name = "the poison is dead-lettered after 3 receives"
dead_lettered = "poison"
queue = "orders-dlq"
receives = 3
within_seconds = 20
"#;

#[tokio::test]
async fn a_drill_file_runs_against_a_running_server_and_its_own_consumer() {
    let config = Config::ephemeral()
        .with_queue(QueueDecl::new("orders-dlq"))
        .with_queue(
            QueueDecl::new("orders")
                .attribute("VisibilityTimeout", 5)
                .dead_letter("orders-dlq", 3),
        );
    let s = TestServer::start_with(config).await;
    let url = s.create_queue("orders").await;
    let consumer = tokio::spawn(crate::drills::builtin::consume(
        s.client.clone(),
        url,
        s.clock.clone(),
    ));
    let path = drill_file(DRILL);
    let opts = options(path.clone(), s.endpoint());
    let mut out = Vec::new();
    let verdict = run(&opts, &mut out).await.map_err(|e| e.0).unwrap();
    consumer.abort();
    let printed = String::from_utf8_lossy(&out);
    assert!(verdict.passed(), "{printed}");
    assert_eq!(verdict.cases.len(), 2, "{printed}");
    let junit = std::fs::read_to_string(path.with_extension("xml")).unwrap();
    assert!(
        junit.contains(r#"name="the poison is dead-lettered after 3 receives""#),
        "{junit}"
    );
    assert!(!junit.contains("<failure"), "{junit}");
    // The rollback took the drill's messages back out: the poison is gone from the DLQ.
    let left = s
        .client
        .receive_message()
        .queue_url(s.create_queue("orders-dlq").await)
        .send()
        .await
        .unwrap();
    assert!(left.messages().is_empty());
}

#[tokio::test]
async fn a_drill_the_servers_clock_cannot_serve_sends_nothing() {
    // A system clock: the method's `advance` cannot be done.
    let server = sqslite::Server::start(Config::ephemeral()).await.unwrap();
    let text = "[drill]\nname = \"d\"\n\n[[queues]]\nname = \"drilled\"\n\n[[method]]\naction = \"send\"\nqueue = \"drilled\"\n\n[[method]]\naction = \"advance\"\nseconds = 30\n";
    let opts = options(drill_file(text), server.endpoint());
    let err = run(&opts, &mut Vec::new()).await.map(|_| ()).unwrap_err();
    assert!(
        err.0.contains("runs on the system clock; nothing was sent"),
        "{}",
        err.0
    );
    let client = crate::common::client_for(&server.endpoint(), "us-east-1", "AKIDEXAMPLE");
    let queues = client.list_queues().send().await.unwrap();
    assert!(
        queues.queue_urls().is_empty(),
        "the drill created {:?}",
        queues.queue_urls()
    );
    server.shutdown().await;
}

/// A `publish` step goes through SNS; its messages are counted by kind in the queue whether
/// they arrive raw (attributes) or in SNS's envelope, and the rollback finds both.
#[tokio::test]
async fn a_drill_publishes_through_a_topic_on_a_server_of_its_own() {
    let text = r#"
[drill]
name = "fan-out"

[[queues]]
name = "orders"

[[topics]]
name = "order-events"

[[topics.subscriptions]]
protocol = "sqs"
endpoint = "orders"

[[topics]]
name = "raw-events"

[[topics.subscriptions]]
protocol = "sqs"
endpoint = "orders"
RawMessageDelivery = true

[[method]]
action = "publish"
topic = "order-events"
count = 3

[[method]]
action = "publish"
topic = "raw-events"
kind = "raw"
count = 2

[[expect]]
name = "enveloped"
probe = "depth"
queue = "orders"
kind = "valid"
equals = 3
within_seconds = 5

[[expect]]
name = "raw"
probe = "depth"
queue = "orders"
kind = "raw"
equals = 2
within_seconds = 5
"#;
    let opts = RunOptions {
        serve: true,
        endpoint: None,
        ..options(drill_file(text), String::new())
    };
    let mut out = Vec::new();
    let verdict = run(&opts, &mut out).await.map_err(|e| e.0).unwrap();
    let printed = String::from_utf8_lossy(&out);
    assert!(verdict.passed(), "{printed}");
    assert!(
        printed.contains("cleaned up: removed 5 of this run's messages from orders"),
        "{printed}"
    );
}
