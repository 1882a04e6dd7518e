//! The drills behind `sqslite drill`, run against small consumers written with aws-sdk-sqs,
//! and alarm webhooks reaching a listener.

use crate::common::endpoint::Endpoint;
use crate::common::TestServer;
use aws_sdk_sqs::Client;
use sqslite::drill::{outage, poison, triggered as trigger, Common};
use sqslite::{Clock, Config, ManualClock, QueueDecl};

fn config() -> Config {
    Config::ephemeral()
        .with_queue(QueueDecl::new("orders-dlq"))
        .with_queue(
            QueueDecl::new("orders")
                .attribute("VisibilityTimeout", 5)
                .dead_letter("orders-dlq", 3),
        )
}

/// A consumer that handles JSON bodies and crashes (never deletes) on anything else.
pub(crate) async fn consume(client: Client, url: String, clock: ManualClock) {
    loop {
        for m in next_batch(&client, &url, &clock).await {
            if serde_json::from_str::<serde_json::Value>(m.body().unwrap_or("")).is_ok() {
                let handle = m.receipt_handle().unwrap();
                let _ = client
                    .delete_message()
                    .queue_url(&url)
                    .receipt_handle(handle)
                    .send()
                    .await;
            }
        }
    }
}

/// A test consumer's next receive of up to ten (a long poll of one second); after an error it
/// backs off one second on the server's clock, as a real one would in real time.
pub(crate) async fn next_batch(
    client: &Client,
    url: &str,
    clock: &ManualClock,
) -> Vec<aws_sdk_sqs::types::Message> {
    let received = client
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(10)
        .wait_time_seconds(1)
        .send()
        .await;
    let Ok(out) = received else {
        clock.sleep_until(clock.now() + 1_000).await;
        return Vec::new();
    };
    out.messages.unwrap_or_default()
}

fn common(s: &TestServer) -> Common {
    Common {
        endpoint: s.endpoint(),
        queue: "orders".into(),
        batch: 25,
        timeout_seconds: 60,
        poll_ms: 10,
        step_seconds: 1,
        sample_consumer: false,
    }
}

#[tokio::test]
async fn the_poison_drill_passes_against_a_consumer_that_crashes_on_bad_input() {
    let s = TestServer::start_with(config()).await;
    let consumer = tokio::spawn(consume(
        s.client.clone(),
        s.server.queue_url("orders"),
        s.clock.clone(),
    ));
    let opts = poison::PoisonOptions {
        common: common(&s),
        grace_seconds: 5,
    };
    let mut out = Vec::new();
    let report = poison::run(&opts, &mut out).await.expect("drill runs");
    consumer.abort();
    let text = String::from_utf8(out).unwrap();
    println!("{text}");
    assert!(report.passed(), "{text}");
    assert!(
        text.contains("[PASS] poison dead-lettered within budget"),
        "{text}"
    );
    assert!(text.contains("drill passed (3 checks,"), "{text}");
    // The advisor's findings for the drilled queues follow the report.
    assert!(text.contains("advisor (orders, orders-dlq):"), "{text}");
    assert!(text.contains("WARN   orders-dlq  [dlq_alarm]"), "{text}");
    assert!(
        text.contains("WARN   orders-dlq  [dlq_retention]"),
        "{text}"
    );
}

#[tokio::test]
async fn the_poison_drill_fails_when_nothing_consumes() {
    let s = TestServer::start_with(config()).await;
    let mut c = common(&s);
    c.batch = 3;
    let t0 = s.clock.now();
    let opts = poison::PoisonOptions {
        common: c,
        grace_seconds: 0,
    };
    let mut out = Vec::new();
    let report = poison::run(&opts, &mut out).await.expect("drill runs");
    let text = String::from_utf8(out).unwrap();
    assert!(!report.passed(), "{text}");
    assert!(text.contains("[FAIL] valid batch drained"), "{text}");
    assert!(
        text.contains("no consumer polled orders during the drill"),
        "{text}"
    );
    // It gave up after one visibility timeout (5 s) plus grace, not the whole budget.
    assert!(s.clock.now() - t0 <= 7_000, "{text}");
    assert!(
        text.contains("cleaned up: removed 4 of this run's messages from orders and 0"),
        "{text}"
    );
    let url = s.server.queue_url("orders");
    assert_eq!(s.counts(&url).await, (0, 0, 0));
}

#[tokio::test]
async fn the_sample_consumer_lets_the_poison_drill_run_in_one_process() {
    let s = TestServer::start_with(config()).await;
    let mut c = common(&s);
    c.sample_consumer = true;
    let opts = poison::PoisonOptions {
        common: c,
        grace_seconds: 5,
    };
    let mut out = Vec::new();
    let report = poison::run(&opts, &mut out).await.expect("drill runs");
    let text = String::from_utf8(out).unwrap();
    assert!(report.passed(), "{text}");
    assert!(
        text.contains("in orders-dlq, received 3 time(s) after"),
        "{text}"
    );
}

#[tokio::test]
async fn the_outage_drill_checks_the_backlog_drains_afterwards() {
    let s = TestServer::start_with(config()).await;
    let consumer = tokio::spawn(consume(
        s.client.clone(),
        s.server.queue_url("orders"),
        s.clock.clone(),
    ));
    let opts = outage::OutageOptions {
        common: common(&s),
        outage_seconds: 10,
        drain_seconds: 20,
    };
    let mut out = Vec::new();
    let report = outage::run(&opts, &mut out).await.expect("drill runs");
    consumer.abort();
    let text = String::from_utf8(out).unwrap();
    assert!(report.passed(), "{text}");
    assert!(
        text.contains("[PASS] consumer kept polling during the outage"),
        "{text}"
    );
}

#[tokio::test]
async fn a_firing_alarm_is_posted_to_the_webhook() {
    let hook = Endpoint::start().await;
    let mut config = config();
    config.admin.alarms.webhook = Some(hook.url.clone());
    let s = TestServer::start_with(config).await;
    let dlq = s.server.queue_url("orders-dlq");
    // A message sent straight to the DLQ is enough: the ticker notices after the request.
    s.send(&dlq, "dead").await;
    let alarm = hook.wait_for(1).await[0].json();
    assert_eq!(alarm["kind"], "dlq_depth");
    assert_eq!(alarm["queue"], "orders-dlq");
    assert_eq!(alarm["state"], "ALARM");
}

/// One row of the trigger drill's table: (invocations, redelivered, in DLQ).
fn row(text: &str, label: &str) -> (u64, u64, u64) {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` row in\n{text}"));
    let n: Vec<u64> = line[label.len() + 2..]
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2])
}

#[tokio::test]
async fn the_trigger_drill_shows_what_report_batch_item_failures_saves() {
    let opts = trigger::TriggerOptions {
        batch: 19,
        max_receive_count: 3,
        visibility_seconds: 30,
        step_seconds: 1,
        poll_ms: 10,
        give_up_seconds: 600,
    };
    let mut out = Vec::new();
    let report = trigger::run(&opts, &mut out).await.expect("drill runs");
    let text = String::from_utf8(out).unwrap();
    assert!(report.passed(), "{text}");
    let whole = row(&text, "whole-batch failures");
    let partial = row(&text, "ReportBatchItemFailures");
    // With partial responses only the poison comes back: once per receive after its first.
    assert_eq!(partial.1, 2, "{text}");
    assert_eq!(partial.2, 1, "{text}");
    // Without them, its nine batch-mates come back with it each time and share its fate.
    assert_eq!(whole.1, 20, "{text}");
    assert_eq!(whole.2, 10, "{text}");
    assert!(partial.0 >= 3 && whole.0 >= 3, "{text}");
    assert!(text.contains("drill passed (3 checks)"), "{text}");
}
