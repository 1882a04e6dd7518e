//! Alarms read back whole: every field of `GET /_sqslite/alarms` (names, reasons, history)
//! and the `sqslite_alarm_firing` series of `/metrics`, across OK -> ALARM -> OK -> ALARM.

use crate::common::TestServer;
use serde_json::{json, Value};
use sqslite::Config;

fn with_dlq() -> Config {
    crate::common::orders_with_dlq(2)
}

async fn alarms(s: &TestServer) -> Vec<Value> {
    let r = s.raw("GET", "/_sqslite/alarms", &[], "").await;
    assert_eq!(r.status, 200);
    let v: Value = serde_json::from_str(&r.body).unwrap();
    v["alarms"].as_array().unwrap().clone()
}

fn find<'a>(alarms: &'a [Value], name: &str) -> &'a Value {
    alarms.iter().find(|a| a["name"] == name).unwrap()
}

async fn now(s: &TestServer) -> u64 {
    let r = s.raw("GET", "/_sqslite/clock", &[], "").await;
    r.json()["now"].as_u64().unwrap()
}

const STALL: &str = "stall:us-east-1/000000000000/orders";

#[tokio::test]
async fn every_field_reads_back_through_a_firing_and_a_clearing() {
    let s = TestServer::start_with(with_dlq()).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "stuck").await;
    let t0 = now(&s).await;
    let t1 = a_stalled_message_fires_the_stall_alarm(&s, t0).await;
    let t2 = received_and_deleted_the_stall_clears(&s, &url).await;
    let stall = find(&alarms(&s).await, STALL).clone();
    assert_eq!(
        (
            &stall["state"],
            stall["since"].as_u64(),
            stall["last_fired_at"].as_u64()
        ),
        (&json!("OK"), Some(t2), Some(t1))
    );
    assert_eq!(
        stall["reason"],
        "0 message(s) waiting, no DeleteMessage for 0 s"
    );

    // Stuck again: the same alarm fires a second time.
    s.send(&url, "stuck again").await;
    s.advance(121);
    let t3 = now(&s).await;
    let stall = find(&alarms(&s).await, STALL).clone();
    assert_eq!(
        (
            &stall["state"],
            stall["last_fired_at"].as_u64(),
            &stall["times_fired"]
        ),
        (&json!("ALARM"), Some(t3), &json!(2))
    );
}

/// The four alarms of orders, read back after 120 s with one message waiting (the queue
/// had it since `t0`); returns when the stall alarm fired.
async fn a_stalled_message_fires_the_stall_alarm(s: &TestServer, t0: u64) -> u64 {
    let first = alarms(s).await;
    let names: Vec<&str> = first.iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "dlq_depth:us-east-1/000000000000/orders-dlq",
            "oldest_message_age:us-east-1/000000000000/orders",
            "receive_count:us-east-1/000000000000/orders",
            STALL,
        ]
    );
    s.advance(120);
    let t1 = now(s).await;
    let a = alarms(s).await;
    assert_eq!(
        *find(&a, STALL),
        json!({
            "name": STALL, "kind": "stall", "queue": "orders", "region": "us-east-1",
            "account": "000000000000", "state": "ALARM", "value": 120, "threshold": 120,
            "reason": "1 message(s) waiting, no DeleteMessage for 120 s",
            "since": t1, "last_fired_at": t1, "times_fired": 1
        })
    );
    let receive = find(&a, "receive_count:us-east-1/000000000000/orders");
    assert_eq!(
        (
            &receive["state"],
            &receive["reason"],
            receive["since"].as_u64()
        ),
        (
            &json!("OK"),
            &json!("no message received 1 times"),
            Some(t0)
        )
    );
    assert_eq!(
        (&receive["last_fired_at"], &receive["times_fired"]),
        (&Value::Null, &json!(0))
    );
    let dlq = find(&a, "dlq_depth:us-east-1/000000000000/orders-dlq");
    assert_eq!(
        dlq["reason"],
        "0 message(s) in dead-letter queue orders-dlq"
    );
    let age = find(&a, "oldest_message_age:us-east-1/000000000000/orders");
    assert_eq!(
        (&age["value"], &age["threshold"], &age["reason"]),
        (
            &json!(120),
            &json!(600),
            &json!("oldest message is 120 s old")
        )
    );
    t1
}

/// Received (once: the receive_count alarm fires at maxReceiveCount - 1) and deleted;
/// returns when it was deleted.
async fn received_and_deleted_the_stall_clears(s: &TestServer, url: &str) -> u64 {
    let received = s.receive(url).await;
    let handle = received.messages()[0].receipt_handle().unwrap();
    let a = alarms(s).await;
    let receive = find(&a, "receive_count:us-east-1/000000000000/orders");
    assert_eq!(
        (&receive["state"], &receive["reason"]),
        (
            &json!("ALARM"),
            &json!("a message has been received 1 times (threshold 1)")
        )
    );
    s.advance(5);
    s.delete(url, handle).await;
    now(s).await
}

#[tokio::test]
async fn the_firing_series_has_one_line_per_alarm_by_name() {
    let s = TestServer::start_with(with_dlq()).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "stuck").await;
    s.advance(120);
    let r = s.raw("GET", "/metrics", &[], "").await;
    let lines: Vec<&str> = r
        .body
        .lines()
        .filter(|l| l.starts_with("sqslite_alarm_firing"))
        .collect();
    assert_eq!(
        lines,
        [
            "sqslite_alarm_firing{alarm=\"dlq_depth:us-east-1/000000000000/orders-dlq\",kind=\"dlq_depth\",queue=\"orders-dlq\"} 0",
            "sqslite_alarm_firing{alarm=\"oldest_message_age:us-east-1/000000000000/orders\",kind=\"oldest_message_age\",queue=\"orders\"} 0",
            "sqslite_alarm_firing{alarm=\"receive_count:us-east-1/000000000000/orders\",kind=\"receive_count\",queue=\"orders\"} 0",
            "sqslite_alarm_firing{alarm=\"stall:us-east-1/000000000000/orders\",kind=\"stall\",queue=\"orders\"} 1",
        ]
    );
    let help = "# HELP sqslite_alarm_firing 1 while the alarm is in ALARM state\n\
                # TYPE sqslite_alarm_firing gauge\n";
    assert!(r.body.contains(help), "{}", r.body);
}
