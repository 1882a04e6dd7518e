//! The dashboard chart's data, `GET /_sqslite/queues/<name>/series`, on a manual clock: a
//! queue's and its dead-letter queue's samples at the server-clock instants the clock stood
//! at, an alarm firing and a fault rule's hits marked where they happened.

use serde_json::{json, Value};
use sqslite::{Config, QueueDecl};

use crate::common::{TestServer, T0};

fn with_dlq() -> Config {
    crate::common::orders_with_dlq(1)
}

async fn series(s: &TestServer, name: &str) -> Value {
    let r = s
        .raw("GET", &format!("/_sqslite/queues/{name}/series"), &[], "")
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Evaluates the alarms now, so their changes are stamped with this instant (the ticker's
/// own round would come a little later, maybe after the next advance).
async fn evaluate_alarms(s: &TestServer) {
    assert_eq!(s.raw("GET", "/_sqslite/alarms", &[], "").await.status, 200);
}

async fn receive_one(s: &TestServer, url: &str) -> usize {
    let out = s.client.receive_message().queue_url(url).send().await;
    out.expect("receive").messages().len()
}

fn sample(t: u64, visible: u32, in_flight: u32, age: Option<u32>) -> Value {
    json!({"t": t, "visible": visible, "in_flight": in_flight, "delayed": 0,
           "oldest_message_age_seconds": age})
}

fn marks<'a>(v: &'a Value, kind: &str) -> Vec<&'a Value> {
    let events = v["events"].as_array().unwrap();
    events.iter().filter(|e| e["kind"] == kind).collect()
}

#[tokio::test]
async fn samples_follow_the_manual_clock_and_marks_land_where_they_happened() {
    let s = TestServer::start_with(with_dlq()).await;
    let url = s.server.queue_url("orders");
    let first = series(&s, "orders").await;
    assert_eq!(first["now"], T0);
    assert_eq!(first["manual"], true);
    assert_eq!(first["queue"]["samples"], json!([sample(T0, 0, 0, None)]));
    assert_eq!(first["dead_letter_queue"]["name"], "orders-dlq");
    assert_eq!(first["events"], json!([]));

    s.send(&url, "order 1").await;
    let after_send = series(&s, "orders").await;
    assert_eq!(
        after_send["queue"]["samples"],
        json!([sample(T0, 1, 0, Some(0))])
    );

    s.advance(10);
    assert_eq!(receive_one(&s, &url).await, 1);
    evaluate_alarms(&s).await;
    let received = series(&s, "orders").await;
    let t1 = T0 + 10_000;
    assert_eq!(
        received["queue"]["samples"],
        json!([sample(T0, 1, 0, Some(0)), sample(t1, 0, 1, Some(10))])
    );
    let alarms = marks(&received, "alarm");
    assert_eq!(
        alarms,
        [&json!({"t": t1, "kind": "alarm", "queue": "orders",
                 "alarm": "receive_count", "state": "ALARM"})]
    );

    two_throttled_sends_mark_a_fault(&s, &url, t1).await;

    s.advance(31);
    assert_eq!(
        receive_one(&s, &url).await,
        0,
        "moved to the DLQ on its second receive"
    );
    evaluate_alarms(&s).await;
    let t2 = T0 + 41_000;
    let moved = series(&s, "orders").await;
    let queue = moved["queue"]["samples"].as_array().unwrap();
    assert_eq!(queue.last(), Some(&sample(t2, 0, 0, None)));
    let dlq = moved["dead_letter_queue"]["samples"].as_array().unwrap();
    let dlq_at: Vec<(u64, u64)> = dlq
        .iter()
        .map(|p| (p["t"].as_u64().unwrap(), p["visible"].as_u64().unwrap()))
        .collect();
    assert_eq!(dlq_at, [(T0, 0), (t1, 0), (t2, 1)]);
    let fired: Vec<(&Value, &Value, &Value)> = marks(&moved, "alarm")
        .into_iter()
        .map(|e| (&e["t"], &e["alarm"], &e["state"]))
        .collect();
    assert!(
        fired.contains(&(&json!(t2), &json!("dlq_depth"), &json!("ALARM"))),
        "{fired:?}"
    );
}

/// A fault rule throttling two sends, marked once with its two hits at `t1`.
async fn two_throttled_sends_mark_a_fault(s: &TestServer, url: &str, t1: u64) {
    let rule = json!({"action": "SendMessage", "queue": "orders",
                      "error": "RequestThrottled", "count": 2});
    let added = s
        .raw("POST", "/_sqslite/faults", &[], &rule.to_string())
        .await;
    assert_eq!(added.status, 201, "{}", added.body);
    let send = format!(r#"{{"QueueUrl": "{url}", "MessageBody": "throttled"}}"#);
    for _ in 0..2 {
        assert_eq!(s.json("SendMessage", &send).await.status, 403);
    }
    let faulted = series(s, "orders").await;
    assert_eq!(
        marks(&faulted, "fault"),
        [
            &json!({"t": t1, "kind": "fault", "queue": "orders", "rule": added.json()["id"],
                 "action": "SendMessage", "effect": "RequestThrottled", "hits": 2})
        ]
    );
}

#[tokio::test]
async fn a_fault_on_another_queue_is_not_marked_and_an_unknown_queue_is_a_404() {
    let s = TestServer::start_with(with_dlq()).await;
    let other = s.create_queue("other").await;
    let rule = json!({"action": "SendMessage", "error": "InternalError"});
    let added = s
        .raw("POST", "/_sqslite/faults", &[], &rule.to_string())
        .await;
    assert_eq!(added.status, 201);
    let send = format!(r#"{{"QueueUrl": "{other}", "MessageBody": "x"}}"#);
    assert_eq!(s.json("SendMessage", &send).await.status, 500);
    assert_eq!(series(&s, "orders").await["events"], json!([]));
    assert_eq!(marks(&series(&s, "other").await, "fault").len(), 1);
    assert_eq!(series(&s, "other").await["dead_letter_queue"], Value::Null);
    let missing = s.raw("GET", "/_sqslite/queues/nope/series", &[], "").await;
    assert_eq!(missing.status, 404);
}

#[tokio::test]
async fn a_mappings_invocations_and_errors_are_a_series_on_its_queues_chart() {
    use crate::common::lambda::{Handler, Reply};
    let f = Handler::start(vec![Reply::status(500)]).await;
    let orders = QueueDecl::new("orders");
    let s = crate::triggers::serve(&f, orders, crate::triggers::mapping("orders")).await;
    let url = s.server.queue_url("orders");
    crate::triggers::send_all(&s, &url, &["a", "b"]).await;
    f.wait_events(1).await;
    s.wait_counter("sqslite_trigger_errors_total", "orders", 1)
        .await;
    let chart = series(&s, "orders").await;
    let named = chart["series"].as_array().unwrap();
    assert_eq!(named.len(), 1, "{named:?}");
    assert!(named[0]["name"].as_str().unwrap().starts_with("mapping "));
    assert_eq!(named[0]["subject"], chart["queue"]["arn"]);
    assert_eq!(
        named[0]["points"],
        json!([{"t": T0, "errors": 1, "invocations": 1}])
    );
    assert_eq!(series(&s, "orders-dlq").await["series"], json!([]));
}
