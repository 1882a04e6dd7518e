//! Lambda-style triggers beyond the plain case: FIFO group order, the concurrency cap,
//! filters, disabled mappings, the `command` and `invoke_url` function kinds, and declared
//! mappings the model refuses, and a queue deleted and created again.

use sqslite::config::{Function, Target};
use sqslite::{Config, QueueDecl};

use crate::common::lambda::{Handler, Reply};
use crate::triggers::{bodies, mapping, reporting, send_all, serve, serve_with};

fn fifo(name: &str) -> QueueDecl {
    QueueDecl::new(name).attribute("FifoQueue", "true")
}

#[tokio::test]
async fn a_fifo_failure_stops_its_group_until_retried() {
    // Group "bad" fails at its first message: its second is held back with it, in order.
    let f = Handler::answering(|event| {
        let first_bad = event["Records"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["body"] == "bad-1")
            .map(|r| serde_json::json!({"itemIdentifier": r["messageId"]}));
        Reply::ok(
            &serde_json::json!({"batchItemFailures": first_bad.into_iter().collect::<Vec<_>>()})
                .to_string(),
        )
    })
    .await;
    let s = serve(&f, fifo("orders.fifo"), reporting("orders.fifo")).await;
    let url = s.server.queue_url("orders.fifo");
    send_all(&s, &url, &["bad-1", "bad-2", "ok-1"]).await;
    let first = &f.wait_events(1).await[0];
    assert_eq!(bodies(first), ["bad-1", "bad-2", "ok-1"]);
    let attributes = &first["Records"][0]["attributes"];
    assert_eq!(attributes["MessageGroupId"], "bad");
    assert_eq!(attributes["MessageDeduplicationId"], "bad-1");
    assert!(attributes["SequenceNumber"].is_string());
    // Only bad-1 is reported, but bad-2 is kept too: its group stopped at bad-1.
    s.wait_counts(&url, (0, 2)).await;
    s.advance(30);
    assert_eq!(bodies(&f.wait_events(2).await[1]), ["bad-1", "bad-2"]);
}

#[tokio::test]
async fn maximum_concurrency_caps_the_invocations_in_flight() {
    let f = Handler::gated().await;
    let mut m = mapping("orders");
    m.batch_size = 1;
    m.maximum_concurrency = Some(2);
    let s = serve(&f, QueueDecl::new("orders"), m).await;
    let url = s.server.queue_url("orders");
    send_all(&s, &url, &["1", "2", "3", "4", "5", "6"]).await;
    f.wait_events(2).await;
    // Two invocations hold their messages; no third batch is taken while they run.
    s.wait_counts(&url, (4, 2)).await;
    assert_eq!(f.running(), 2);
    f.release(6);
    f.wait_events(6).await;
    s.wait_counts(&url, (0, 0)).await;
    assert_eq!(f.most_concurrent(), 2);
}

#[tokio::test]
async fn messages_no_filter_matches_are_deleted_without_an_invocation() {
    let f = Handler::start(vec![]).await;
    let mut m = mapping("orders");
    m.filters = vec![r#"{"body": {"type": ["order"]}}"#.into()];
    let s = serve(&f, QueueDecl::new("orders"), m).await;
    let url = s.server.queue_url("orders");
    send_all(
        &s,
        &url,
        &[
            r#"{"type":"refund"}"#,
            "plain text",
            r#"{"type":"order","id":1}"#,
        ],
    )
    .await;
    let events = f.wait_events(1).await;
    assert_eq!(bodies(&events[0]), [r#"{"type":"order","id":1}"#]);
    s.wait_counts(&url, (0, 0)).await;
    assert_eq!(
        s.trigger_counter("sqslite_trigger_filtered_total", "orders")
            .await,
        2
    );
    assert_eq!(f.events().len(), 1);
}

#[tokio::test]
async fn a_disabled_mapping_does_not_poll() {
    let f = Handler::start(vec![]).await;
    let mut config = Config::ephemeral()
        .with_queue(QueueDecl::new("on"))
        .with_queue(QueueDecl::new("off"));
    config
        .triggers
        .functions
        .push(sqslite::config::Function::new(
            "orders-handler",
            Target::Url(f.url.clone()),
        ));
    config.triggers.mappings.push(mapping("on"));
    let mut off = mapping("off");
    off.enabled = false;
    config.triggers.mappings.push(off);
    let s = crate::common::TestServer::start_with(config).await;
    let (on, off) = (s.server.queue_url("on"), s.server.queue_url("off"));
    s.send(&off, "waits").await;
    s.send(&on, "goes").await;
    assert_eq!(bodies(&f.wait_events(1).await[0]), ["goes"]);
    s.wait_counts(&on, (0, 0)).await;
    assert_eq!(s.counts(&off).await.0, 1);
    assert_eq!(f.events().len(), 1);
}

#[tokio::test]
async fn a_reset_restores_the_declared_mappings_once() {
    let f = Handler::start(vec![]).await;
    let s = serve(&f, QueueDecl::new("orders"), mapping("orders")).await;
    let reset = s.raw("POST", "/_sqslite/reset", &[], "{}").await;
    assert_eq!(reset.status, 200, "{}", reset.body);
    let url = s.server.queue_url("orders");
    s.send(&url, "after reset").await;
    assert_eq!(bodies(&f.wait_events(1).await[0]), ["after reset"]);
    s.wait_counts(&url, (0, 0)).await;
    let metrics = s.raw("GET", "/metrics", &[], "").await.body;
    let mappings = metrics
        .lines()
        .filter(|l| l.starts_with("sqslite_trigger_invocations_total{"))
        .count();
    assert_eq!(mappings, 1, "{metrics}");
}

#[tokio::test]
async fn a_command_function_gets_the_event_on_stdin() {
    let dir = std::env::temp_dir().join(format!("sqslite-trigger-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("events.jsonl");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/inputs/trigger_handler.py"
    );
    let argv = vec!["python3".into(), script.into(), log.display().to_string()];
    let s = serve_with(
        Target::Command(argv),
        QueueDecl::new("orders"),
        reporting("orders"),
    )
    .await;
    let url = s.server.queue_url("orders");
    send_all(&s, &url, &["ok", "bad"]).await;
    s.wait_counts(&url, (0, 1)).await;
    s.send(&url, "fail").await;
    s.wait_counter("sqslite_trigger_errors_total", "orders", 1)
        .await;
    let lines = std::fs::read_to_string(&log).unwrap();
    let events: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(bodies(&events[0]), ["ok", "bad"]);
    assert_eq!(bodies(&events[1]), ["fail"]);
    assert_eq!(s.counts(&url).await.1, 2, "bad and fail stay in flight");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_invoke_api_reports_function_errors_in_a_header() {
    let error = Reply {
        headers: vec![("X-Amz-Function-Error", "Unhandled".into())],
        ..Reply::ok(r#"{"errorMessage":"boom"}"#)
    };
    let f = Handler::start(vec![error]).await;
    let base = f.url.trim_end_matches('/').to_owned();
    let s = serve_with(
        Target::InvokeUrl(base),
        QueueDecl::new("orders"),
        mapping("orders"),
    )
    .await;
    let url = s.server.queue_url("orders");
    s.send(&url, "x").await;
    s.wait_counter("sqslite_trigger_errors_total", "orders", 1)
        .await;
    assert_eq!(s.counts(&url).await.1, 1);
    s.advance(30);
    f.wait_events(2).await;
    s.wait_counts(&url, (0, 0)).await;
    assert_eq!(
        f.calls()[0].0,
        "/2015-03-31/functions/orders-handler/invocations"
    );
}

#[tokio::test]
async fn an_invocation_past_the_function_timeout_fails_the_batch() {
    let f = Handler::gated().await;
    let mut config = Config::ephemeral().with_queue(QueueDecl::new("orders"));
    let mut quick = Function::new("orders-handler", Target::Url(f.url.clone()));
    // The timeout is wall time: one second bounds the held call.
    quick.timeout = std::time::Duration::from_secs(1);
    config.triggers.functions.push(quick);
    config.triggers.mappings.push(mapping("orders"));
    let s = crate::common::TestServer::start_with(config).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "slow").await;
    s.wait_counter("sqslite_trigger_errors_total", "orders", 1)
        .await;
    assert_eq!(
        s.counts(&url).await.1,
        1,
        "the timed-out batch stays in flight"
    );
    f.release(1);
}

#[tokio::test]
async fn declared_mappings_meet_the_models_rules() {
    let text = r#"
[[queues]]
name = "orders.fifo"
FifoQueue = true

[[functions]]
name = "orders-handler"
url = "http://127.0.0.1:9/"

[[event_source_mappings]]
function = "orders-handler"
queue = "orders.fifo"
batch_size = 11
"#;
    let config = Config::from_text("sqslite.toml", text).unwrap().config;
    assert_eq!(config.triggers.mappings[0].batch_size, 11);
    let err = crate::common::TestServer::try_start_with(Config { port: 0, ..config })
        .await
        .err()
        .unwrap();
    assert!(
        err.to_string()
            .contains("Batch size must not exceed 10 for FIFO queues"),
        "{err}"
    );
    let two = "[[functions]]\nname = \"f\"\nurl = \"http://x/\"\ncommand = [\"sh\"]\n";
    let err = Config::from_text("sqslite.toml", two).unwrap_err();
    assert!(err.to_string().contains("exactly one of"), "{err}");
}

/// Lambda's documentation says nothing of a mapping whose queue is deleted and created
/// again; sqslite's choice: the ARN names the queue, so the mapping polls the new one.
#[tokio::test]
async fn a_mapping_polls_its_queue_again_once_it_is_created_again() {
    let f = Handler::start(vec![]).await;
    let s = serve(&f, QueueDecl::new("orders"), mapping("orders")).await;
    let url = s.server.queue_url("orders");
    send_all(&s, &url, &["before"]).await;
    assert_eq!(bodies(&f.wait_events(1).await[0]), ["before"]);
    s.client
        .delete_queue()
        .queue_url(&url)
        .send()
        .await
        .unwrap();
    let url = s
        .create_queue_with("orders", &[("VisibilityTimeout", "30")])
        .await;
    send_all(&s, &url, &["after"]).await;
    let events = f.wait_events(2).await;
    assert_eq!(bodies(&events[1]), ["after"]);
}
