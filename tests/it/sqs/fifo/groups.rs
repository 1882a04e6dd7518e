//! FIFO message groups as SQS serves them: the visible prefix of each group, groups in the
//! order their head became available, long polls woken by whatever releases a group; and the
//! deduplication window across PurgeQueue and a change of DeduplicationScope (which keeps the
//! scope the queue was created with).

use std::time::{Duration, Instant};

use crate::common::TestServer;
use aws_sdk_sqs::types::{Message, QueueAttributeName};

/// Upper bound on wall time for a woken long poll (WaitTimeSeconds is 20 and the manual clock
/// never reaches it): a receive that is not woken fails here instead of hanging.
const WOKEN: Duration = Duration::from_millis(100);

async fn fifo(t: &TestServer, name: &str) -> String {
    t.create_queue_with(name, &[("FifoQueue", "true")]).await
}

/// Sends `body` to `group`, deduplicated by `body`; returns the MessageId.
async fn send(t: &TestServer, url: &str, group: &str, body: &str) -> String {
    t.send_fifo(url, group, body).await.message_id.unwrap()
}

async fn receive(t: &TestServer, url: &str, max: i32, visibility: i32) -> Vec<Message> {
    t.client
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(max)
        .visibility_timeout(visibility)
        .send()
        .await
        .unwrap()
        .messages()
        .to_vec()
}

fn bodies(msgs: &[Message]) -> Vec<&str> {
    msgs.iter().filter_map(Message::body).collect()
}

fn handle(m: &Message) -> &str {
    m.receipt_handle().unwrap()
}

#[tokio::test]
async fn the_head_of_two_received_together_comes_back_alone() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo").await;
    send(&t, &url, "g1", "m1").await;
    send(&t, &url, "g1", "m2").await;
    let both = receive(&t, &url, 10, 30).await;
    assert_eq!(bodies(&both), ["m1", "m2"]);
    t.set_visibility(&url, handle(&both[0]), 0).await;
    let again = receive(&t, &url, 10, 30).await;
    assert_eq!(bodies(&again), ["m1"], "m2 is still in flight");
    assert_eq!(t.counts(&url).await, (0, 2, 0));
    // The same through a shorter timeout that expires on the clock.
    t.set_visibility(&url, handle(&again[0]), 5).await;
    t.advance(5);
    assert_eq!(bodies(&receive(&t, &url, 10, 30).await), ["m1"]);
}

#[tokio::test]
async fn extending_the_middle_of_three_returns_only_the_one_before_it() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo").await;
    for body in ["m1", "m2", "m3"] {
        send(&t, &url, "g", body).await;
    }
    let all = receive(&t, &url, 10, 10).await;
    assert_eq!(bodies(&all), ["m1", "m2", "m3"]);
    t.set_visibility(&url, handle(&all[1]), 60).await;
    t.advance(10);
    assert_eq!(t.counts(&url).await, (2, 1, 0));
    let m1 = receive(&t, &url, 10, 100).await;
    assert_eq!(bodies(&m1), ["m1"]);
    assert!(receive(&t, &url, 10, 100).await.is_empty(), "m3 waits");
    t.delete(&url, handle(&m1[0])).await;
    assert!(
        receive(&t, &url, 10, 100).await.is_empty(),
        "m2 is the head, in flight"
    );
    t.advance(50);
    assert_eq!(bodies(&receive(&t, &url, 10, 100).await), ["m2", "m3"]);
}

#[tokio::test]
async fn a_group_just_received_goes_behind_the_groups_waiting() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo").await;
    for (group, body) in [("g1", "a"), ("g2", "b"), ("g3", "c")] {
        send(&t, &url, group, body).await;
    }
    assert_eq!(bodies(&receive(&t, &url, 2, 0).await), ["a", "b"]);
    assert_eq!(bodies(&receive(&t, &url, 10, 0).await), ["c", "a", "b"]);
    // Visible again on the clock: served in the order their deadlines passed.
    let held = receive(&t, &url, 10, 30).await;
    t.set_visibility(&url, handle(&held[0]), 20).await;
    t.set_visibility(&url, handle(&held[2]), 10).await;
    t.advance(30);
    assert_eq!(bodies(&receive(&t, &url, 10, 30).await), ["b", "c", "a"]);
}

/// What frees a group whose head is in flight.
enum Release {
    Delete,
    VisibilityZero,
    Expiry,
}

/// A FIFO long poll parked while its group's head is in flight: what it returns once
/// `release` frees the group, and how long after the release call returned.
async fn parked_until(t: &TestServer, url: &str, release: Release) -> (Vec<String>, Duration) {
    send(t, url, "g", "m1").await;
    send(t, url, "g", "m2").await;
    let head = receive(t, url, 1, 30).await;
    let request = t
        .client
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(10)
        .wait_time_seconds(20)
        .send();
    let waiter = tokio::spawn(request);
    t.wait_parked("q.fifo", 1).await;
    let started = Instant::now();
    match release {
        Release::Delete => t.delete(url, handle(&head[0])).await,
        Release::VisibilityZero => t.set_visibility(url, handle(&head[0]), 0).await,
        Release::Expiry => t.advance(30),
    }
    let released = Instant::now();
    let got = tokio::time::timeout(Duration::from_secs(5), waiter)
        .await
        .expect("the long poll is woken")
        .unwrap()
        .unwrap();
    let took = released.elapsed();
    println!(
        "answered {took:?} after the release returned, {:?} after it began",
        started.elapsed()
    );
    let bodies = bodies(got.messages()).into_iter().map(str::to_owned);
    (bodies.collect(), took)
}

#[tokio::test]
async fn deleting_the_in_flight_head_wakes_a_parked_consumer_at_once() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo").await;
    let (got, took) = parked_until(&t, &url, Release::Delete).await;
    assert_eq!(got, ["m2"]);
    assert!(took < WOKEN, "woken only after {took:?}");
}

#[tokio::test]
async fn visibility_zero_of_the_head_wakes_a_parked_consumer() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo").await;
    let (got, took) = parked_until(&t, &url, Release::VisibilityZero).await;
    assert_eq!(got, ["m1", "m2"]);
    assert!(took < WOKEN, "woken only after {took:?}");
}

#[tokio::test]
async fn visibility_expiry_and_a_shortened_timeout_wake_a_parked_consumer() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo").await;
    let (got, _) = parked_until(&t, &url, Release::Expiry).await;
    assert_eq!(got, ["m1", "m2"]);
    // Parked until a deadline 30 s away; shortening it to 1 s must re-arm the wait.
    let url = fifo(&t, "r.fifo").await;
    send(&t, &url, "g", "m1").await;
    let head = receive(&t, &url, 1, 30).await;
    let request = t
        .client
        .receive_message()
        .queue_url(&url)
        .wait_time_seconds(20)
        .send();
    let waiter = tokio::spawn(request);
    t.wait_parked("r.fifo", 1).await;
    t.set_visibility(&url, handle(&head[0]), 1).await;
    t.advance(1);
    let got = tokio::time::timeout(Duration::from_secs(5), waiter)
        .await
        .expect("woken at the new deadline")
        .unwrap()
        .unwrap();
    assert_eq!(bodies(got.messages()), ["m1"]);
}

#[tokio::test]
async fn the_retention_expiry_of_an_in_flight_head_wakes_a_parked_consumer() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with(
            "q.fifo",
            &[("FifoQueue", "true"), ("MessageRetentionPeriod", "60")],
        )
        .await;
    send(&t, &url, "g", "m1").await;
    t.advance(50);
    send(&t, &url, "g", "m2").await;
    assert_eq!(bodies(&receive(&t, &url, 1, 600).await), ["m1"]);
    let request = t
        .client
        .receive_message()
        .queue_url(&url)
        .wait_time_seconds(20)
        .send();
    let waiter = tokio::spawn(request);
    t.wait_parked("q.fifo", 1).await;
    // m1 expires at 60 s, ten seconds before the poll's own deadline.
    t.advance(10);
    let got = tokio::time::timeout(Duration::from_secs(5), waiter)
        .await
        .expect("woken when m1 expired")
        .unwrap()
        .unwrap();
    assert_eq!(bodies(got.messages()), ["m2"]);
}

#[tokio::test]
async fn purge_clears_the_deduplication_window() {
    let t = TestServer::start().await;
    let url = fifo(&t, "q.fifo").await;
    let first = send(&t, &url, "g", "same").await;
    assert_eq!(send(&t, &url, "g", "same").await, first, "deduplicated");
    t.client.purge_queue().queue_url(&url).send().await.unwrap();
    let after = send(&t, &url, "g", "same").await;
    assert_ne!(after, first, "a new message after the purge");
    assert_eq!(t.counts(&url).await, (1, 0, 0));
}

async fn set_scope(t: &TestServer, url: &str, scope: &str, limit: &str) {
    t.client
        .set_queue_attributes()
        .queue_url(url)
        .attributes(QueueAttributeName::DeduplicationScope, scope)
        .attributes(QueueAttributeName::FifoThroughputLimit, limit)
        .send()
        .await
        .unwrap();
    let attributes = t.all_attributes(url).await;
    assert_eq!(attributes[&QueueAttributeName::DeduplicationScope], scope);
    assert_eq!(attributes[&QueueAttributeName::FifoThroughputLimit], limit);
}

/// Recorded on SQS: GetQueueAttributes reports a changed DeduplicationScope at once, but the
/// queue goes on deduplicating by the scope it was created with, for ids sent before the
/// change and for new ones.
#[tokio::test]
async fn deduplication_keeps_the_scope_the_queue_was_created_with() {
    let t = TestServer::start().await;
    let url = fifo(&t, "by-queue.fifo").await;
    let x = send(&t, &url, "g1", "x").await;
    set_scope(&t, &url, "messageGroup", "perMessageGroupId").await;
    assert_eq!(send(&t, &url, "g2", "x").await, x, "old id, other group");
    let y = send(&t, &url, "g1", "y").await;
    assert_eq!(send(&t, &url, "g2", "y").await, y, "new id, other group");
    assert_eq!(t.counts(&url).await, (2, 0, 0));

    let url = t
        .create_queue_with(
            "by-group.fifo",
            &[
                ("FifoQueue", "true"),
                ("DeduplicationScope", "messageGroup"),
                ("FifoThroughputLimit", "perMessageGroupId"),
            ],
        )
        .await;
    let x = send(&t, &url, "g1", "x").await;
    set_scope(&t, &url, "queue", "perQueue").await;
    assert_eq!(send(&t, &url, "g1", "x").await, x, "same group: duplicate");
    assert_ne!(send(&t, &url, "g2", "x").await, x, "other group: delivered");
    assert_eq!(t.counts(&url).await, (2, 0, 0));
}

/// The creation scope outlives a snapshot (which stores the changed attribute) and a restart.
#[tokio::test]
async fn the_creation_scope_survives_a_snapshot_and_a_restart() {
    let dir = std::env::temp_dir().join(format!("sqslite-dedup-scope-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = || {
        let mut config = sqslite::Config::ephemeral();
        config.data_dir = Some(dir.clone());
        config
    };
    let t = TestServer::start_with(config()).await;
    let url = fifo(&t, "kept.fifo").await;
    let x = send(&t, &url, "g1", "x").await;
    set_scope(&t, &url, "messageGroup", "perMessageGroupId").await;
    let snapshot = t.raw("POST", "/_sqslite/snapshot", &[], "").await;
    assert_eq!(snapshot.status, 200, "{}", snapshot.body);
    t.server.shutdown().await;

    let t = TestServer::start_with(config()).await;
    let url = t.server.queue_url("kept.fifo");
    assert_eq!(
        t.attribute(&url, "DeduplicationScope").await,
        "messageGroup"
    );
    assert_eq!(
        send(&t, &url, "g2", "x").await,
        x,
        "still deduplicated by queue"
    );
    drop(t);
    let _ = std::fs::remove_dir_all(&dir);
}
