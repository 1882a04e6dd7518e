//! Hostile and careless connections: slow headers and idle keep-alives are closed after their
//! timeouts, and past the connection cap `/health` still answers while other work is told to
//! retry or waits in the backlog. Timeouts are set short in each test's config.

use std::time::{Duration, Instant};

use crate::common::TestServer;
use sqslite::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const HEALTH: &[u8] = b"GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n";

fn limited(header_ms: u64, idle_ms: u64, cap: Option<usize>) -> Config {
    let mut config = Config::ephemeral();
    config.connections.header_timeout = Duration::from_millis(header_ms);
    config.connections.idle_timeout = Duration::from_millis(idle_ms);
    config.connections.max_connections = cap;
    config
}

async fn connect(s: &TestServer) -> TcpStream {
    TcpStream::connect(s.server.local_addr())
        .await
        .expect("connect")
}

/// Reads one response (headers and a Content-Length body) off a keep-alive connection.
async fn response(stream: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).await.expect("read");
        assert!(
            n > 0,
            "closed before a full response: {:?}",
            String::from_utf8_lossy(&got)
        );
        got.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&got).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap())
                })
                .unwrap_or(0);
            if got.len() >= end + 4 + length {
                return text;
            }
        }
    }
}

/// Waits (up to `limit`) for the server to close the connection; how long it took.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Duration {
    let start = Instant::now();
    let mut buf = [0u8; 256];
    let read = tokio::time::timeout(limit, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    });
    read.await.expect("the server kept the connection open");
    start.elapsed()
}

#[tokio::test]
async fn a_slowloris_connection_is_closed_after_the_header_timeout() {
    let s = TestServer::start_with(limited(300, 60_000, None)).await;
    let mut slow = connect(&s).await;
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: loc")
        .await
        .unwrap();
    let start = Instant::now();
    // One header byte every 50 ms keeps the connection busy but never finishes the head.
    let trickle = async {
        for _ in 0..100 {
            if slow.write_all(b"a").await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), trickle)
        .await
        .expect("trickle ended");
    closed_within(&mut slow, Duration::from_secs(5)).await;
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    // A silent new connection is held to the same timeout.
    let mut silent = connect(&s).await;
    closed_within(&mut silent, Duration::from_secs(5)).await;
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_idle_timeout() {
    let s = TestServer::start_with(limited(60_000, 300, None)).await;
    let mut conn = connect(&s).await;
    conn.write_all(HEALTH).await.unwrap();
    assert!(response(&mut conn).await.starts_with("HTTP/1.1 200"));
    closed_within(&mut conn, Duration::from_secs(5)).await;
}

#[tokio::test]
async fn a_keep_alive_connection_outlives_a_shorter_header_timeout() {
    let s = TestServer::start_with(limited(200, 60_000, None)).await;
    let mut conn = connect(&s).await;
    conn.write_all(HEALTH).await.unwrap();
    assert!(response(&mut conn).await.starts_with("HTTP/1.1 200"));
    // Idle between requests is governed by the idle timeout, not the header timeout.
    tokio::time::sleep(Duration::from_millis(600)).await;
    conn.write_all(HEALTH).await.unwrap();
    assert!(response(&mut conn).await.starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn past_the_cap_health_answers_and_other_work_is_told_to_retry_or_waits() {
    let s = TestServer::start_with(limited(500, 60_000, Some(2))).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut c = connect(&s).await;
        c.write_all(HEALTH).await.unwrap();
        response(&mut c).await;
        held.push(c);
    }
    let list = b"GET /?Action=ListQueues HTTP/1.1\r\nHost: localhost\r\n\r\n";
    let mut over = connect(&s).await;
    over.write_all(list).await.unwrap();
    let answer = response(&mut over).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("ServiceUnavailable") && answer.contains("--max-connections"));
    let mut probe = connect(&s).await;
    probe.write_all(HEALTH).await.unwrap();
    assert!(response(&mut probe).await.starts_with("HTTP/1.1 200"));
    // Fill the lane with silent connections: the next probe waits in the backlog until the
    // lane's short timeout frees a place.
    let mut silent = Vec::new();
    for _ in 0..sqslite::support::lane_size() {
        silent.push(connect(&s).await);
    }
    let mut waiting = connect(&s).await;
    waiting.write_all(HEALTH).await.unwrap();
    let start = Instant::now();
    let mut early = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(150), waiting.peek(&mut early)).await;
    assert!(early.is_err(), "answered while the lane was full");
    assert!(response(&mut waiting).await.starts_with("HTTP/1.1 200"));
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    // A freed place under the cap serves SQS work again.
    drop(held.pop());
    let r = s.query(&[("Action", "ListQueues")]).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn a_body_that_trickles_in_is_cut_off_after_the_header_timeout() {
    let s = TestServer::start_with(limited(300, 60_000, None)).await;
    let mut slow = connect(&s).await;
    let head = "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nAction=ListQueues";
    slow.write_all(head.as_bytes()).await.unwrap();
    let start = Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(5), response(&mut slow))
        .await
        .expect("answered without the rest of the body");
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("--header-timeout"), "{answer}");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}
