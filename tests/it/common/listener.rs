//! The loopback HTTP server under the test doubles sqslite calls out to (the SNS http
//! endpoint and the trigger functions): each double says only how it answers a request.

use std::future::Future;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;

/// Serves `answer` on an ephemeral loopback port; returns `http://<addr>` and the accept
/// task (aborting it stops the server).
pub async fn serve<F, Fut>(answer: F) -> (String, tokio::task::JoinHandle<()>)
where
    F: Fn(hyper::Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = hyper::Response<Full<Bytes>>> + Send + 'static,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let answer = answer.clone();
            let service = hyper::service::service_fn(move |req| {
                let reply = answer(req);
                async move { Ok::<_, std::convert::Infallible>(reply.await) }
            });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service),
            );
        }
    });
    (base, task)
}

/// The whole body of a request (empty if it broke off).
pub async fn body_bytes(body: Incoming) -> Bytes {
    body.collect()
        .await
        .map(http_body_util::Collected::to_bytes)
        .unwrap_or_default()
}
