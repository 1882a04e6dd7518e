//! At-least-once delivery on request (`[delivery]`, `/_sqslite/delivery`): duplicates with new
//! receipt handles, best-effort order, early visibility ends and approximate counts on
//! standard queues, the same run for the same seed, and none of it on FIFO queues or
//! without the mode.

use serde_json::{json, Value};
use sqslite::config::{DeliveryMode, DeliverySettings, Rates};
use sqslite::Config;

use crate::common::TestServer;

/// Rates with only the named ones on.
fn only(on: &[(&str, f64)]) -> Rates {
    let mut rates = Rates::all(0.0);
    for (name, value) in on {
        *rates.get_mut(name).unwrap() = *value;
    }
    rates
}

/// A server delivering at least once with `seed` and `rates`.
async fn loose(seed: u64, rates: Rates) -> TestServer {
    let config = Config {
        delivery: DeliverySettings {
            mode: DeliveryMode::AtLeastOnce,
            seed,
            rates,
        },
        ..Config::ephemeral()
    };
    TestServer::start_with(config).await
}

async fn admin(t: &TestServer, method: &str, path: &str, body: &Value) -> (u16, Value) {
    let json = body.to_string();
    let r = t
        .raw(method, path, &[("content-type", "application/json")], &json)
        .await;
    (r.status, serde_json::from_str(&r.body).unwrap_or_default())
}

/// One message at a time: (id, body, handle, receive count).
async fn take(t: &TestServer, url: &str) -> Option<(String, String, String, u32)> {
    let out = t
        .client
        .receive_message()
        .queue_url(url)
        .message_system_attribute_names(aws_sdk_sqs::types::MessageSystemAttributeName::All)
        .send()
        .await
        .expect("receive");
    let m = out.messages?.into_iter().next()?;
    let count = m
        .attributes()
        .and_then(|a| {
            a.get(&aws_sdk_sqs::types::MessageSystemAttributeName::ApproximateReceiveCount)
        })
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Some((m.message_id?, m.body?, m.receipt_handle?, count))
}

/// Receives and deletes one at a time until the queue is empty: the bodies in the order
/// they came, duplicates included.
async fn drain(t: &TestServer, url: &str) -> Vec<String> {
    let mut bodies = Vec::new();
    while let Some((_, body, handle, _)) = take(t, url).await {
        bodies.push(body);
        t.delete(url, &handle).await;
        assert!(bodies.len() < 1000, "the queue never drains");
    }
    bodies
}

async fn send_numbered(t: &TestServer, url: &str, n: usize) {
    for i in 0..n {
        t.send(url, &format!("m{i:02}")).await;
    }
}

#[tokio::test]
async fn a_duplicate_comes_back_with_a_new_handle_and_both_handles_delete() {
    let t = loose(1, only(&[("duplicate", 1.0)])).await;
    let url = t.create_queue("orders").await;
    let sent = t.send(&url, "charge me once").await;
    let (id, _, first, count) = take(&t, &url).await.unwrap();
    assert_eq!((id.as_str(), count), (sent.as_str(), 1));
    t.delete(&url, &first).await;
    let (again, body, second, count) = take(&t, &url).await.expect("the duplicate");
    assert_eq!((again, body.as_str(), count), (sent, "charge me once", 2));
    assert_ne!(first, second, "a duplicate has a new receipt handle");
    // Both handles delete: the first (a standard queue takes any handle the message had) and,
    // with duplicates off, the second for good.
    t.delete(&url, &first).await;
    let (status, _) = admin(
        &t,
        "PUT",
        "/_sqslite/delivery",
        &json!({"rates": {"duplicate": 0}}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, _, third, _) = take(&t, &url)
        .await
        .expect("still there after the first handle");
    t.delete(&url, &second).await;
    t.delete(&url, &third).await;
    assert!(take(&t, &url).await.is_none());
}

#[tokio::test]
async fn order_is_best_effort_but_every_message_arrives() {
    let t = loose(7, only(&[("reorder", 0.5)])).await;
    let url = t.create_queue("orders").await;
    send_numbered(&t, &url, 20).await;
    let got = drain(&t, &url).await;
    let mut sorted = got.clone();
    sorted.sort();
    let sent: Vec<String> = (0..20).map(|i| format!("m{i:02}")).collect();
    assert_eq!(sorted, sent, "each message once, none lost");
    assert_ne!(got, sent, "seed 7 reorders");
}

/// Everything a run shows: bodies and receive counts in order, and the counts it reads.
async fn one_run(seed: u64) -> Vec<String> {
    let t = loose(seed, Rates::default()).await;
    let url = t.create_queue("orders").await;
    send_numbered(&t, &url, 30).await;
    let mut run = Vec::new();
    while let Some((_, body, handle, count)) = take(&t, &url).await {
        let visible = t.attribute(&url, "ApproximateNumberOfMessages").await;
        run.push(format!("{body}#{count} ({visible})"));
        t.delete(&url, &handle).await;
        assert!(run.len() < 1000);
    }
    run
}

#[tokio::test]
async fn the_same_seed_gives_the_same_run() {
    let a = one_run(52).await;
    assert_eq!(a, one_run(52).await);
    assert_ne!(a, one_run(53).await);
    assert!(
        a.len() > 30,
        "the defaults make duplicates in 30 messages: {a:?}"
    );
}

#[tokio::test]
async fn visibility_may_end_early() {
    let t = loose(3, only(&[("early_visibility", 1.0)])).await;
    let url = t
        .create_queue_with("orders", &[("VisibilityTimeout", "30")])
        .await;
    t.send(&url, "slow work").await;
    let (_, _, first, _) = take(&t, &url).await.unwrap();
    t.advance_ms(29_999);
    let (_, _, second, count) = take(&t, &url).await.expect("back before 30 s");
    assert_eq!(count, 2);
    assert_ne!(first, second);
}

#[tokio::test]
async fn approximate_counts_are_approximate() {
    let t = loose(5, only(&[("approximate_counts", 1.0)])).await;
    let url = t.create_queue("orders").await;
    send_numbered(&t, &url, 5).await;
    let (visible, _, _) = t.counts(&url).await;
    assert!(visible != 5 && (4..=6).contains(&visible), "{visible}");
}

#[tokio::test]
async fn exact_is_the_default_and_unchanged() {
    let t = TestServer::start().await;
    let url = t.create_queue("orders").await;
    send_numbered(&t, &url, 20).await;
    assert_eq!(t.counts(&url).await, (20, 0, 0));
    let got = drain(&t, &url).await;
    let sent: Vec<String> = (0..20).map(|i| format!("m{i:02}")).collect();
    assert_eq!(got, sent, "in order, once each");
    let (status, shown) = admin(&t, "GET", "/_sqslite/delivery", &Value::Null).await;
    assert_eq!((status, shown["mode"].as_str()), (200, Some("exact")));
}

#[tokio::test]
async fn fifo_queues_keep_exactly_once_and_order() {
    let t = loose(9, Rates::all(1.0)).await;
    let url = t
        .create_queue_with(
            "orders.fifo",
            &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
        )
        .await;
    for i in 0..5 {
        t.send_fifo(&url, "g", &format!("m{i:02}")).await;
    }
    assert_eq!(t.counts(&url).await, (5, 0, 0));
    let got = drain(&t, &url).await;
    assert_eq!(got, ["m00", "m01", "m02", "m03", "m04"]);
    let (status, refused) = admin(
        &t,
        "PUT",
        "/_sqslite/delivery/queues/orders.fifo",
        &json!({"mode": "at-least-once"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        refused["error"].as_str().unwrap().contains("FIFO"),
        "{refused}"
    );
}

#[tokio::test]
async fn the_admin_api_sets_the_mode_server_wide_and_per_queue() {
    let t = TestServer::start().await;
    let url = t.create_queue("orders").await;
    t.create_queue("audit").await;
    let put = json!({"mode": "at-least-once", "seed": 4, "rates": {"duplicate": 1, "reorder": 0}});
    let (status, shown) = admin(&t, "PUT", "/_sqslite/delivery", &put).await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["seed"], 4);
    assert_eq!(shown["rates"]["duplicate"], 1.0);
    assert_eq!(shown["queues"].as_array().unwrap().len(), 2);
    let own = json!({"mode": "exact"});
    let (status, shown) = admin(&t, "PUT", "/_sqslite/delivery/queues/orders", &own).await;
    assert_eq!(status, 200);
    // Listed by key: `audit` (the server's mode), then `orders` (its own).
    assert_eq!(shown["queues"][1]["name"], "orders");
    assert_eq!(shown["queues"][1]["own"], "exact");
    assert_eq!(shown["queues"][0]["own"], Value::Null);
    // Its own mode wins: a deleted message stays deleted.
    t.send(&url, "once").await;
    let (_, _, handle, _) = take(&t, &url).await.unwrap();
    t.delete(&url, &handle).await;
    assert!(take(&t, &url).await.is_none());
    for (body, wanted) in [
        (json!({"mode": "sometimes"}), "`mode` must be"),
        (
            json!({"rates": {"duplicates": 0.5}}),
            "unknown rate `duplicates`",
        ),
        (json!({"rates": {"reorder": 2}}), "from 0 to 1"),
    ] {
        let (status, error) = admin(&t, "PUT", "/_sqslite/delivery", &body).await;
        assert_eq!(status, 400, "{body}");
        assert!(error["error"].as_str().unwrap().contains(wanted), "{error}");
    }
}

#[tokio::test]
async fn a_declared_queue_takes_its_own_mode() {
    let config = Config::ephemeral()
        .with_queue(sqslite::QueueDecl::new("orders").delivery(DeliveryMode::AtLeastOnce))
        .with_queue(sqslite::QueueDecl::new("audit"));
    let t = TestServer::start_with(config).await;
    let (_, shown) = admin(&t, "GET", "/_sqslite/delivery", &Value::Null).await;
    assert_eq!(shown["mode"], "exact");
    let queues = shown["queues"].as_array().unwrap();
    assert_eq!(queues.len(), 1, "{shown}");
    assert_eq!(queues[0]["name"], "orders");
    assert_eq!(queues[0]["mode"], "at-least-once");
}

#[test]
fn delivery_settings_are_read_and_refused_cleanly() {
    let text = "[delivery]\nmode = \"at-least-once\"\nseed = 9\nduplicate = 0.5\n\n[[queues]]\nname = \"orders\"\ndelivery = \"exact\"\n";
    let config = Config::from_text("s.toml", text).unwrap().config;
    let wanted = DeliverySettings {
        mode: DeliveryMode::AtLeastOnce,
        seed: 9,
        rates: Rates {
            duplicate: 0.5,
            ..Rates::default()
        },
    };
    assert_eq!(config.delivery, wanted);
    assert_eq!(config.queues[0].delivery, Some(DeliveryMode::Exact));
    for (text, wanted) in [
        (
            "[delivery]\nduplicate = 1.5\n",
            "s.toml:2: `duplicate` must be a probability from 0 to 1",
        ),
        (
            "[delivery]\nmode = \"maybe\"\n",
            "s.toml:2: `mode` must be \"exact\" or \"at-least-once\"",
        ),
        (
            "[delivery]\nduplicates = 0.5\n",
            "s.toml:2: unknown key `duplicates`",
        ),
        (
            "[[queues]]\nname = \"o.fifo\"\nFifoQueue = true\ndelivery = \"at-least-once\"\n",
            "s.toml:4: queue `o.fifo` is FIFO",
        ),
    ] {
        let error = Config::from_text("s.toml", text).unwrap_err().to_string();
        assert!(error.starts_with(wanted), "{error}");
    }
}

#[tokio::test]
async fn sns_may_deliver_a_notification_twice() {
    let config = Config {
        delivery: DeliverySettings {
            mode: DeliveryMode::AtLeastOnce,
            seed: 2,
            rates: only(&[("duplicate", 1.0)]),
        },
        ..Config::ephemeral()
    };
    let s = crate::common::sns::start_with(config).await;
    let topic = s.topic("orders", &[]).await;
    let (url, arn) = s.queue("orders", &[]).await;
    s.subscribe(&topic, &arn, &[("RawMessageDelivery", "true")])
        .await;
    s.publish(&topic, "ship once").await;
    let got = s.receive(&url).await;
    let bodies: Vec<_> = got.iter().map(|m| m.body().unwrap()).collect();
    assert_eq!(bodies, ["ship once", "ship once"]);
    assert_ne!(got[0].message_id(), got[1].message_id());
}
