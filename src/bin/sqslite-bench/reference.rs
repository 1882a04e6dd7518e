//! The yardstick: a bare hyper server that answers every request with a fixed SendMessage
//! response, configured as sqslite's server is, so a run can report sqslite as a ratio of it.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::Full;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

const BODY: &str = r#"{"MD5OfMessageBody":"5d41402abc4b2a76b9719d911017c592","MessageId":"5fea7756-0ea4-451a-a703-a558b933e274"}"#;

async fn answer(_: Request<hyper::body::Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let mut res = Response::new(Full::new(Bytes::from_static(BODY.as_bytes())));
    let headers = res.headers_mut();
    headers.insert(
        "content-type",
        hyper::header::HeaderValue::from_static("application/x-amz-json-1.0"),
    );
    headers.insert(
        "x-amzn-RequestId",
        hyper::header::HeaderValue::from_static("b6633655-283d-45b4-aee4-4e84e0ae6afa"),
    );
    Ok(res)
}

/// Serves until the process is killed; prints the bound address first, as sqslite logs it.
pub async fn serve(port: u16) -> std::io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    println!("reference listening on http://{}", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), service_fn(answer))
                .await;
        });
    }
}
