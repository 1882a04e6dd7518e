//! A function for trigger tests: a small hyper server that records every invocation (path
//! and event) and answers as the test says, optionally holding each call until released.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use serde_json::Value;
use tokio::sync::{Notify, Semaphore};

use super::{listener, TestServer};

/// One answer: status, extra headers, body.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: String,
}

impl Reply {
    pub fn ok(body: &str) -> Self {
        Reply {
            status: 200,
            headers: Vec::new(),
            body: body.to_owned(),
        }
    }

    pub fn status(status: u16) -> Self {
        Reply {
            status,
            ..Reply::ok("")
        }
    }
}

type Respond = Box<dyn Fn(&Value) -> Reply + Send + Sync>;

#[derive(Default)]
struct Inner {
    /// Answers from the event, when set (else `replies`).
    respond: Option<Respond>,
    calls: Mutex<Vec<(String, Value)>>,
    /// Answers given in turn; when they run out, 200 with an empty body.
    replies: Mutex<VecDeque<Reply>>,
    arrived: Notify,
    running: AtomicUsize,
    most: AtomicUsize,
    gate: Option<Semaphore>,
}

/// A recording function on an ephemeral port; stops when dropped.
pub struct Handler {
    pub url: String,
    inner: Arc<Inner>,
    task: tokio::task::JoinHandle<()>,
}

impl Handler {
    /// Answers `replies` in turn, then 200 with an empty body.
    pub async fn start(replies: Vec<Reply>) -> Self {
        Handler::serve(Inner {
            replies: Mutex::new(replies.into()),
            ..Inner::default()
        })
        .await
    }

    /// Answers each event as `respond` says.
    pub async fn answering(respond: impl Fn(&Value) -> Reply + Send + Sync + 'static) -> Self {
        Handler::serve(Inner {
            respond: Some(Box::new(respond)),
            ..Inner::default()
        })
        .await
    }

    /// Holds every call until [`Handler::release`] lets it answer (200, empty).
    pub async fn gated() -> Self {
        Handler::serve(Inner {
            gate: Some(Semaphore::new(0)),
            ..Inner::default()
        })
        .await
    }

    async fn serve(inner: Inner) -> Self {
        let inner = Arc::new(inner);
        let shared = inner.clone();
        let (base, task) = listener::serve(move |req| answer(shared.clone(), req)).await;
        Handler {
            url: format!("{base}/"),
            inner,
            task,
        }
    }

    /// Lets `n` held calls answer.
    pub fn release(&self, n: usize) {
        self.inner
            .gate
            .as_ref()
            .expect("a gated handler")
            .add_permits(n);
    }

    /// Every event so far, in arrival order.
    pub fn events(&self) -> Vec<Value> {
        self.calls().into_iter().map(|(_, e)| e).collect()
    }

    /// Every (path, event) so far.
    pub fn calls(&self) -> Vec<(String, Value)> {
        self.inner.calls.lock().unwrap().clone()
    }

    /// Waits (10 s of wall time at most) until `n` events have arrived; returns them all.
    pub async fn wait_events(&self, n: usize) -> Vec<Value> {
        within("the function's invocations", async {
            loop {
                let arrived = self.inner.arrived.notified();
                let events = self.events();
                if events.len() >= n {
                    return events;
                }
                arrived.await;
            }
        })
        .await
    }

    /// Calls being answered now.
    pub fn running(&self) -> usize {
        self.inner.running.load(Ordering::SeqCst)
    }

    /// The most calls that were ever being answered at once.
    pub fn most_concurrent(&self) -> usize {
        self.inner.most.load(Ordering::SeqCst)
    }
}

impl Drop for Handler {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn answer(
    inner: Arc<Inner>,
    req: hyper::Request<hyper::body::Incoming>,
) -> hyper::Response<Full<Bytes>> {
    let path = req.uri().path().to_owned();
    let body = listener::body_bytes(req.into_body()).await;
    let event: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let now = inner.running.fetch_add(1, Ordering::SeqCst) + 1;
    inner.most.fetch_max(now, Ordering::SeqCst);
    inner.calls.lock().unwrap().push((path, event.clone()));
    inner.arrived.notify_waiters();
    if let Some(gate) = &inner.gate {
        gate.acquire().await.unwrap().forget();
    }
    let reply = match &inner.respond {
        Some(respond) => respond(&event),
        None => inner
            .replies
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(Reply::ok("")),
    };
    inner.running.fetch_sub(1, Ordering::SeqCst);
    let mut res = hyper::Response::builder().status(reply.status);
    for (k, v) in &reply.headers {
        res = res.header(*k, v);
    }
    res.body(Full::new(Bytes::from(reply.body))).unwrap()
}

/// Runs `f` within 10 s of wall time, naming `what` if it does not finish.
pub async fn within<T>(what: &str, f: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(10), f)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
}

impl TestServer {
    /// A trigger counter from `/metrics` for the mapping on queue `queue` (0 if absent).
    pub async fn trigger_counter(&self, family: &str, queue: &str) -> u64 {
        let label = format!("queue=\"{queue}\"");
        let metrics = self.raw("GET", "/metrics", &[], "").await.body;
        metrics
            .lines()
            .filter(|l| l.starts_with(&format!("{family}{{")) && l.contains(&label))
            .find_map(|l| l.rsplit(' ').next()?.parse().ok())
            .unwrap_or(0)
    }

    /// Waits until the counter reaches `n` (the poller has settled that many invocations).
    pub async fn wait_counter(&self, family: &str, queue: &str, n: u64) {
        within(family, async {
            while self.trigger_counter(family, queue).await < n {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await;
    }

    /// Waits until the queue's (visible, in flight) counts are `want`.
    pub async fn wait_counts(&self, url: &str, want: (u64, u64)) {
        within("the queue's counts", async {
            loop {
                let (visible, in_flight, _) = self.counts(url).await;
                if (visible, in_flight) == want {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await;
    }
}
