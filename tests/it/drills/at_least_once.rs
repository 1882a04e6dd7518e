//! A drill under at-least-once delivery (`action = "delivery"`, the probe
//! `processed_more_than_once`) against a server it did not start, with the test's own
//! consumer: one without an idempotency key charges a duplicate twice and fails the drill,
//! the same consumer with the key passes, and the rollback puts the delivery mode back.

use aws_sdk_sqs::Client;
use sqslite::drill::file::run;
use sqslite::{Config, ManualClock, QueueDecl};

use super::builtin::next_batch;
use super::files::{drill_file, options};
use crate::common::TestServer;

const DRILL: &str = r#"
[drill]
name = "payments under at-least-once delivery"
look_ms = 10

[[queues]]
name = "payments"

[[queues]]
name = "charges"

[[method]]
name = "at-least-once delivery"
action = "delivery"
mode = "at-least-once"
seed = 52
rates = { duplicate = 0.5 }

[[method]]
name = "the payments"
action = "send"
queue = "payments"
count = 20
body = "order-{seq}"

[[expect]]
name = "every payment is deleted"
deleted = "valid"
within_seconds = 30

[[expect]]
name = "no payment is charged twice"
probe = "processed_more_than_once"
queue = "charges"
max = 0
always = true
"#;

/// Charges each payment (a message naming it on `charges`) and deletes it; with `key`, a
/// payment already charged is deleted without a second charge.
async fn charge(client: Client, urls: (String, String), clock: ManualClock, key: bool) {
    let (payments, charges) = urls;
    let mut keys = std::collections::HashSet::new();
    loop {
        for m in next_batch(&client, &payments, &clock).await {
            let order = m.body().unwrap_or_default().to_owned();
            if !(key && keys.contains(&order)) {
                let send = client
                    .send_message()
                    .queue_url(&charges)
                    .message_body(&order);
                let _ = send.send().await;
                keys.insert(order);
            }
            let handle = m.receipt_handle().unwrap_or_default();
            let delete = client
                .delete_message()
                .queue_url(&payments)
                .receipt_handle(handle);
            let _ = delete.send().await;
        }
    }
}

/// Runs the drill against a fresh server with the consumer; its verdict's failed cases and
/// the server's delivery mode afterwards.
async fn drill_with(key: bool) -> (Vec<String>, String) {
    let config = Config::ephemeral()
        .with_queue(QueueDecl::new("payments"))
        .with_queue(QueueDecl::new("charges"));
    let s = TestServer::start_with(config).await;
    let urls = (
        s.create_queue("payments").await,
        s.create_queue("charges").await,
    );
    let consumer = tokio::spawn(charge(s.client.clone(), urls, s.clock.clone(), key));
    let opts = options(drill_file(DRILL), s.endpoint());
    let mut out = Vec::new();
    let verdict = run(&opts, &mut out).await.map_err(|e| e.0).unwrap();
    consumer.abort();
    let failed = verdict
        .cases
        .iter()
        .filter(|c| !c.passed)
        .map(|c| c.name.clone())
        .collect();
    let after = s.raw("GET", "/_sqslite/delivery", &[], "").await.body;
    let after: serde_json::Value = serde_json::from_str(&after).unwrap();
    (
        failed,
        after["mode"].as_str().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn a_consumer_without_an_idempotency_key_is_caught() {
    let (failed, mode) = drill_with(false).await;
    assert_eq!(failed, ["no payment is charged twice"]);
    assert_eq!(mode, "exact", "the rollback puts the mode back");
}

#[tokio::test]
async fn the_same_consumer_with_its_key_passes() {
    let (failed, mode) = drill_with(true).await;
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(mode, "exact");
}

#[tokio::test]
async fn a_delivery_step_is_checked_before_anything_runs() {
    let server = sqslite::Server::start(Config::ephemeral()).await.unwrap();
    for (step, wanted) in [
        (
            "mode = \"sometimes\"",
            "`mode` must be \"exact\" or \"at-least-once\"",
        ),
        (
            "mode = \"at-least-once\"\nrates = { duplicates = 0.5 }",
            "unknown rate `duplicates`",
        ),
        (
            "mode = \"at-least-once\"\nrates = { reorder = 1.5 }",
            "rate `reorder` must be a probability",
        ),
        (
            "mode = \"at-least-once\"\nqueue = \"payments.fifo\"",
            "`payments.fifo` is a FIFO queue",
        ),
        ("seed = 3", "step `delivery` needs `mode`"),
    ] {
        let text = format!("[drill]\nname = \"d\"\n\n[[queues]]\nname = \"payments.fifo\"\nFifoQueue = true\n\n[[method]]\naction = \"delivery\"\n{step}\n");
        let opts = options(drill_file(&text), server.endpoint());
        let err = run(&opts, &mut Vec::new()).await.map(|_| ()).unwrap_err();
        assert!(err.0.contains(wanted), "{step}: {}", err.0);
    }
    server.shutdown().await;
}
