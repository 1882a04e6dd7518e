//! The producer/consumer pipeline: batches sent, received and deleted at once, with each
//! message's latency from send to receipt.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::extract;
use crate::load::{self, Conn, Protocol};

pub struct Pipeline {
    /// Messages the producers had accepted.
    pub sent: u64,
    /// Messages the consumers received and deleted.
    pub delivered: u64,
    pub elapsed: Duration,
    pub latencies_us: Vec<u32>,
}

/// Producers send batches of 10 stamped with the send time; consumers receive 10 and delete
/// them with one DeleteMessageBatch. Reports what the consumers finished.
pub async fn pipeline(
    addr: SocketAddr,
    protocol: Protocol,
    url: &str,
    producers: usize,
    consumers: usize,
    secs: Duration,
) -> Pipeline {
    let origin = Instant::now();
    let deadline = origin + secs;
    let delivered = Arc::new(AtomicU64::new(0));
    let sent = Arc::new(AtomicU64::new(0));
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for _ in 0..producers {
        let (url, sent) = (url.to_owned(), sent.clone());
        tasks.push(tokio::spawn(producer(
            addr,
            protocol,
            url,
            sent,
            (origin, deadline),
        )));
    }
    for _ in 0..consumers {
        let (url, delivered, latencies) = (url.to_owned(), delivered.clone(), latencies.clone());
        let window = (origin, deadline);
        tasks.push(tokio::spawn(consumer(
            addr, protocol, url, delivered, latencies, window,
        )));
    }
    for t in tasks {
        let _ = t.await;
    }
    let latencies_us = std::mem::take(
        &mut *latencies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    Pipeline {
        sent: sent.load(Ordering::Relaxed),
        delivered: delivered.load(Ordering::Relaxed),
        elapsed: origin.elapsed(),
        latencies_us,
    }
}

/// Sends batches of 10 stamped with the send time until the deadline.
async fn producer(
    addr: SocketAddr,
    protocol: Protocol,
    url: String,
    sent: Arc<AtomicU64>,
    (origin, deadline): (Instant, Instant),
) {
    let mut conn = Conn::open(addr).await.expect("producer connects");
    let host = addr.to_string();
    while Instant::now() < deadline {
        let stamp = origin.elapsed().as_micros();
        let entries: Vec<String> = (0..10)
            .map(|i| format!(r#"{{"Id":"e{i}","MessageBody":"{stamp}"}}"#))
            .collect();
        let input = format!(
            r#"{{"QueueUrl":"{url}","Entries":[{}]}}"#,
            entries.join(",")
        );
        let (status, _) = conn
            .send(load::sqs_request_text(
                &host,
                protocol,
                "SendMessageBatch",
                input,
            ))
            .await;
        if status == 200 {
            sent.fetch_add(10, Ordering::Relaxed);
        }
    }
}

/// Receives 10 at a time and deletes them with one DeleteMessageBatch until the deadline,
/// noting each message's latency from its stamp.
async fn consumer(
    addr: SocketAddr,
    protocol: Protocol,
    url: String,
    delivered: Arc<AtomicU64>,
    latencies: Arc<Mutex<Vec<u32>>>,
    (origin, deadline): (Instant, Instant),
) {
    let mut conn = Conn::open(addr).await.expect("consumer connects");
    let host = addr.to_string();
    let receive = format!(r#"{{"QueueUrl":"{url}","MaxNumberOfMessages":10,"WaitTimeSeconds":1}}"#);
    let mut mine = Vec::new();
    while Instant::now() < deadline {
        let (_, body) = conn
            .send(load::sqs_request_text(
                &host,
                protocol,
                "ReceiveMessage",
                receive.clone(),
            ))
            .await;
        let now = origin.elapsed().as_micros() as u64;
        let received = received(protocol, &body);
        if received.is_empty() {
            continue;
        }
        let mut entries = Vec::with_capacity(received.len());
        for (i, (handle, stamp)) in received.iter().enumerate() {
            mine.push(now.saturating_sub(stamp.parse().unwrap_or(now)) as u32);
            entries.push(format!(r#"{{"Id":"d{i}","ReceiptHandle":"{handle}"}}"#));
        }
        let input = format!(
            r#"{{"QueueUrl":"{url}","Entries":[{}]}}"#,
            entries.join(",")
        );
        let (status, _) = conn
            .send(load::sqs_request_text(
                &host,
                protocol,
                "DeleteMessageBatch",
                input,
            ))
            .await;
        if status == 200 {
            delivered.fetch_add(received.len() as u64, Ordering::Relaxed);
        }
    }
    latencies
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .extend(mine);
}

#[derive(serde::Deserialize)]
struct Received {
    #[serde(rename = "Messages", default)]
    messages: Vec<ReceivedMessage>,
}

#[derive(serde::Deserialize)]
struct ReceivedMessage {
    #[serde(rename = "ReceiptHandle")]
    receipt_handle: String,
    #[serde(rename = "Body")]
    body: String,
}

/// (receipt handle, body) of each received message; typed parsing keeps the client cheap.
fn received(protocol: Protocol, body: &[u8]) -> Vec<(String, String)> {
    match protocol {
        Protocol::Json => serde_json::from_slice::<Received>(body)
            .map(|r| {
                r.messages
                    .into_iter()
                    .map(|m| (m.receipt_handle, m.body))
                    .collect()
            })
            .unwrap_or_default(),
        Protocol::Query => {
            let text = String::from_utf8_lossy(body);
            extract(&text, "ReceiptHandle")
                .into_iter()
                .zip(extract(&text, "Body"))
                .collect()
        }
    }
}
