//! The kill -9 soak: producers and consumers run against `sqslite --data-dir` (default
//! fsync policy), the server is killed with SIGKILL at a random moment and restarted, again
//! and again. At the end every acknowledged send is found (deleted by an acknowledged
//! delete, or still in the queue) and no acknowledged delete has come back. Snapshots are
//! taken all along (`POST /_sqslite/snapshot`), so kills also land mid-compaction.
//! `SQSLITE_SOAK_CYCLES` sets the number of kills (10 by default, as CI runs it).

use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client;

fn start(dir: &Path) -> (Child, Client, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sqslite"));
    cmd.args(["--port", "0", "--data-dir"])
        .arg(dir)
        .env_remove("SQSLITE_CONFIG")
        .env_remove("SQSLITE_PORT")
        .env_remove("SQSLITE_FSYNC")
        .stdout(Stdio::inherit());
    let (child, endpoint) = crate::common::spawn_listening(&mut cmd);
    let client = crate::common::client_for(&endpoint, "us-east-1", "test");
    (child, client, endpoint)
}

/// Compacts the data directory again and again until the server is gone; counts the
/// snapshots that completed.
async fn snapshot_until_killed(endpoint: String, taken: Arc<AtomicU64>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = endpoint.trim_start_matches("http://").to_owned();
    let request = format!(
        "POST /_sqslite/snapshot HTTP/1.1\r\nhost: {addr}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    );
    loop {
        let Ok(mut stream) = tokio::net::TcpStream::connect(&addr).await else {
            return;
        };
        let mut answer = Vec::new();
        if stream.write_all(request.as_bytes()).await.is_err()
            || stream.read_to_end(&mut answer).await.is_err()
        {
            return;
        }
        if !answer.starts_with(b"HTTP/1.1 200") {
            return;
        }
        taken.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// What the clients were told: sends and deletes acknowledged, deletes attempted.
#[derive(Default)]
struct Ledger {
    sent: HashSet<String>,
    deleted: HashSet<String>,
    delete_tried: HashSet<String>,
}

/// xorshift: the kill moments only need to vary, not to be unpredictable.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

async fn produce(c: Client, url: String, tag: String, ledger: Arc<Mutex<Ledger>>) {
    for n in 0.. {
        let body = format!("{tag}-{n}");
        let sent = c
            .send_message()
            .queue_url(&url)
            .message_body(&body)
            .send()
            .await;
        if sent.is_err() {
            return;
        }
        ledger.lock().unwrap().sent.insert(body);
    }
}

async fn consume(c: Client, url: String, ledger: Arc<Mutex<Ledger>>) {
    loop {
        let Ok(got) = c
            .receive_message()
            .queue_url(&url)
            .max_number_of_messages(10)
            .send()
            .await
        else {
            return;
        };
        for m in got.messages.unwrap_or_default() {
            let body = m.body().unwrap_or_default().to_owned();
            ledger.lock().unwrap().delete_tried.insert(body.clone());
            let handle = m.receipt_handle().unwrap_or_default();
            if c.delete_message()
                .queue_url(&url)
                .receipt_handle(handle)
                .send()
                .await
                .is_err()
            {
                return;
            }
            ledger.lock().unwrap().deleted.insert(body);
        }
    }
}

/// Receives everything left (in-flight messages come back after their 1 s visibility).
async fn drain(c: &Client, url: &str) -> Vec<String> {
    let mut left = Vec::new();
    loop {
        let not_visible = c
            .get_queue_attributes()
            .queue_url(url)
            .attribute_names(QueueAttributeName::All)
            .send()
            .await
            .unwrap();
        let count = |name: QueueAttributeName| -> u64 {
            not_visible
                .attributes()
                .and_then(|a| a.get(&name))
                .map_or(0, |v| v.parse().unwrap())
        };
        let (visible, hidden) = (
            count(QueueAttributeName::ApproximateNumberOfMessages),
            count(QueueAttributeName::ApproximateNumberOfMessagesNotVisible),
        );
        // What this drain took is hidden for an hour; anything else hidden is a consumer's
        // receive from before the last kill, visible again within a second.
        if visible == 0 && hidden == left.len() as u64 {
            return left;
        }
        let got = c
            .receive_message()
            .queue_url(url)
            .max_number_of_messages(10)
            .visibility_timeout(3600)
            .wait_time_seconds(1)
            .send()
            .await
            .unwrap();
        left.extend(
            got.messages
                .unwrap_or_default()
                .iter()
                .map(|m| m.body().unwrap().to_owned()),
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_work_survives_repeated_kill_9() {
    let cycles: u64 = std::env::var("SQSLITE_SOAK_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let dir = std::env::temp_dir().join(format!("sqslite-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64 ^ u64::from(std::process::id());
    let snapshots = Arc::new(AtomicU64::new(0));
    let (mut child, mut c, mut endpoint) = start(&dir);
    let url = c
        .create_queue()
        .queue_name("soak")
        .attributes(QueueAttributeName::VisibilityTimeout, "1")
        .send()
        .await
        .unwrap()
        .queue_url()
        .unwrap()
        .to_owned();
    for cycle in 0..cycles {
        let tasks = spawn_workers(cycle, &c, &url, &ledger, &endpoint, &snapshots);
        // The kill lands at a random moment of the work: that moment is what is soaked.
        tokio::time::sleep(Duration::from_millis(100 + next(&mut seed) % 400)).await;
        child.kill().unwrap();
        child.wait().unwrap();
        for t in tasks {
            t.await.unwrap();
        }
        (child, c, endpoint) = start(&dir);
    }
    let left = drain(&c, &url).await;
    child.kill().unwrap();
    let _ = child.wait();
    check_the_ledger(
        &ledger.lock().unwrap(),
        &left.into_iter().collect(),
        cycles,
        snapshots.load(Ordering::Relaxed),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two producers, two consumers and the snapshotter of one cycle, until the kill.
fn spawn_workers(
    cycle: u64,
    c: &Client,
    url: &str,
    ledger: &Arc<Mutex<Ledger>>,
    endpoint: &str,
    snapshots: &Arc<AtomicU64>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    for p in 0..2 {
        let tag = format!("c{cycle}p{p}");
        tasks.push(tokio::spawn(produce(
            c.clone(),
            url.to_owned(),
            tag,
            ledger.clone(),
        )));
    }
    for _ in 0..2 {
        tasks.push(tokio::spawn(consume(
            c.clone(),
            url.to_owned(),
            ledger.clone(),
        )));
    }
    tasks.push(tokio::spawn(snapshot_until_killed(
        endpoint.to_owned(),
        snapshots.clone(),
    )));
    tasks
}

/// Every acknowledged send is deleted or `left`; no acknowledged delete is `left`.
fn check_the_ledger(ledger: &Ledger, left: &HashSet<String>, cycles: u64, snapshots: u64) {
    let lost: Vec<_> = ledger
        .sent
        .iter()
        .filter(|b| !left.contains(*b) && !ledger.delete_tried.contains(*b))
        .collect();
    let resurrected: Vec<_> = ledger
        .deleted
        .iter()
        .filter(|b| left.contains(*b))
        .collect();
    println!(
        "soak: {cycles} kills, {snapshots} snapshots, {} sends acknowledged, {} deletes acknowledged, {} left in the queue, {} lost, {} resurrected",
        ledger.sent.len(),
        ledger.deleted.len(),
        left.len(),
        lost.len(),
        resurrected.len()
    );
    assert!(lost.is_empty(), "acknowledged sends lost: {lost:?}");
    assert!(
        resurrected.is_empty(),
        "acknowledged deletes came back: {resurrected:?}"
    );
    assert!(
        ledger.sent.len() as u64 > cycles,
        "the producers made progress"
    );
}
