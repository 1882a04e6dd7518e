//! Observed processing time and the dead-letter advisor: consumers with known processing
//! times under the manual clock, checked through the admin API, `/metrics` and the real
//! `sqslite doctor` binary.

mod common;

use common::TestServer;
use serde_json::Value;

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
    ] {
        assert!(metrics.contains(&line), "missing {line} in\n{metrics}");
    }
}
