//! A small HTTP endpoint for SNS's http subscriptions: it records every request it gets
//! and answers each with the next status of a script (200 once the script is spent), so a
//! test can make deliveries fail and wait until a given number has arrived.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use tokio::sync::watch;

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
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let endpoint = Endpoint {
            url,
            inner: Arc::default(),
            count: watch::Sender::new(0),
        };
        let server = endpoint.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let server = server.clone();
                let service = service_fn(move |req| {
                    let server = server.clone();
                    async move { Ok::<_, hyper::Error>(server.answer(req).await) }
                });
                tokio::spawn(
                    http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service),
                );
            }
        });
        endpoint
    }

    async fn answer(
        &self,
        req: hyper::Request<hyper::body::Incoming>,
    ) -> hyper::Response<Full<Bytes>> {
        let (parts, body) = req.into_parts();
        let body = body
            .collect()
            .await
            .map(http_body_util::Collected::to_bytes)
            .unwrap_or_default();
        let status = {
            let mut inner = self.inner.lock().unwrap();
            inner.got.push(Received {
                method: parts.method.to_string(),
                headers: parts.headers,
                body: String::from_utf8_lossy(&body).into_owned(),
            });
            inner.script.pop_front().unwrap_or(200)
        };
        self.count.send_modify(|n| *n += 1);
        let mut response = hyper::Response::new(Full::new(Bytes::new()));
        *response.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
        response
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
