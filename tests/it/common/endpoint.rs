//! A small HTTP endpoint for SNS's http subscriptions: it records every request it gets
//! and answers each with the next status of a script (200 once the script is spent), so a
//! test can make deliveries fail and wait until a given number has arrived.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use tokio::sync::watch;

use super::listener;

/// One request the endpoint received.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub headers: hyper::HeaderMap,
    pub body: String,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).expect("a JSON body")
    }
}

#[derive(Default)]
struct Inner {
    got: Vec<Received>,
    script: VecDeque<u16>,
}

#[derive(Clone)]
pub struct Endpoint {
    pub url: String,
    inner: Arc<Mutex<Inner>>,
    count: watch::Sender<usize>,
}

impl Endpoint {
    /// Listens on an ephemeral loopback port until the test ends.
    pub async fn start() -> Endpoint {
        let inner = Arc::<Mutex<Inner>>::default();
        let count = watch::Sender::new(0);
        let (shared, counter) = (inner.clone(), count.clone());
        let (base, _) =
            listener::serve(move |req| answer(shared.clone(), counter.clone(), req)).await;
        Endpoint {
            url: format!("{base}/hook"),
            inner,
            count,
        }
    }

    /// The statuses the next requests are answered with, in order.
    pub fn answer_with(&self, statuses: &[u16]) {
        self.inner.lock().unwrap().script.extend(statuses);
    }

    /// Waits (on the endpoint's own count, not on time) until `n` requests have arrived,
    /// and returns them all.
    pub async fn wait_for(&self, n: usize) -> Vec<Received> {
        let mut rx = self.count.subscribe();
        let arrived = tokio::time::timeout(Duration::from_secs(20), rx.wait_for(|c| *c >= n));
        assert!(arrived.await.is_ok(), "{n} requests never arrived");
        self.received()
    }

    pub fn received(&self) -> Vec<Received> {
        self.inner.lock().unwrap().got.clone()
    }
}

/// Records the request, then answers with the script's next status.
async fn answer(
    inner: Arc<Mutex<Inner>>,
    count: watch::Sender<usize>,
    req: hyper::Request<hyper::body::Incoming>,
) -> hyper::Response<Full<Bytes>> {
    let (parts, body) = req.into_parts();
    let body = listener::body_bytes(body).await;
    let status = {
        let mut inner = inner.lock().unwrap();
        inner.got.push(Received {
            method: parts.method.to_string(),
            headers: parts.headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        });
        inner.script.pop_front().unwrap_or(200)
    };
    count.send_modify(|n| *n += 1);
    let mut response = hyper::Response::new(Full::new(Bytes::new()));
    *response.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
    response
}
