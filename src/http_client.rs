//! A minimal HTTP/1.1 client over hyper, for alarm webhooks, the drill runner, SNS's http
//! subscriptions and trigger invocations: plain `http://` only, one connection per request,
//! every call bounded by a timeout.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Uri;

#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    /// The response headers (the Lambda Invoke API reports function errors in one).
    pub headers: hyper::HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    pub fn json(&self) -> Result<serde_json::Value, String> {
        serde_json::from_str(&self.body).map_err(|e| format!("not JSON ({e}): {}", self.body))
    }
}

/// Sends one request; `Err` says what went wrong (connect, timeout, bad URL).
pub async fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
    timeout: Duration,
) -> Result<Reply, String> {
    tokio::time::timeout(timeout, send(method, url, headers, body))
        .await
        .map_err(|_| format!("{method} {url}: no answer within {timeout:?}"))?
}

async fn send(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> Result<Reply, String> {
    let uri: Uri = url.parse().map_err(|e| format!("bad URL {url}: {e}"))?;
    if uri.scheme_str() != Some("http") {
        return Err(format!("{url}: only http:// URLs are supported"));
    }
    let authority = uri
        .authority()
        .ok_or_else(|| format!("{url}: no host"))?
        .clone();
    let addr = format!(
        "{}:{}",
        authority.host(),
        authority.port_u16().unwrap_or(80)
    );
    let stream = tokio::net::TcpStream::connect(&addr)
        .await
        .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let mut req = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", authority.as_str());
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    let res = sender
        .send_request(req)
        .await
        .map_err(|e| format!("{method} {url}: {e}"))?;
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let bytes = res
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok(Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    })
}
