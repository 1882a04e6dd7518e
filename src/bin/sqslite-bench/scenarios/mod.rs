//! The measured scenarios: request rates, the producer/consumer pipeline, long-poll wake-up,
//! cold start and memory.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::load::{self, percentile, Conn, LoadResult, Protocol};

mod pipeline;
pub use pipeline::pipeline;

/// One measured figure, printed as a JSON line and a table row.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    pub scenario: String,
    pub server: String,
    pub connections: usize,
    pub rate: f64,
    pub unit: &'static str,
    pub p50_ms: Option<f64>,
    pub p90_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub ratio_to_reference: Option<f64>,
    /// With `ratio_to_reference`: each alternated round's ratio, in order, for the spread.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub round_ratios: Vec<f64>,
    pub errors: u64,
}

impl Row {
    pub fn rate(
        scenario: &str,
        server: &str,
        connections: usize,
        r: &mut LoadResult,
        unit: &'static str,
        per_request: f64,
    ) -> Row {
        Row {
            scenario: scenario.into(),
            server: server.into(),
            connections,
            rate: r.per_second() * per_request,
            unit,
            p50_ms: Some(r.percentile(50.0)),
            p90_ms: Some(r.percentile(90.0)),
            p99_ms: Some(r.percentile(99.0)),
            ratio_to_reference: None,
            round_ratios: Vec::new(),
            errors: r.errors,
        }
    }

    /// This row as a ratio to `reference`, the other side of the same alternated rounds.
    pub fn against(&mut self, reference: &Row, ours: &LoadResult, base: &LoadResult) {
        self.ratio_to_reference = Some(self.rate / reference.rate.max(1e-9));
        self.round_ratios = ours
            .round_rates
            .iter()
            .zip(&base.round_rates)
            .map(|(o, b)| (o / b.max(1e-9) * 1000.0).round() / 1000.0)
            .collect();
    }

    pub fn figure(scenario: &str, value: f64, unit: &'static str) -> Row {
        Row {
            scenario: scenario.into(),
            server: "sqslite".into(),
            connections: 0,
            rate: value,
            unit,
            p50_ms: None,
            p90_ms: None,
            p99_ms: None,
            ratio_to_reference: None,
            round_ratios: Vec::new(),
            errors: 0,
        }
    }
}

pub async fn create_queue(addr: SocketAddr, protocol: Protocol, name: &str) -> String {
    let mut conn = Conn::open(addr).await.expect("connect to create a queue");
    let (_, body) = conn
        .call(protocol, "CreateQueue", &json!({"QueueName": name}))
        .await;
    let text = String::from_utf8_lossy(&body);
    extract(&text, "QueueUrl")
        .into_iter()
        .next()
        .unwrap_or_else(|| format!("http://{addr}/000000000000/{name}"))
}

/// Values of a member in a JSON or XML response body (enough for URLs, handles and bodies).
pub fn extract(text: &str, member: &str) -> Vec<String> {
    if text.starts_with('{') {
        let v: Value = serde_json::from_str(text).unwrap_or_default();
        let mut out = Vec::new();
        collect(&v, member, &mut out);
        return out;
    }
    let (open, close) = (format!("<{member}>"), format!("</{member}>"));
    text.split(&open)
        .skip(1)
        .filter_map(|rest| rest.split(&close).next())
        .map(|s| s.replace("&quot;", "\"").replace("&amp;", "&"))
        .collect()
}

fn collect(v: &Value, member: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                match (k == member, child) {
                    (true, Value::String(s)) => out.push(s.clone()),
                    _ => collect(child, member, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect(i, member, out)),
        _ => {}
    }
}

/// SendMessage back to back: the headline request rate.
pub async fn send(
    addr: SocketAddr,
    protocol: Protocol,
    url: &str,
    conns: usize,
    secs: Duration,
) -> LoadResult {
    let input = json!({"QueueUrl": url, "MessageBody": "x".repeat(100)});
    let host = addr.to_string();
    load::run(addr, conns, secs, move |_, _| {
        load::sqs_request(&host, protocol, "SendMessage", &input)
    })
    .await
}

fn batch_input(url: &str, body: &str) -> Value {
    let entries: Vec<Value> = (0..10)
        .map(|i| json!({"Id": format!("e{i}"), "MessageBody": body}))
        .collect();
    json!({"QueueUrl": url, "Entries": entries})
}

/// SendMessageBatch with 10 entries of `body_len` bytes.
pub async fn batch(
    addr: SocketAddr,
    protocol: Protocol,
    url: &str,
    conns: usize,
    secs: Duration,
    body_len: usize,
) -> LoadResult {
    let input = batch_input(url, &"x".repeat(body_len));
    let host = addr.to_string();
    load::run(addr, conns, secs, move |_, _| {
        load::sqs_request(&host, protocol, "SendMessageBatch", &input)
    })
    .await
}

/// Sends `count` messages of `body_len` bytes with batches over 16 connections.
pub async fn fill(addr: SocketAddr, protocol: Protocol, url: &str, count: u64, body_len: usize) {
    let input = batch_input(url, &"x".repeat(body_len));
    let left = Arc::new(AtomicU64::new(count.div_ceil(10)));
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let (input, left) = (input.clone(), left.clone());
        tasks.push(tokio::spawn(async move {
            let mut conn = Conn::open(addr).await.expect("connect to fill");
            while left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok()
            {
                conn.call(protocol, "SendMessageBatch", &input).await;
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
}

/// A receiver parks in a long poll, a sender sends: time from the send until the receiver has
/// the message, over `rounds` rounds.
pub async fn long_poll_wakeup(
    addr: SocketAddr,
    protocol: Protocol,
    url: &str,
    rounds: usize,
) -> Vec<u32> {
    let mut sender = Conn::open(addr).await.expect("sender connects");
    let mut samples = Vec::with_capacity(rounds + 1);
    // One round more than asked, the first not kept: it pays for first use on both sides
    // (a sample of 14 ms after the rate scenarios once stood as the p99 of a whole run).
    for _ in 0..=rounds {
        let url_r = url.to_owned();
        let receiver = tokio::spawn(async move {
            let mut conn = Conn::open(addr).await.expect("receiver connects");
            let (_, body) = conn
                .call(
                    protocol,
                    "ReceiveMessage",
                    &json!({"QueueUrl": url_r, "WaitTimeSeconds": 10}),
                )
                .await;
            (Instant::now(), String::from_utf8_lossy(&body).into_owned())
        });
        // Let the receive reach the server and park before sending.
        tokio::time::sleep(Duration::from_millis(20)).await;
        let sent = Instant::now();
        sender
            .call(
                protocol,
                "SendMessage",
                &json!({"QueueUrl": url, "MessageBody": "wake"}),
            )
            .await;
        if let Ok((got, text)) = receiver.await {
            samples.push(got.saturating_duration_since(sent).as_micros() as u32);
            for handle in extract(&text, "ReceiptHandle") {
                sender
                    .call(
                        protocol,
                        "DeleteMessage",
                        &json!({"QueueUrl": url, "ReceiptHandle": handle}),
                    )
                    .await;
            }
        }
    }
    samples.drain(..samples.len().min(1));
    samples
}

pub fn summarize(samples: &mut [u32]) -> (f64, f64, f64) {
    (
        percentile(samples, 50.0),
        percentile(samples, 90.0),
        percentile(samples, 99.0),
    )
}
