//! Scenarios at scale (issue 17): parked consumers, many queues, fan-out over many queues,
//! and the server CPU a workload costs, read from the kernel's per-thread run time.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper::Request;
use serde_json::json;

use crate::load::{self, Conn, LoadResult, Protocol};
use crate::process::Server;
use crate::scenarios::{create_queue, extract};

/// CPU time (ns) every thread of the server has run, from `/proc/<pid>/task/*/schedstat`
/// (nanoseconds, unlike `stat`'s 10 ms ticks, which are too coarse for 500 requests).
pub fn cpu_ns(server: &Server) -> u64 {
    let Some(pid) = server.child.id() else {
        return 0;
    };
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

fn get(addr: SocketAddr, path: &str) -> Request<load::Body> {
    Request::get(path)
        .header("host", addr.to_string())
        .body(Full::new(Bytes::new()))
        .unwrap_or_default()
}

/// Polls `/metrics` until the queue's parked-receive gauge reads `n`.
async fn wait_parked(addr: SocketAddr, queue: &str, n: usize) -> bool {
    let mut conn = Conn::open(addr).await.expect("connect for metrics");
    let label = format!("queue=\"{queue}\"");
    for _ in 0..2_000 {
        let (_, body) = conn.send(get(addr, "/metrics")).await;
        let text = String::from_utf8_lossy(&body);
        let parked = text
            .lines()
            .find(|l| l.starts_with("sqslite_receives_waiting{") && l.contains(&label))
            .and_then(|l| l.rsplit(' ').next()?.parse::<f64>().ok());
        if parked.is_some_and(|p| p as usize >= n) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

pub struct Parked {
    /// Server CPU for the sends answered by parked polls, over the same with nobody parked.
    pub cpu_ratio: f64,
    /// Send-to-receive time of each round, microseconds.
    pub wakeups_us: Vec<u32>,
}

/// `parked` long polls on one queue, then `rounds` sends one at a time, each answered by a
/// parked poll; against `rounds` sends + short receives on a fresh queue with nobody parked.
pub async fn parked_consumers(
    server: &Server,
    protocol: Protocol,
    parked: usize,
    rounds: usize,
) -> Parked {
    let addr = server.addr;
    let url = create_queue(addr, protocol, "bench-parked").await;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut polls = Vec::with_capacity(parked);
    for _ in 0..parked {
        let (url, tx) = (url.clone(), tx.clone());
        polls.push(tokio::spawn(async move {
            let Ok(mut conn) = Conn::open(addr).await else {
                return;
            };
            let input = json!({"QueueUrl": url, "WaitTimeSeconds": 20});
            let (_, body) = conn.call(protocol, "ReceiveMessage", &input).await;
            let got = !extract(&String::from_utf8_lossy(&body), "ReceiptHandle").is_empty();
            let _ = tx.send((Instant::now(), got));
            // Keep the connection open until the measurement ends: closing 500 connections
            // is not what either side of the comparison is about.
            std::future::pending::<()>().await;
            drop(conn);
        }));
    }
    let all_parked = wait_parked(addr, "bench-parked", parked).await;
    let mut sender = Conn::open(addr).await.expect("sender connects");
    let before = cpu_ns(server);
    let mut wakeups_us = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let sent = Instant::now();
        let input = json!({"QueueUrl": url, "MessageBody": "wake"});
        sender.call(protocol, "SendMessage", &input).await;
        // The next poll to answer with a message is the one this send woke.
        while let Some((at, got)) = rx.recv().await {
            if got {
                wakeups_us.push(at.saturating_duration_since(sent).as_micros() as u32);
                break;
            }
        }
    }
    let parked_cpu = cpu_ns(server).saturating_sub(before);
    for p in polls {
        p.abort();
    }
    let idle_url = create_queue(addr, protocol, "bench-unparked").await;
    let before = cpu_ns(server);
    for _ in 0..rounds {
        let send = json!({"QueueUrl": idle_url, "MessageBody": "wake"});
        sender.call(protocol, "SendMessage", &send).await;
        let receive = json!({"QueueUrl": idle_url, "WaitTimeSeconds": 0});
        sender.call(protocol, "ReceiveMessage", &receive).await;
    }
    let idle_cpu = cpu_ns(server).saturating_sub(before);
    if !all_parked {
        eprintln!("parked consumers: fewer than {parked} polls parked in 20 s");
    }
    Parked {
        cpu_ratio: parked_cpu as f64 / idle_cpu.max(1) as f64,
        wakeups_us,
    }
}

/// What `queues` empty queues (every second one the DLQ of the one before) cost.
pub struct ManyQueues {
    pub bytes_per_queue: f64,
    pub create_per_s: f64,
    pub metrics_ms: f64,
    pub metrics_cpu_ms: f64,
    pub alarms_ms: f64,
    pub alarms_cpu_ms: f64,
    pub list_page_ms: f64,
    /// A page of 10 of the same 2,222 matches: what a page costs when the listing is O(page).
    pub list_small_page_ms: f64,
    pub get_url_per_s: f64,
}

fn rss_bytes(server: &Server) -> f64 {
    server.rss_mib().unwrap_or(0.0) * 1024.0 * 1024.0
}

/// Creates `n` queues over 16 connections: `q-<i>-dlq` for even `i`, then `q-<i>` with a
/// redrive policy to it. Returns the URLs of the sources.
async fn create_many(addr: SocketAddr, protocol: Protocol, n: usize) -> Vec<String> {
    let pairs = n / 2;
    let mut tasks = Vec::new();
    for c in 0..16 {
        tasks.push(tokio::spawn(async move {
            let mut conn = Conn::open(addr).await.expect("connect to create");
            let mut urls = Vec::new();
            for i in (c..pairs).step_by(16) {
                let dlq = json!({"QueueName": format!("q-{i}-dlq")});
                conn.call(protocol, "CreateQueue", &dlq).await;
                let policy = json!({
                    "deadLetterTargetArn": format!("arn:aws:sqs:us-east-1:000000000000:q-{i}-dlq"),
                    "maxReceiveCount": 5
                });
                let source = json!({
                    "QueueName": format!("q-{i}"),
                    "Attributes": {"RedrivePolicy": policy.to_string()}
                });
                let (_, body) = conn.call(protocol, "CreateQueue", &source).await;
                urls.extend(extract(&String::from_utf8_lossy(&body), "QueueUrl"));
            }
            urls
        }));
    }
    let mut urls = Vec::new();
    for t in tasks {
        urls.extend(t.await.unwrap_or_default());
    }
    urls
}

/// Median wall time of `runs` requests of `path` and median server CPU time of each, in ms.
async fn time_get(server: &Server, path: &str, runs: usize) -> (f64, f64) {
    let mut conn = Conn::open(server.addr).await.expect("connect");
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let cpu_before = cpu_ns(server);
        let t = Instant::now();
        conn.drain(get(server.addr, path)).await;
        wall.push(t.elapsed().as_micros() as u32);
        cpu.push(((cpu_ns(server) - cpu_before) / 1000) as u32);
    }
    (
        load::percentile(&mut wall, 50.0),
        load::percentile(&mut cpu, 50.0),
    )
}

pub async fn many_queues(
    server: &Server,
    protocol: Protocol,
    n: usize,
    secs: Duration,
) -> ManyQueues {
    let addr = server.addr;
    let rss_before = rss_bytes(server);
    let t = Instant::now();
    let urls = create_many(addr, protocol, n).await;
    let create_per_s = n as f64 / t.elapsed().as_secs_f64();
    // The ticker's last alarm evaluation runs 50 ms after the last request: wait for it, so
    // the figure is the steady state (alarm memories included), not a race with it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let bytes_per_queue = (rss_bytes(server) - rss_before) / n as f64;
    let (metrics_ms, metrics_cpu_ms) = time_get(server, "/metrics", 5).await;
    let (alarms_ms, alarms_cpu_ms) = time_get(server, "/_sqslite/alarms", 5).await;
    let mut conn = Conn::open(addr).await.expect("connect");
    let (mut pages, mut small_pages) = (Vec::new(), Vec::new());
    for (max, samples) in [(1000, &mut pages), (10, &mut small_pages)] {
        for _ in 0..5 {
            let t = Instant::now();
            let page = json!({"MaxResults": max, "QueueNamePrefix": "q-1"});
            conn.call(protocol, "ListQueues", &page).await;
            samples.push(t.elapsed().as_micros() as u32);
        }
    }
    let host = addr.to_string();
    let count = urls.len().max(1) as u64;
    let r = load::run(addr, 16, secs, move |c, i| {
        let name = format!("q-{}", (c as u64 * 7_919 + i * 104_729) % count);
        load::sqs_request(&host, protocol, "GetQueueUrl", &json!({"QueueName": name}))
    })
    .await;
    ManyQueues {
        bytes_per_queue,
        create_per_s,
        metrics_ms,
        metrics_cpu_ms,
        alarms_ms,
        alarms_cpu_ms,
        list_page_ms: load::percentile(&mut pages, 50.0),
        list_small_page_ms: load::percentile(&mut small_pages, 50.0),
        get_url_per_s: r.per_second(),
    }
}

/// SendMessage on 64 connections, each request to a queue picked at random from `urls`.
pub async fn fan_out(
    addr: SocketAddr,
    protocol: Protocol,
    urls: Vec<String>,
    conns: usize,
    secs: Duration,
) -> LoadResult {
    let host = addr.to_string();
    let body = "x".repeat(100);
    load::run(addr, conns, secs, move |c, i| {
        // A cheap, well-spread pseudo-random pick: the load generator must stay light.
        let pick =
            (c as u64 ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let url = &urls[(pick >> 32) as usize % urls.len()];
        let input = format!(r#"{{"QueueUrl":"{url}","MessageBody":"{body}"}}"#);
        load::sqs_request_text(&host, protocol, "SendMessage", input)
    })
    .await
}

/// Startup with `n` queues declared in a config file (half of them DLQs of the other half):
/// spawn to first answer, median of `runs`.
pub async fn declared_startup(program: &std::path::Path, n: usize, runs: usize) -> f64 {
    let mut toml = String::new();
    for i in 0..n / 2 {
        let _ = write!(
            toml,
            "[[queues]]\nname = \"q-{i}\"\ndead_letter_queue = \"q-{i}-dlq\"\nmax_receive_count = 5\n\n[[queues]]\nname = \"q-{i}-dlq\"\n\n"
        );
    }
    let path = std::env::temp_dir().join(format!("sqslite-bench-{}.toml", std::process::id()));
    if std::fs::write(&path, toml).is_err() {
        return 0.0;
    }
    let config = path.to_string_lossy().into_owned();
    let mut samples = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let Ok(server) = Server::spawn(
            &program.to_path_buf(),
            &["--port", "0", "--config", &config],
        )
        .await
        else {
            break;
        };
        let mut conn = Conn::open(server.addr).await.expect("connect");
        let (status, _) = conn.call(Protocol::Json, "ListQueues", &json!({})).await;
        if status == 200 {
            samples.push(t.elapsed().as_micros() as u32);
        }
        server.stop().await;
    }
    let _ = std::fs::remove_file(&path);
    load::percentile(&mut samples, 50.0)
}
