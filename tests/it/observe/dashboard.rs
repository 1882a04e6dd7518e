//! The dashboard's server side: its files, the redirect from `/`, the admin routes it reads
//! and acts through, and the browser checks it passes (same origin) or not (other origins).
//! The page itself runs in a real browser in `ui-test/` (`.ci/run`).

use crate::common::TestServer;
use sqslite::{Config, QueueDecl};

fn config() -> Config {
    Config::ephemeral()
        .with_queue(QueueDecl::new("orders-dlq"))
        .with_queue(
            QueueDecl::new("orders")
                .attribute("VisibilityTimeout", 0)
                .dead_letter("orders-dlq", 1),
        )
}

fn origin(s: &TestServer) -> String {
    s.endpoint()
}

fn host(s: &TestServer) -> String {
    s.endpoint().trim_start_matches("http://").to_owned()
}

#[tokio::test]
async fn a_browser_asking_for_the_root_is_sent_to_the_dashboard() {
    let s = TestServer::start().await;
    let r = s
        .raw("GET", "/", &[("accept", "text/html,*/*;q=0.8")], "")
        .await;
    assert_eq!(r.status, 302);
    assert_eq!(r.header("location"), Some("/_sqslite/ui"));
    let page = s.raw("GET", "/_sqslite/ui", &[], "").await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<script src=\"/_sqslite/ui/app.js\""));
    assert!(page
        .header("content-security-policy")
        .is_some_and(|p| p.contains("frame-ancestors 'none'")));
    let script = s.raw("GET", "/_sqslite/ui/app.js", &[], "").await;
    assert_eq!(
        script.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    // An SDK's GET (Query protocol) is never redirected.
    let q = s
        .raw("GET", "/?Action=ListQueues", &[("accept", "text/html")], "")
        .await;
    assert_eq!(q.status, 200, "{}", q.body);
}

#[tokio::test]
async fn dead_letters_are_grouped_by_source_and_by_body_shape() {
    let s = TestServer::start_with(config()).await;
    let url = s.server.queue_url("orders");
    for body in [r#"{"id":1}"#, r#"{"id":2}"#, "{broken"] {
        s.send(&url, body).await;
    }
    // maxReceiveCount 1, visibility 0: a message's second receive dead-letters it.
    let dlq = s.server.queue_url("orders-dlq");
    for _ in 0..20 {
        if s.counts(&dlq).await.0 == 3 {
            break;
        }
        s.receive(&url).await;
    }
    let r = s
        .raw("GET", "/_sqslite/queues/orders-dlq/dead-letters", &[], "")
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let g = r.json();
    assert_eq!(g["total"], 3);
    assert_eq!(g["by_source"][0]["source_queue"], "orders");
    assert_eq!(g["by_source"][0]["count"], 3);
    assert_eq!(g["by_shape"][0]["shape"], r#"{"id"}"#);
    assert_eq!(g["by_shape"][0]["count"], 2);
    assert!(g["by_shape"][1]["shape"]
        .as_str()
        .unwrap()
        .starts_with("invalid JSON"));
}

#[tokio::test]
async fn the_dashboard_page_may_act_through_the_admin_api_and_other_pages_may_not() {
    let s = TestServer::start_with(config()).await;
    let (own, host) = (origin(&s), host(&s));
    let send = r#"{"QueueUrl": "/000000000000/orders", "MessageBody": "from the page"}"#;
    let json = ("content-type", "application/json");
    let ok = s
        .raw(
            "POST",
            "/_sqslite/sqs/SendMessage",
            &[json, ("origin", &own), ("host", &host)],
            send,
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert!(ok.json()["MessageId"].is_string());
    let evil = s
        .raw(
            "POST",
            "/_sqslite/sqs/SendMessage",
            &[json, ("origin", "http://evil.example"), ("host", &host)],
            send,
        )
        .await;
    assert_eq!(evil.status, 403, "{}", evil.body);
    // Same-origin opens the admin API only: the SQS API still refuses pages.
    let sqs = s
        .raw(
            "POST",
            "/",
            &[
                ("x-amz-target", "AmazonSQS.ListQueues"),
                ("content-type", "application/x-amz-json-1.0"),
                ("origin", &own),
                ("host", &host),
            ],
            "{}",
        )
        .await;
    assert_eq!(sqs.status, 403, "{}", sqs.body);
    let url = s.server.queue_url("orders");
    assert_eq!(s.counts(&url).await.0, 1);
}

#[tokio::test]
async fn the_dashboard_runs_only_its_own_few_actions_with_sqs_errors() {
    let s = TestServer::start_with(config()).await;
    let json = [("content-type", "application/json")];
    let r = s
        .raw(
            "POST",
            "/_sqslite/sqs/DeleteQueue",
            &json,
            r#"{"QueueUrl": "/000000000000/orders"}"#,
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = s
        .raw(
            "POST",
            "/_sqslite/sqs/PurgeQueue?region=eu-west-1",
            &json,
            r#"{"QueueUrl": "/000000000000/orders"}"#,
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .starts_with("AWS.SimpleQueueService.NonExistentQueue"),
        "{}",
        r.body
    );
}
