//! The admin API for game days: time control, fault injection, inspection, reset, alarms
//! and metrics, driven with the real SDK and the manual clock.

use crate::common::{expect_code, TestServer};
use serde_json::{json, Value};
use sqslite::Config;

async fn get(s: &TestServer, path: &str) -> (u16, Value) {
    let r = s.raw("GET", path, &[], "").await;
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

async fn post(s: &TestServer, path: &str, body: &Value) -> (u16, Value) {
    let r = s
        .raw(
            "POST",
            path,
            &[("content-type", "application/json")],
            &body.to_string(),
        )
        .await;
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

fn with_dlq() -> Config {
    crate::common::orders_with_dlq(2)
}

#[tokio::test]
async fn advancing_the_clock_redelivers_after_the_visibility_timeout() {
    let s = TestServer::start_with(with_dlq()).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "hello").await;
    let first = s
        .client
        .receive_message()
        .queue_url(&url)
        .send()
        .await
        .unwrap();
    assert_eq!(first.messages().len(), 1);
    let (status, clock) = get(&s, "/_sqslite/clock").await;
    assert_eq!((status, clock["manual"].as_bool()), (200, Some(true)));
    let before = clock["now"].as_u64().unwrap();
    // A long poll parked now must wake when the admin API moves time past the timeout.
    let client = s.client.clone();
    let url2 = url.clone();
    let poll = tokio::spawn(async move {
        client
            .receive_message()
            .queue_url(url2)
            .wait_time_seconds(20)
            .send()
            .await
    });
    tokio::task::yield_now().await;
    let (status, after) = post(&s, "/_sqslite/clock/advance", &json!({"seconds": 31})).await;
    assert_eq!(status, 200);
    assert_eq!(after["now"].as_u64().unwrap(), before + 31_000);
    let again = poll.await.unwrap().unwrap();
    assert_eq!(again.messages()[0].body(), Some("hello"));
    let (status, _) = post(&s, "/_sqslite/clock/advance", &json!({"milliseconds": 500})).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn bad_admin_input_gets_a_400_naming_the_problem() {
    let s = TestServer::start().await;
    let (status, body) = post(&s, "/_sqslite/clock/advance", &json!({"sekonds": 3})).await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("sekonds"),
        "{body}"
    );
    let (status, body) = post(
        &s,
        "/_sqslite/faults",
        &json!({"action": "SendMesage", "error": "InternalError"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("SendMessage"),
        "{body}"
    );
    let (status, body) = post(&s, "/_sqslite/faults", &json!({"error": "Nope"})).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("Nope"), "{body}");
    assert_eq!(get(&s, "/_sqslite/nothing").await.0, 404);
}

#[tokio::test]
async fn the_system_clock_cannot_be_advanced() {
    let server = sqslite::Server::start(Config::ephemeral()).await.unwrap();
    let r = crate::common::raw(
        &server.endpoint(),
        "POST",
        "/_sqslite/clock/advance",
        &[],
        r#"{"seconds":1}"#,
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("--clock manual"), "{}", r.body);
}

#[tokio::test]
async fn the_admin_api_can_be_disabled() {
    let mut config = Config::ephemeral();
    config.admin.enabled = false;
    let s = TestServer::start_with(config).await;
    let (status, body) = get(&s, "/_sqslite/queues").await;
    assert_eq!(status, 404);
    assert!(body["error"].as_str().unwrap().contains("--no-admin"));
    assert_eq!(s.raw("GET", "/metrics", &[], "").await.status, 404);
}

#[tokio::test]
async fn injected_errors_never_enqueue_and_retire_after_their_count() {
    let s = TestServer::start().await;
    let url = s.create_queue("jobs").await;
    let rule = json!({"action": "SendMessage", "queue": "jobs", "error": "KMS.ThrottlingException", "count": 2});
    let (status, added) = post(&s, "/_sqslite/faults", &rule).await;
    assert_eq!(status, 201, "{added}");
    for _ in 0..2 {
        expect_code(
            s.client
                .send_message()
                .queue_url(&url)
                .message_body("x")
                .send()
                .await,
            "KMS.ThrottlingException",
        );
    }
    s.send(&url, "third").await;
    assert_eq!(s.counts(&url).await, (1, 0, 0));
    let (_, list) = get(&s, "/_sqslite/faults").await;
    assert_eq!(list["faults"], json!([]));
}

#[tokio::test]
async fn a_fault_window_follows_the_server_clock() {
    let s = TestServer::start().await;
    let url = s.create_queue("jobs").await;
    let rule =
        json!({"action": "ReceiveMessage", "error": "ServiceUnavailable", "for_seconds": 10});
    assert_eq!(post(&s, "/_sqslite/faults", &rule).await.0, 201);
    expect_code(
        s.client.receive_message().queue_url(&url).send().await,
        "ServiceUnavailable",
    );
    s.advance(10);
    s.receive(&url).await;
    // Latency and dropped connections, then clearing every rule.
    let slow = json!({"action": "ListQueues", "latency_ms": 20});
    assert_eq!(post(&s, "/_sqslite/faults", &slow).await.0, 201);
    s.client.list_queues().send().await.unwrap();
    let drop = json!({"action": "GetQueueUrl", "drop_connection": true});
    assert_eq!(post(&s, "/_sqslite/faults", &drop).await.0, 201);
    let err = s
        .client
        .get_queue_url()
        .queue_name("jobs")
        .send()
        .await
        .unwrap_err();
    assert!(err.as_service_error().is_none(), "{err:?}");
    let r = s.raw("DELETE", "/_sqslite/faults", &[], "").await;
    assert_eq!(r.status, 200);
    s.client
        .get_queue_url()
        .queue_name("jobs")
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn inspection_shows_states_without_touching_messages() {
    let s = TestServer::start_with(with_dlq()).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "first").await;
    s.client
        .send_message()
        .queue_url(&url)
        .message_body("later")
        .delay_seconds(60)
        .send()
        .await
        .unwrap();
    s.receive(&url).await;
    s.send(&url, "waiting").await;
    for _ in 0..2 {
        let (status, list) = get(&s, "/_sqslite/queues/orders/messages").await;
        assert_eq!(status, 200);
        let seen: Vec<(&str, u64)> = list["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["state"].as_str().unwrap(),
                    m["receive_count"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(seen, [("in_flight", 1), ("delayed", 0), ("visible", 0)]);
    }
    let (_, queues) = get(&s, "/_sqslite/queues").await;
    let orders = queues["queues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["name"] == "orders")
        .unwrap();
    assert_eq!(orders["dead_letter_target"]["queue"], "orders-dlq");
    assert_eq!(
        (orders["visible"].as_u64(), orders["in_flight"].as_u64()),
        (Some(1), Some(1))
    );
    // Dead-lettered messages name where they came from.
    for _ in 0..3 {
        s.advance(31);
        s.client
            .receive_message()
            .queue_url(&url)
            .max_number_of_messages(10)
            .send()
            .await
            .unwrap();
    }
    let (_, dlq) = get(&s, "/_sqslite/queues/orders-dlq/messages").await;
    assert_eq!(dlq["messages"][0]["dead_letter_source_queue"], "orders");
}

#[tokio::test]
async fn localstack_developer_endpoint_answers_in_the_receive_shape() {
    let s = TestServer::start_with(with_dlq()).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "one").await;
    s.send(&url, "two").await;
    s.receive(&url).await;
    let path = format!("/_aws/sqs/messages?QueueUrl={url}");
    let r = s
        .raw("GET", &path, &[("accept", "application/json")], "")
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["Messages"].as_array().unwrap().len(), 1);
    let r = s
        .raw(
            "GET",
            &format!("{path}&ShowInvisible=true"),
            &[("accept", "application/json")],
            "",
        )
        .await;
    assert_eq!(r.json()["Messages"].as_array().unwrap().len(), 2);
    let xml = s
        .raw(
            "GET",
            "/_aws/sqs/messages/us-east-1/000000000000/orders",
            &[],
            "",
        )
        .await;
    assert!(xml.body.contains("<ReceiveMessageResponse"), "{}", xml.body);
    assert_eq!(s.counts(&url).await, (1, 1, 0));
}

#[tokio::test]
async fn reset_returns_to_the_declared_queues_empty() {
    let s = TestServer::start_with(with_dlq()).await;
    let orders = s.server.queue_url("orders");
    s.send(&orders, "stale").await;
    s.create_queue("scratch").await;
    let (status, _) = post(&s, "/_sqslite/reset", &json!({})).await;
    assert_eq!(status, 200);
    let names = s
        .client
        .list_queues()
        .send()
        .await
        .unwrap()
        .queue_urls()
        .to_vec();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(s.counts(&orders).await, (0, 0, 0));
    // Undeclared names are free again at once (no QueueDeletedRecently).
    s.create_queue("scratch").await;
}

fn alarm<'a>(alarms: &'a Value, kind: &str, queue: &str) -> &'a Value {
    alarms["alarms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == kind && a["queue"] == queue)
        .unwrap()
}

#[tokio::test]
async fn alarms_fire_and_clear_on_the_clock() {
    let s = TestServer::start_with(with_dlq()).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "stuck").await;
    let (_, a) = get(&s, "/_sqslite/alarms").await;
    assert_eq!(alarm(&a, "stall", "orders")["state"], "OK");
    s.advance(120);
    let (_, a) = get(&s, "/_sqslite/alarms").await;
    assert_eq!(alarm(&a, "stall", "orders")["state"], "ALARM");
    // Two receives, then the third moves it to the DLQ: depth alarm fires, stall clears.
    for _ in 0..3 {
        s.receive(&url).await;
        s.advance(31);
    }
    let (_, a) = get(&s, "/_sqslite/alarms").await;
    assert_eq!(alarm(&a, "dlq_depth", "orders-dlq")["state"], "ALARM");
    assert_eq!(alarm(&a, "stall", "orders")["state"], "OK");
    s.send(&url, "old").await;
    s.advance(600);
    let (_, a) = get(&s, "/_sqslite/alarms").await;
    assert_eq!(alarm(&a, "oldest_message_age", "orders")["state"], "ALARM");
}

#[tokio::test]
async fn metrics_are_prometheus_text_named_after_cloudwatch() {
    let s = TestServer::start().await;
    let url = s.create_queue("orders").await;
    s.send(&url, "hello").await;
    s.receive(&url).await;
    s.receive(&url).await;
    let r = s.raw("GET", "/metrics", &[], "").await;
    assert_eq!(r.status, 200);
    let line = |name: &str, needle: &str| {
        r.body
            .lines()
            .find(|l| l.starts_with(name) && l.contains(needle))
            .map(|l| l.rsplit(' ').next().unwrap().to_owned())
    };
    assert_eq!(
        line(
            "sqs_approximate_number_of_messages_not_visible{",
            "queue=\"orders\""
        )
        .as_deref(),
        Some("1")
    );
    assert_eq!(
        line("sqs_number_of_messages_sent_total{", "queue=\"orders\"").as_deref(),
        Some("1")
    );
    assert_eq!(
        line("sqs_number_of_empty_receives_total{", "queue=\"orders\"").as_deref(),
        Some("1")
    );
    assert_eq!(
        line("sqs_sent_message_size_bytes{", "queue=\"orders\"").as_deref(),
        Some("5")
    );
    assert_eq!(
        line(
            "sqslite_requests_total{",
            "action=\"ReceiveMessage\",outcome=\"success\""
        )
        .as_deref(),
        Some("2")
    );
    assert!(r
        .body
        .contains("sqslite_request_duration_seconds_bucket{action=\"SendMessage\""));
    // Actions never called have no series (no wall of zeros), and every family is documented.
    assert!(!r.body.contains("action=\"DeleteQueue\""), "{}", r.body);
    let guide = include_str!("../../../docs/src/alarms-and-metrics.md");
    for family in r.body.lines().filter_map(|l| l.strip_prefix("# TYPE ")) {
        let name = family.split(' ').next().unwrap();
        assert!(
            guide.contains(name),
            "metric {name} is not in the guide's metrics page"
        );
    }
}

#[test]
fn alarms_and_faults_come_from_sqslite_toml() {
    let text = "[alarms]\nstall_seconds = 30\n\n[[faults]]\naction = \"SendMessage\"\nerror = \"InternalError\"\ncount = 1\n";
    let loaded = Config::from_text("game.toml", text).unwrap();
    assert_eq!(loaded.config.admin.alarms.stall_seconds, 30);
    assert_eq!(
        loaded.config.admin.faults[0].error.as_deref(),
        Some("InternalError")
    );
    let bad = Config::from_text("game.toml", "[[faults]]\nerror = \"Nope\"\n").unwrap_err();
    assert!(bad.to_string().contains("Nope"), "{bad}");
}
