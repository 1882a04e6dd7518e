//! The load generator: N keep-alive HTTP/1.1 connections, each sending requests back to back,
//! with per-request latencies kept for percentiles.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::Request;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

pub type Body = Full<Bytes>;

/// Which SQS wire protocol the generated requests speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    Json,
    Query,
}

/// One connection to a server under test.
pub struct Conn {
    sender: SendRequest<Body>,
    host: String,
}

impl Conn {
    pub async fn open(addr: SocketAddr) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(std::io::Error::other)?;
        tokio::spawn(conn);
        Ok(Conn {
            sender,
            host: addr.to_string(),
        })
    }

    /// Sends one SQS action and returns (status, body).
    pub async fn call(
        &mut self,
        protocol: Protocol,
        action: &str,
        json: &serde_json::Value,
    ) -> (u16, Bytes) {
        let req = sqs_request(&self.host, protocol, action, json);
        self.send(req).await
    }

    pub async fn send(&mut self, req: Request<Body>) -> (u16, Bytes) {
        if self.sender.ready().await.is_err() {
            return (0, Bytes::new());
        }
        match self.sender.send_request(req).await {
            Ok(res) => {
                let status = res.status().as_u16();
                let body = res
                    .into_body()
                    .collect()
                    .await
                    .map(http_body_util::Collected::to_bytes);
                (status, body.unwrap_or_default())
            }
            Err(_) => (0, Bytes::new()),
        }
    }

    /// Sends one request and returns its status and headers (its body read and dropped).
    pub async fn send_with_headers(
        &mut self,
        req: Request<Body>,
    ) -> Option<(u16, hyper::HeaderMap)> {
        self.sender.ready().await.ok()?;
        let res = self.sender.send_request(req).await.ok()?;
        let (parts, body) = res.into_parts();
        body.collect().await.ok()?;
        Some((parts.status.as_u16(), parts.headers))
    }

    /// Sends one request and reads its body frame by frame without keeping it: the time a
    /// large answer (a 12 MB scrape) takes is then the server's and the socket's, not the
    /// client's copying. Returns (status, body bytes).
    pub async fn drain(&mut self, req: Request<Body>) -> (u16, usize) {
        if self.sender.ready().await.is_err() {
            return (0, 0);
        }
        let Ok(res) = self.sender.send_request(req).await else {
            return (0, 0);
        };
        let status = res.status().as_u16();
        let mut body = res.into_body();
        let mut len = 0;
        while let Some(Ok(frame)) = body.frame().await {
            len += frame.data_ref().map_or(0, Bytes::len);
        }
        (status, len)
    }
}

/// Builds an SQS request from input already written as JSON text (cheap for JSON).
pub fn sqs_request_text(
    host: &str,
    protocol: Protocol,
    action: &str,
    input: String,
) -> Request<Body> {
    match protocol {
        Protocol::Json => Request::post("/")
            .header("host", host)
            .header("x-amz-target", format!("AmazonSQS.{action}"))
            .header("content-type", "application/x-amz-json-1.0")
            .body(Full::new(Bytes::from(input)))
            .unwrap_or_default(),
        Protocol::Query => {
            let value = serde_json::from_str(&input).unwrap_or_default();
            sqs_request(host, protocol, action, &value)
        }
    }
}

/// Builds an SQS request in either protocol from the JSON form of its input.
pub fn sqs_request(
    host: &str,
    protocol: Protocol,
    action: &str,
    input: &serde_json::Value,
) -> Request<Body> {
    let builder = Request::post("/").header("host", host);
    match protocol {
        Protocol::Json => builder
            .header("x-amz-target", format!("AmazonSQS.{action}"))
            .header("content-type", "application/x-amz-json-1.0")
            .body(Full::new(Bytes::from(input.to_string())))
            .unwrap_or_default(),
        Protocol::Query => {
            let mut form = form_urlencoded::Serializer::new(String::new());
            form.append_pair("Action", action);
            flatten(&mut form, action, "", input);
            builder
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Full::new(Bytes::from(form.finish())))
                .unwrap_or_default()
        }
    }
}

/// The Query flattening of the few shapes the benchmark sends (scalars and batch entries).
fn flatten(
    form: &mut form_urlencoded::Serializer<'_, String>,
    action: &str,
    prefix: &str,
    value: &serde_json::Value,
) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let key = match k.as_str() {
                    "Entries" => format!("{action}RequestEntry"),
                    _ => format!("{prefix}{k}"),
                };
                flatten(form, action, &format!("{key}."), v);
                if !v.is_object() && !v.is_array() {
                    form.append_pair(&key, &scalar(v));
                }
            }
        }
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                flatten(form, action, &format!("{prefix}{}.", i + 1), item);
            }
        }
        _ => {}
    }
}

fn scalar(v: &serde_json::Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

#[derive(Debug, Default)]
pub struct LoadResult {
    pub ok: u64,
    pub errors: u64,
    pub elapsed: Duration,
    pub latencies_us: Vec<u32>,
    /// The rate of each run absorbed, in order (the rounds of an alternated pair).
    pub round_rates: Vec<f64>,
}

impl LoadResult {
    /// Adds another run of the same scenario to this one.
    pub fn absorb(&mut self, other: LoadResult) {
        self.round_rates.push(other.per_second());
        self.ok += other.ok;
        self.errors += other.errors;
        self.elapsed += other.elapsed;
        self.latencies_us.extend(other.latencies_us);
    }

    pub fn per_second(&self) -> f64 {
        self.ok as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    pub fn percentile(&mut self, p: f64) -> f64 {
        percentile(&mut self.latencies_us, p)
    }
}

/// The p-th percentile (0-100) in milliseconds.
pub fn percentile(samples: &mut [u32], p: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.sort_unstable();
    let rank = ((p / 100.0) * (samples.len() - 1) as f64).round() as usize;
    f64::from(samples[rank.min(samples.len() - 1)]) / 1000.0
}

/// Runs `conns` connections for `duration`; `make(conn, i)` builds each connection's i-th request.
pub async fn run<F>(addr: SocketAddr, conns: usize, duration: Duration, make: F) -> LoadResult
where
    F: Fn(usize, u64) -> Request<Body> + Send + Sync + 'static,
{
    let make = Arc::new(make);
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = Vec::with_capacity(conns);
    for c in 0..conns {
        let make = make.clone();
        tasks.push(tokio::spawn(async move {
            let mut result = LoadResult::default();
            let Ok(mut conn) = Conn::open(addr).await else {
                result.errors += 1;
                return result;
            };
            let mut i = 0;
            while Instant::now() < deadline {
                let sent = Instant::now();
                let (status, _) = conn.send(make(c, i)).await;
                if status == 0 {
                    // A server that closes each connection (moto's, HTTP/1.0 style) is
                    // reconnected to, as its clients do; one that no longer accepts ends the run.
                    match Conn::open(addr).await {
                        Ok(again) => conn = again,
                        Err(_) => break,
                    }
                    continue;
                }
                i += 1;
                if status == 200 {
                    result.ok += 1;
                    result.latencies_us.push(sent.elapsed().as_micros() as u32);
                } else {
                    result.errors += 1;
                }
            }
            result
        }));
    }
    let mut total = LoadResult::default();
    for t in tasks {
        if let Ok(r) = t.await {
            total.ok += r.ok;
            total.errors += r.errors;
            total.latencies_us.extend(r.latencies_us);
        }
    }
    total.elapsed = start.elapsed();
    total
}

/// Runs two loads in `rounds` alternating rounds, each first in turn, so that a change in the
/// machine's load during the run (other tenants, the kernel) weighs on both alike.
pub async fn alternated<A, B, FA, FB>(rounds: u32, mut a: A, mut b: B) -> (LoadResult, LoadResult)
where
    A: FnMut() -> FA,
    B: FnMut() -> FB,
    FA: Future<Output = LoadResult>,
    FB: Future<Output = LoadResult>,
{
    let (mut ra, mut rb) = (LoadResult::default(), LoadResult::default());
    for i in 0..rounds {
        if i % 2 == 0 {
            ra.absorb(a().await);
            rb.absorb(b().await);
        } else {
            rb.absorb(b().await);
            ra.absorb(a().await);
        }
    }
    (ra, rb)
}
