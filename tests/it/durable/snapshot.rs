//! Durable snapshots: a snapshot and its backup hold every state, the log goes on after it,
//! and without a data directory there is nothing to snapshot.

use super::{check_state, write_state};
use crate::common::durable::{attribute, temp_dir, Proc};
use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client;

/// Sends `n` messages to a new queue `name` in batches of ten; returns its URL.
async fn fill(c: &Client, name: &str, n: usize) -> String {
    let url = c.create_queue().queue_name(name).send().await.unwrap();
    let url = url.queue_url().unwrap().to_owned();
    for start in (0..n).step_by(10) {
        let entries = (start..n.min(start + 10)).map(|i| {
            aws_sdk_sqs::types::SendMessageBatchRequestEntry::builder()
                .id(i.to_string())
                .message_body(format!("bulk {i}"))
                .build()
                .unwrap()
        });
        let out = c
            .send_message_batch()
            .queue_url(&url)
            .set_entries(Some(entries.collect()))
            .send()
            .await
            .unwrap();
        assert!(out.failed().is_empty());
    }
    url
}

async fn snapshot(p: &Proc, body: &str) -> crate::common::RawResponse {
    crate::common::raw(
        &p.endpoint,
        "POST",
        "/_sqslite/snapshot",
        &[("content-type", "application/json")],
        body,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_and_its_backup_hold_every_state_and_the_log_goes_on_after_it() {
    let dir = temp_dir("snapshot");
    let backup = dir.with_extension("backup");
    let _ = std::fs::remove_dir_all(&backup);
    let p = Proc::start(&dir);
    let before = write_state(&p.client).await;
    // More than one turn of the snapshot's walk through a queue (in another region, so
    // check_state's ListQueues stays as it was).
    let eu = |p: &Proc| crate::common::client_for(&p.endpoint, "eu-west-1", "test");
    let bulk = fill(&eu(&p), "bulk", 2_500).await;
    let r = snapshot(
        &p,
        &format!(r#"{{"backup_to":{:?}}}"#, backup.to_str().unwrap()),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["backup_bytes"].as_u64().unwrap() > 2_500 * 6);
    let again = snapshot(
        &p,
        &format!(r#"{{"backup_to":{:?}}}"#, backup.to_str().unwrap()),
    )
    .await;
    assert_eq!(
        again.status, 400,
        "a backup never overwrites: {}",
        again.body
    );
    let after = eu(&p)
        .send_message()
        .queue_url(&bulk)
        .message_body("after")
        .send()
        .await;
    after.unwrap();
    p.kill();

    let p = Proc::start(&dir);
    let visible = QueueAttributeName::ApproximateNumberOfMessages;
    assert_eq!(attribute(&eu(&p), &bulk, visible.clone()).await, "2501");
    check_state(&p.client, before.clone()).await;
    drop(p);

    let p = Proc::start(&backup);
    assert_eq!(attribute(&eu(&p), &bulk, visible).await, "2500");
    check_state(&p.client, before).await;
    drop(p);
    for d in [&dir, &backup] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_without_a_data_directory_is_refused() {
    let server = crate::common::TestServer::start().await;
    let r = crate::common::raw(&server.endpoint(), "POST", "/_sqslite/snapshot", &[], "").await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("no --data-dir"), "{}", r.body);
}
