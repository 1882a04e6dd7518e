//! Observed processing time and the dead-letter advisor: consumers with known processing
//! times under the manual clock, checked through the admin API, `/metrics` and the real
//! `sqslite doctor` binary.

use crate::common::TestServer;
use aws_sdk_sqs::types::QueueAttributeName;
use serde_json::Value;
use sqslite::{Config, QueueDecl};

async fn get(s: &TestServer, path: &str) -> (u16, Value) {
    let r = s.raw("GET", path, &[], "").await;
    let body = serde_json::from_str(&r.body).unwrap_or(Value::Null);
    (r.status, body)
}

/// Receives one message, holds it `hold_ms` on the server's clock, then deletes it.
async fn process(s: &TestServer, url: &str, hold_ms: u64) {
    let out = s.receive(url).await;
    let handle = out.messages()[0].receipt_handle().unwrap().to_owned();
    s.advance_ms(hold_ms);
    s.delete(url, &handle).await;
}

#[tokio::test]
async fn processing_time_is_measured_from_the_latest_receive_to_the_delete() {
    let s = TestServer::start().await;
    let url = s
        .create_queue_with("work", &[("VisibilityTimeout", "30")])
        .await;
    for hold in 1..=100 {
        s.send(&url, "job").await;
        process(&s, &url, hold * 100).await;
    }
    // One message times out once, then is processed in 2 s: measured from its second receive.
    s.send(&url, "slow").await;
    s.receive(&url).await;
    s.advance(31);
    process(&s, &url, 2_000).await;
    // A heartbeat 20 s into the work.
    s.send(&url, "beat").await;
    let out = s.receive(&url).await;
    let handle = out.messages()[0].receipt_handle().unwrap().to_owned();
    s.advance(20);
    s.set_visibility(&url, &handle, 60).await;
    s.advance(1);
    s.delete(&url, &handle).await;

    let (status, q) = get(&s, "/_sqslite/queues/work").await;
    assert_eq!(status, 200);
    let p = &q["processing"];
    assert_eq!(p["deleted"], 102, "{p}");
    assert_eq!(p["redelivered_then_deleted"], 1);
    assert_eq!(p["receive_to_delete"]["p50_ms"], 5_000);
    assert_eq!(p["receive_to_delete"]["p99_ms"], 10_000);
    assert_eq!(p["receive_to_delete"]["max_ms"], 21_000);
    assert_eq!(p["extended"], 1);
    assert_eq!(p["receive_to_extend"]["max_ms"], 20_000);

    let metrics = s.raw("GET", "/metrics", &[], "").await.body;
    let labels = r#"queue="work",region="us-east-1",account="000000000000""#;
    for line in [
        format!(r#"sqslite_processing_seconds_bucket{{{labels},le="1"}} 10"#),
        format!(r#"sqslite_processing_seconds_bucket{{{labels},le="+Inf"}} 102"#),
        format!("sqslite_processing_seconds_count{{{labels}}} 102"),
        format!("sqslite_visibility_extension_seconds_count{{{labels}}} 1"),
        format!("sqslite_redelivered_then_deleted_total{{{labels}}} 1"),
        "# TYPE sqslite_processing_seconds histogram\n".to_owned(),
        format!(r#"sqslite_processing_seconds_bucket{{{labels},le="0.01"}} "#),
        format!(r#"sqslite_visibility_extension_seconds_bucket{{{labels},le="30"}} 1"#),
        format!("sqslite_processing_seconds_sum{{{labels}}} "),
    ] {
        assert!(metrics.contains(&line), "missing {line} in\n{metrics}");
    }
}

fn pair(visibility: u32, max_receives: u32) -> Config {
    Config::ephemeral()
        .with_queue(QueueDecl::new("orders-dlq").attribute("MessageRetentionPeriod", 1_209_600))
        .with_queue(
            QueueDecl::new("orders")
                .attribute("VisibilityTimeout", visibility)
                .dead_letter("orders-dlq", max_receives),
        )
}

async fn findings(s: &TestServer) -> Vec<Value> {
    let (status, advice) = get(s, "/_sqslite/advice").await;
    assert_eq!(status, 200, "{advice}");
    advice["findings"].as_array().unwrap().clone()
}

fn rules_of(found: &[Value]) -> Vec<(String, String)> {
    found
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["queue"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// `n` messages, each processed in `hold_ms`.
async fn consume(s: &TestServer, url: &str, n: u64, hold_ms: u64) {
    for _ in 0..n {
        s.send(url, "job").await;
        process(s, url, hold_ms).await;
    }
}

#[tokio::test]
async fn a_well_configured_queue_has_no_findings() {
    let s = TestServer::start_with(pair(30, 5)).await;
    consume(&s, &s.server.queue_url("orders"), 20, 4_000).await;
    assert_eq!(findings(&s).await, Vec::<Value>::new());
}

#[tokio::test]
async fn a_slow_consumer_gets_the_visibility_timeout_it_needs() {
    let s = TestServer::start_with(pair(10, 5)).await;
    let url = s.server.queue_url("orders");
    consume(&s, &url, 20, 5_000).await;
    let found = findings(&s).await;
    assert_eq!(
        rules_of(&found),
        [("visibility_timeout".into(), "orders".into())]
    );
    let f = &found[0];
    assert_eq!(f["severity"], "warn");
    assert_eq!(f["figures"]["p99_ms"], 5_000);
    assert_eq!(f["figures"]["suggested_seconds"], 30);
    assert_eq!(f["fix"]["attributes"]["VisibilityTimeout"], "30");
    let command = f["fix"]["commands"][0].as_str().unwrap();
    let endpoint = s.endpoint();
    assert_eq!(
        command,
        format!("aws sqs set-queue-attributes --endpoint-url {endpoint} --queue-url {url} --attributes '{{\"VisibilityTimeout\":\"30\"}}'")
    );
    // Applying the fix clears the finding.
    s.set_attribute(&url, QueueAttributeName::VisibilityTimeout, "30")
        .await
        .unwrap();
    assert_eq!(findings(&s).await, Vec::<Value>::new());
}

#[tokio::test]
async fn work_deleted_after_a_redelivery_is_false_poison_risk() {
    let s = TestServer::start_with(pair(30, 5)).await;
    let url = s.server.queue_url("orders");
    consume(&s, &url, 3, 1_000).await;
    s.send(&url, "slow").await;
    s.receive(&url).await;
    s.advance(31);
    process(&s, &url, 35_000).await;
    let found = findings(&s).await;
    assert_eq!(
        rules_of(&found),
        [("visibility_timeout".into(), "orders".into())]
    );
    assert_eq!(found[0]["figures"]["redelivered_then_deleted"], 1);
    assert_eq!(found[0]["figures"]["suggested_seconds"], 210);
}

#[tokio::test]
async fn each_wiring_rule_through_the_admin_api() {
    let config = Config::ephemeral()
        .with_queue(QueueDecl::new("short-dlq"))
        .with_queue(QueueDecl::new("jobs").dead_letter("short-dlq", 1))
        .with_queue(QueueDecl::new("loose"))
        .with_queue(QueueDecl::new("idle"))
        .with_queue(
            QueueDecl::new("events-dlq.fifo")
                .attribute("FifoQueue", true)
                .attribute("MessageRetentionPeriod", 1_209_600),
        )
        .with_queue(
            QueueDecl::new("events.fifo")
                .attribute("FifoQueue", true)
                .attribute("VisibilityTimeout", 120)
                .dead_letter("events-dlq.fifo", 5),
        );
    let s = TestServer::start_with(config).await;
    let loose = s.server.queue_url("loose");
    s.send(&loose, "x").await;
    s.receive(&loose).await;
    // One receive without a delete dead-letters at maxReceiveCount 1: the DLQ holds a message.
    let jobs = s.server.queue_url("jobs");
    s.send(&jobs, "x").await;
    s.receive(&jobs).await;
    s.advance(31);
    s.receive(&jobs).await;
    let found = findings(&s).await;
    assert_eq!(
        rules_of(&found),
        [
            ("redrive_policy_missing", "loose"),
            ("fifo_head_of_line", "events.fifo"),
            ("max_receive_count", "jobs"),
            ("dlq_alarm", "short-dlq"),
            ("dlq_retention", "short-dlq"),
        ]
        .map(|(r, q)| (r.to_owned(), q.to_owned()))
    );
    let stall = &found[1];
    assert_eq!(stall["figures"]["stall_seconds"], 600);
    assert!(stall["message"]
        .as_str()
        .unwrap()
        .contains("5 x 120 s = 600 s"));
    assert_eq!(found[3]["figures"]["messages"], 1);
    assert_eq!(
        found[4]["fix"]["attributes"]["MessageRetentionPeriod"],
        "1209600"
    );
}

#[tokio::test]
async fn a_dead_letter_queue_that_no_longer_allows_its_source() {
    let s = TestServer::start_with(pair(30, 5)).await;
    let dlq = s.server.queue_url("orders-dlq");
    let policy = r#"{"redrivePermission":"denyAll"}"#;
    s.set_attribute(&dlq, QueueAttributeName::RedriveAllowPolicy, policy)
        .await
        .unwrap();
    let found = findings(&s).await;
    assert_eq!(
        rules_of(&found),
        [("dlq_not_allowed".into(), "orders".into())]
    );
    assert_eq!(found[0]["severity"], "error");
    assert_eq!(found[0]["fix"]["queue"], "orders-dlq");
}

#[tokio::test]
async fn thresholds_come_from_the_config() {
    let mut config = pair(10, 5);
    config.advisor.visibility_factor = 2;
    let s = TestServer::start_with(config).await;
    consume(&s, &s.server.queue_url("orders"), 20, 5_000).await;
    assert_eq!(findings(&s).await, Vec::<Value>::new());
    let (_, advice) = get(&s, "/_sqslite/advice").await;
    assert_eq!(advice["thresholds"]["visibility_factor"], 2);
}

async fn alarm(s: &TestServer, kind: &str, queue: &str) -> Value {
    let (_, alarms) = get(s, "/_sqslite/alarms").await;
    alarms["alarms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == kind && a["queue"] == queue)
        .cloned()
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn the_receive_count_alarm_pages_before_the_dead_letter() {
    let s = TestServer::start_with(pair(30, 4).with_queue(QueueDecl::new("loop"))).await;
    for (queue, threshold) in [("orders", 3), ("loop", 5)] {
        let url = s.server.queue_url(queue);
        s.send(&url, "poison").await;
        for _ in 1..threshold {
            s.receive(&url).await;
            s.advance(31);
        }
        let a = alarm(&s, "receive_count", queue).await;
        assert_eq!(
            (a["state"].as_str(), a["threshold"].as_u64()),
            (Some("OK"), Some(threshold)),
            "{a}"
        );
        s.receive(&url).await;
        let a = alarm(&s, "receive_count", queue).await;
        assert_eq!(
            (a["state"].as_str(), a["value"].as_u64()),
            (Some("ALARM"), Some(threshold)),
            "{a}"
        );
    }
    // Dead-lettered at the next receive: the source's alarm is back to OK.
    let orders = s.server.queue_url("orders");
    s.advance(31);
    s.receive(&orders).await;
    s.advance(31);
    s.receive(&orders).await;
    assert_eq!(alarm(&s, "receive_count", "orders").await["state"], "OK");
    assert_eq!(alarm(&s, "dlq_depth", "orders-dlq").await["state"], "ALARM");
}

/// Runs the real `sqslite doctor` against the server: its exit status and what it printed.
pub(crate) async fn doctor(s: &TestServer, args: &[&str]) -> (Option<i32>, String) {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_sqslite"))
        .arg("doctor")
        .args(["--endpoint", &s.endpoint()])
        .args(args)
        .output()
        .await
        .expect("sqslite runs");
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[tokio::test]
async fn sqslite_doctor_prints_text_json_and_fails_ci() {
    let s = TestServer::start_with(pair(10, 5)).await;
    let url = s.server.queue_url("orders");
    consume(&s, &url, 20, 5_000).await;

    let (code, text) = doctor(&s, &[]).await;
    assert_eq!(
        code,
        Some(0),
        "only a warning: the default --fail-on error passes\n{text}"
    );
    assert!(
        text.starts_with("1 finding(s) on 2 queue(s): 0 error, 1 warn, 0 info\n"),
        "{text}"
    );
    assert!(
        text.contains("WARN   orders  [visibility_timeout]"),
        "{text}"
    );
    assert!(
        text.contains("VisibilityTimeout 10 s; processing p50 5000 ms, p99 5000 ms"),
        "{text}"
    );
    assert!(
        text.contains("fix: raise VisibilityTimeout to 30 s"),
        "{text}"
    );
    assert!(
        text.contains("--attributes '{\"VisibilityTimeout\":\"30\"}'"),
        "{text}"
    );

    let (code, _) = doctor(&s, &["--fail-on", "warn"]).await;
    assert_eq!(code, Some(1));
    let (code, json) = doctor(&s, &["--json", "--fail-on", "warn"]).await;
    assert_eq!(code, Some(1));
    let advice: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(advice["findings"][0]["rule"], "visibility_timeout");

    // An unread queue without a RedrivePolicy is fine; once read, it is an error.
    let bare = s.create_queue("bare").await;
    s.send(&bare, "x").await;
    s.receive(&bare).await;
    let (code, text) = doctor(&s, &["--queue", "bare"]).await;
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.starts_with("1 finding(s) on 1 queue(s): 1 error"),
        "{text}"
    );
    assert!(text.contains("aws sqs create-queue"), "{text}");

    s.set_attribute(&url, QueueAttributeName::VisibilityTimeout, "30")
        .await
        .unwrap();
    let (code, text) = doctor(&s, &["--queue", "orders", "--fail-on", "warn"]).await;
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("every queue follows the dead-letter rules"),
        "{text}"
    );

    let (code, _) = doctor(&s, &["--endpoint", "http://127.0.0.1:1"]).await;
    assert_eq!(code, Some(2));
}
