//! Raw HTTP to a server, for the Query protocol, hand-written JSON and malformed input.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};

#[derive(Debug)]
pub struct RawResponse {
    pub status: u16,
    pub headers: hyper::HeaderMap,
    pub body: String,
}

impl RawResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The text of the first `<tag>` element.
    pub fn xml(&self, tag: &str) -> Option<String> {
        let open = format!("<{tag}>");
        let start = self.body.find(&open)? + open.len();
        let end = self.body[start..].find(&format!("</{tag}>"))? + start;
        Some(self.body[start..end].to_owned())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).expect("JSON body")
    }
}

pub async fn raw(
    endpoint: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> RawResponse {
    let addr = endpoint.trim_start_matches("http://");
    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .expect("handshake");
    tokio::spawn(conn);
    let mut req = hyper::Request::builder().method(method).uri(path);
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req = req.header("host", addr);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(Full::new(Bytes::from(body.to_owned()))).unwrap();
    let res = sender.send_request(req).await.expect("response");
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    RawResponse {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}
