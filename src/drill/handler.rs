//! The in-process handler the `trigger` drill maps its queues to: a small HTTP function (the
//! `url` kind of `[[functions]]`) with the sample consumer's rule, a JSON body succeeds and
//! any other body "crashes the handler". It counts what it was given, so the drill's figures
//! come from the invocations themselves rather than from the server's own counters.
//!
//! Two paths, one per way a Lambda handler reports failure: `/whole` fails the invocation
//! (HTTP 500) when any record fails, `/partial` answers Lambda's partial batch response
//! (`batchItemFailures`) naming only the failed records.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::net::TcpListener;

/// What one path of the handler was given.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    /// Invocations, each one batch.
    pub invocations: u64,
    /// Records delivered per message id, across invocations.
    pub deliveries: HashMap<String, u64>,
}

impl Tally {
    /// Deliveries beyond each message's first: what the retries cost.
    pub fn redelivered(&self) -> u64 {
        self.deliveries.values().map(|n| n.saturating_sub(1)).sum()
    }
}

type Tallies = Arc<Mutex<HashMap<String, Tally>>>;

/// A running handler; it stops when dropped.
pub struct Handler {
    /// `http://127.0.0.1:PORT`, to which `/whole` or `/partial` is added.
    pub base: String,
    tallies: Tallies,
    task: tokio::task::JoinHandle<()>,
}

impl Handler {
    /// Binds an ephemeral local port and serves until dropped.
    pub async fn start() -> Result<Handler, String> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("drill handler cannot listen: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let tallies = Tallies::default();
        let served = tallies.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let tallies = served.clone();
                let service = service_fn(move |req| answer(tallies.clone(), req));
                tokio::spawn(
                    hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service),
                );
            }
        });
        Ok(Handler {
            base: format!("http://{addr}"),
            tallies,
            task,
        })
    }

    /// What the path (`/whole` or `/partial`) was given so far.
    pub fn tally(&self, path: &str) -> Tally {
        let all = self.tallies.lock().unwrap_or_else(PoisonError::into_inner);
        all.get(path).cloned().unwrap_or_default()
    }
}

impl Drop for Handler {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn answer(
    tallies: Tallies,
    req: hyper::Request<hyper::body::Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let path = req.uri().path().to_owned();
    let body = req
        .into_body()
        .collect()
        .await
        .map(http_body_util::Collected::to_bytes)
        .unwrap_or_default();
    let event: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let mut failed = Vec::new();
    {
        let mut all = tallies.lock().unwrap_or_else(PoisonError::into_inner);
        let tally = all.entry(path.clone()).or_default();
        tally.invocations += 1;
        for record in event["Records"].as_array().into_iter().flatten() {
            let id = record["messageId"].as_str().unwrap_or_default().to_owned();
            *tally.deliveries.entry(id.clone()).or_default() += 1;
            let body = record["body"].as_str().unwrap_or_default();
            if serde_json::from_str::<Value>(body).is_err() {
                failed.push(id);
            }
        }
    }
    let (status, reply) = if path == "/partial" {
        let items: Vec<Value> = failed
            .iter()
            .map(|id| json!({ "itemIdentifier": id }))
            .collect();
        (200, json!({ "batchItemFailures": items }).to_string())
    } else if failed.is_empty() {
        (200, String::new())
    } else {
        (500, format!("{} records failed", failed.len()))
    };
    let mut res = hyper::Response::new(Full::new(Bytes::from(reply)));
    *res.status_mut() = hyper::StatusCode::from_u16(status).unwrap_or_default();
    Ok(res)
}
