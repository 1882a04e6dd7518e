//! Fault rules on Lambda-style invocations (`"action": "Invoke"`): an injected function
//! error leaves the batch to come back without calling the function; a delay holds the
//! invocation until the manual clock passes it. Checked with the recording function and
//! the real SDK, on the manual clock.

use serde_json::{json, Value};
use sqslite::QueueDecl;

use crate::common::lambda::{within, Handler};
use crate::common::TestServer;
use crate::triggers::{mapping, send_all, serve};

const INVOCATIONS: &str = "sqslite_trigger_invocations_total";
const ERRORS: &str = "sqslite_trigger_errors_total";

async fn post_fault(s: &TestServer, rule: &Value) -> crate::common::RawResponse {
    let headers = [("content-type", "application/json")];
    s.raw("POST", "/_sqslite/faults", &headers, &rule.to_string())
        .await
}

async fn add_fault(s: &TestServer, rule: &Value) -> Value {
    let r = post_fault(s, rule).await;
    assert_eq!(r.status, 201, "{}", r.body);
    serde_json::from_str(&r.body).unwrap()
}

/// Hits of the rule with this id so far.
async fn hits(s: &TestServer, id: &Value) -> u64 {
    let list = s.raw("GET", "/_sqslite/faults", &[], "").await.json();
    list["faults"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["id"] == *id)
        .map_or(0, |r| r["hits"].as_u64().unwrap_or(0))
}

#[tokio::test]
async fn an_injected_function_error_fails_the_batch_without_calling_the_function() {
    let f = Handler::start(vec![]).await;
    let s = serve(&f, QueueDecl::new("orders"), mapping("orders")).await;
    let url = s.server.queue_url("orders");
    let rule =
        json!({"action": "Invoke", "function": "orders-handler", "error": "Unhandled", "count": 1});
    add_fault(&s, &rule).await;
    send_all(&s, &url, &["a", "b"]).await;
    s.wait_counter(ERRORS, "orders", 1).await;
    assert!(f.events().is_empty(), "the function was called");
    // The batch is in flight as after any function error, and back at the visibility timeout.
    s.wait_counts(&url, (0, 2)).await;
    s.advance(30);
    let events = f.wait_events(1).await;
    assert_eq!(crate::triggers::bodies(&events[0]), ["a", "b"]);
    s.wait_counts(&url, (0, 0)).await;
    assert_eq!(s.trigger_counter(INVOCATIONS, "orders").await, 2);
    assert_eq!(s.trigger_counter(ERRORS, "orders").await, 1);
}

#[tokio::test]
async fn an_injected_delay_holds_the_invocation_on_the_server_clock() {
    let f = Handler::start(vec![]).await;
    let s = serve(&f, QueueDecl::new("orders"), mapping("orders")).await;
    let url = s.server.queue_url("orders");
    let added = add_fault(
        &s,
        &json!({"action": "Invoke", "queue": "orders", "delay_seconds": 10}),
    )
    .await;
    send_all(&s, &url, &["a"]).await;
    within("the rule's hit", async {
        while hits(&s, &added["id"]).await == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await;
    s.advance(9);
    s.wait_counts(&url, (0, 1)).await;
    assert!(f.events().is_empty(), "called before the delay passed");
    s.advance(1);
    f.wait_events(1).await;
    s.wait_counts(&url, (0, 0)).await;
}

#[tokio::test]
async fn invoke_rules_are_checked_when_added() {
    let s = TestServer::start().await;
    for (rule, says) in [
        (json!({"action": "Invoke"}), "effect"),
        (
            json!({"action": "Invoke", "drop_connection": true}),
            "drop_connection",
        ),
        (json!({"function": "f", "error": "InternalError"}), "Invoke"),
    ] {
        let r = post_fault(&s, &rule).await;
        assert_eq!(r.status, 400, "{rule}: {}", r.body);
        assert!(r.body.contains(says), "{rule}: {}", r.body);
    }
}
