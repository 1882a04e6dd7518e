//! `GET /_sqslite/mappings` and the dashboard's switch, `POST /_sqslite/mappings/<uuid>`:
//! a declared function (the recording handler) and mapping on a real server with the manual
//! clock, the figures read after a successful, a failed and a partly failed invocation, and
//! the switch seen by the real `aws-sdk-lambda` client and by the poller.

use serde_json::{json, Value};
use sqslite::QueueDecl;

use crate::common::lambda::{within, Handler, Reply};
use crate::common::lambda_api::lambda_client_at;
use crate::common::{TestServer, T0};
use crate::triggers::{mapping, reporting, send_all, serve};

async fn mappings(s: &TestServer) -> Value {
    let r = s.raw("GET", "/_sqslite/mappings", &[], "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// The only mapping, once `done` holds for it (10 s of wall time at most).
async fn wait_mapping(s: &TestServer, done: impl Fn(&Value) -> bool) -> Value {
    within("the mapping's figures", async {
        loop {
            let all = mappings(s).await;
            let m = &all["mappings"][0];
            if done(m) {
                return m.clone();
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await
}

fn last_result(m: &Value) -> Option<&str> {
    m["last_invocation"]["result"].as_str()
}

async fn switch(s: &TestServer, uuid: &str, body: &str) -> crate::common::RawResponse {
    let path = format!("/_sqslite/mappings/{uuid}");
    let headers = [("content-type", "application/json")];
    s.raw("POST", &path, &headers, body).await
}

#[tokio::test]
async fn the_figures_follow_a_success_and_a_failure_on_the_server_clock() {
    let f = Handler::start(vec![Reply::ok(""), Reply::status(500)]).await;
    let s = serve(&f, QueueDecl::new("orders"), mapping("orders")).await;
    let url = s.server.queue_url("orders");
    let m = wait_mapping(&s, |m| m["state"] == "Enabled").await;
    check_a_fresh_mapping(&m);

    send_all(&s, &url, &["a", "b"]).await;
    let m = wait_mapping(&s, |m| last_result(m) == Some("success")).await;
    assert_eq!(m["figures"]["invocations"], 1);
    assert_eq!(m["figures"]["mean_batch_size"], 2);
    assert_eq!(
        m["last_invocation"],
        json!({"started_at": T0, "finished_at": T0, "records": 2, "result": "success",
               "failed_records": 0, "error": null})
    );
    s.wait_counts(&url, (0, 0)).await;

    s.advance(5);
    s.send(&url, "c").await;
    let m = wait_mapping(&s, |m| last_result(m) == Some("error")).await;
    assert_eq!(
        m["figures"],
        json!({"invocations": 2, "errors": 1, "records": 3, "mean_batch_size": 1.5,
               "last_batch_size": 1, "partial_failures": 0, "filtered": 0})
    );
    let last = &m["last_invocation"];
    assert_eq!(last["started_at"], T0 + 5000);
    assert_eq!(
        (&last["records"], &last["failed_records"]),
        (&json!(1), &json!(1))
    );
    assert_eq!(last["error"], "invocation failed: HTTP 500: ");
    // The failed message waits in flight; its age runs on the server's clock.
    s.advance(20);
    let m = &mappings(&s).await["mappings"][0];
    assert_eq!(m["queue"]["in_flight"], 1);
    assert_eq!(m["queue"]["oldest_message_age_seconds"], 20);
    assert_eq!(
        s.trigger_counter("sqslite_trigger_errors_total", "orders")
            .await,
        1,
        "/metrics counts the same"
    );
}

/// A declared mapping, before any message: its settings and zero figures.
fn check_a_fresh_mapping(m: &Value) {
    let arn = "arn:aws:sqs:us-east-1:000000000000:orders";
    assert_eq!(m["function"]["name"], "orders-handler");
    assert_eq!(
        m["function"]["arn"],
        "arn:aws:lambda:us-east-1:000000000000:function:orders-handler"
    );
    assert_eq!(m["function"]["declared"], true);
    assert_eq!(
        (&m["queue"]["name"], &m["queue"]["arn"]),
        (&json!("orders"), &json!(arn))
    );
    assert_eq!(m["batch_size"], 10);
    assert_eq!(m["maximum_batching_window_seconds"], 0);
    assert_eq!(m["function_response_types"], json!([]));
    assert_eq!(m["maximum_concurrency"], Value::Null);
    assert_eq!(m["filter_patterns"], 0);
    assert_eq!(m["last_invocation"], Value::Null);
    assert_eq!(
        m["figures"],
        json!({"invocations": 0, "errors": 0, "records": 0, "mean_batch_size": null,
               "last_batch_size": null, "partial_failures": 0, "filtered": 0})
    );
}

#[tokio::test]
async fn partial_failures_and_filtered_messages_are_counted() {
    let f = Handler::answering(|event| {
        let failed: Vec<Value> = event["Records"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["body"].as_str().unwrap().contains("bad"))
            .map(|r| json!({"itemIdentifier": r["messageId"]}))
            .collect();
        Reply::ok(&json!({ "batchItemFailures": failed }).to_string())
    })
    .await;
    let mut decl = reporting("orders");
    decl.filters = vec![r#"{"body": {"kind": ["order"]}}"#.into()];
    let s = serve(&f, QueueDecl::new("orders"), decl).await;
    let url = s.server.queue_url("orders");
    let bodies = [
        r#"{"kind": "order", "n": 1}"#,
        r#"{"kind": "order", "n": "bad"}"#,
        r#"{"kind": "refund"}"#,
    ];
    send_all(&s, &url, &bodies).await;
    let m = wait_mapping(&s, |m| last_result(m) == Some("partial_failure")).await;
    assert_eq!(
        m["function_response_types"],
        json!(["ReportBatchItemFailures"])
    );
    assert_eq!(m["filter_patterns"], 1);
    assert_eq!(
        m["figures"],
        json!({"invocations": 1, "errors": 0, "records": 2, "mean_batch_size": 2,
               "last_batch_size": 2, "partial_failures": 1, "filtered": 1})
    );
    assert_eq!(m["last_invocation"]["failed_records"], 1);
    s.wait_counts(&url, (0, 1)).await;
}

/// Long polls (the mapping's poller among them) parked on `orders`.
async fn parked(s: &TestServer) -> u64 {
    let w = s.raw("GET", "/_sqslite/waiters", &[], "").await.json();
    w["parked"].as_u64().unwrap()
}

#[tokio::test]
async fn the_switch_stops_and_restarts_the_poller_as_the_lambda_api_would() {
    let f = Handler::start(vec![]).await;
    let s = serve(&f, QueueDecl::new("orders"), mapping("orders")).await;
    let url = s.server.queue_url("orders");
    let uuid = wait_mapping(&s, |m| m["state"] == "Enabled").await["uuid"]
        .as_str()
        .unwrap()
        .to_owned();
    s.wait_parked("orders", 1).await;

    let r = switch(&s, &uuid, r#"{"enabled": false}"#).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let answer = r.json();
    assert_eq!(answer["enabled"], false);
    assert!(
        ["Disabling", "Disabled"].contains(&answer["state"].as_str().unwrap()),
        "{answer}"
    );
    wait_mapping(&s, |m| m["state"] == "Disabled").await;
    let lambda = lambda_client_at(&s.endpoint(), &s.clock);
    let got = lambda
        .get_event_source_mapping()
        .uuid(&uuid)
        .send()
        .await
        .unwrap();
    assert_eq!(got.state(), Some("Disabled"));
    within("the poller to stop", async {
        while parked(&s).await > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await;
    s.send(&url, "while disabled").await;
    assert_eq!(s.counts(&url).await, (1, 0, 0), "nothing polls the queue");

    let r = switch(&s, &uuid, r#"{"enabled": true}"#).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let events = f.wait_events(1).await;
    assert_eq!(crate::triggers::bodies(&events[0]), ["while disabled"]);
    let m = wait_mapping(&s, |m| last_result(m) == Some("success")).await;
    assert_eq!(
        (&m["state"], &m["enabled"]),
        (&json!("Enabled"), &json!(true))
    );
}

#[tokio::test]
async fn the_switch_refuses_unknown_mappings_and_bad_bodies() {
    let f = Handler::start(vec![]).await;
    let s = serve(&f, QueueDecl::new("orders"), mapping("orders")).await;
    let uuid = wait_mapping(&s, |m| m["state"] == "Enabled").await["uuid"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = switch(&s, "no-such-uuid", r#"{"enabled": false}"#).await;
    assert_eq!(
        (r.status, r.json()),
        (
            404,
            json!({"error": "no event source mapping no-such-uuid"})
        )
    );
    let r = s
        .raw("GET", "/_sqslite/mappings/no-such-uuid", &[], "")
        .await;
    assert_eq!(r.status, 404);
    for body in [r#"{"enabled": "no"}"#, r#"{"Enabled": false}"#, "{}"] {
        let r = switch(&s, &uuid, body).await;
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(r.json()["error"]
            .as_str()
            .unwrap()
            .starts_with("invalid JSON body"));
    }
    let one = s
        .raw("GET", &format!("/_sqslite/mappings/{uuid}"), &[], "")
        .await;
    assert_eq!((one.status, &one.json()["state"]), (200, &json!("Enabled")));
}
