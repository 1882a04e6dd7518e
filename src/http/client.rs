//! A minimal HTTP/1.1 client over hyper, for alarm webhooks, the drill runner, SNS's http
//! subscriptions and trigger invocations: plain `http://` only, one connection per request,
//! every call bounded by a timeout and a cap on the answer it reads; a call on a caller's
//! behalf ([`Call`]) also by the server's outbound rule.

use std::time::Duration;

use base64::Engine;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Uri;

use crate::http::outbound::{ChosenBy, Outbound};

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

/// The most of an answer [`request`] reads: 128 MiB, room for the admin API's listing of a
/// queue holding the most messages one drill step sends (100,000 take about 72 MB) and more.
pub const MAX_ANSWER: usize = 128 << 20;

/// Sends one request; `Err` says what went wrong (connect, timeout, bad URL, an answer over
/// [`MAX_ANSWER`]). For requests sqslite makes to its own kind (the drills, the advisor's
/// doctor): no outbound rule, but a bound all the same, since the endpoint is whatever URL
/// the user typed and a broken or hostile one must not fill the memory of the tool.
pub async fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
    timeout: Duration,
) -> Result<Reply, String> {
    let call = Call {
        method,
        url,
        headers,
        outbound: None,
        chosen_by: ChosenBy::Operator,
        max_reply: MAX_ANSWER,
    };
    tokio::time::timeout(timeout, send(call, body))
        .await
        .map_err(|_| format!("{method} {url}: no answer within {timeout:?}"))?
}

/// One request on a caller's behalf (an SNS subscriber, a function, a webhook): the address
/// is checked by the server's outbound rule, and at most `max_reply` bytes of the answer are
/// read (past that the answer is an error: a subscriber or a function cannot fill memory).
pub struct Call<'a> {
    /// `POST`, `GET`.
    pub method: &'a str,
    /// `http://[user:password@]host[:port]/path`.
    pub url: &'a str,
    /// Headers besides `host` (and `authorization` for a URL's user and password).
    pub headers: &'a [(&'a str, &'a str)],
    /// The server's outbound rule; `None` connects anywhere.
    pub outbound: Option<&'a Outbound>,
    /// Who chose the URL, which the rule weighs on a shared instance.
    pub chosen_by: ChosenBy,
    /// The most of the answer's body read.
    pub max_reply: usize,
}

/// [`Call`] within `timeout`.
pub async fn call(call: Call<'_>, body: Vec<u8>, timeout: Duration) -> Result<Reply, String> {
    let (method, url) = (call.method, call.url);
    tokio::time::timeout(timeout, send(call, body))
        .await
        .map_err(|_| format!("{method} {url}: no answer within {timeout:?}"))?
}

async fn send(call: Call<'_>, body: Vec<u8>) -> Result<Reply, String> {
    let url = call.url;
    let uri: Uri = url.parse().map_err(|e| format!("bad URL {url}: {e}"))?;
    let https = match uri.scheme_str() {
        Some("http") => false,
        Some("https") => true,
        _ => {
            return Err(format!(
                "{url}: only http:// and https:// URLs are supported"
            ))
        }
    };
    let authority = uri.authority().ok_or_else(|| format!("{url}: no host"))?;
    let default_port = if https { 443 } else { 80 };
    let (host, port) = (
        authority.host(),
        authority.port_u16().unwrap_or(default_port),
    );
    let stream = match call.outbound {
        Some(outbound) => {
            let addrs = outbound.resolve(host, port, call.chosen_by).await?;
            tokio::net::TcpStream::connect(&addrs[..]).await
        }
        None => tokio::net::TcpStream::connect((host, port)).await,
    }
    .map_err(|e| format!("cannot connect to {host}:{port}: {e}"))?;
    let req = build(&call, &uri, body)?;
    if !https {
        return exchange(stream, req, &call).await;
    }
    let config = match call.outbound {
        Some(outbound) => outbound.tls().config(),
        None => default_tls().config(),
    };
    let connector = tokio_rustls::TlsConnector::from(config);
    let name = super::tls::server_name(host)?;
    let stream = (connector.connect(name, stream).await)
        .map_err(|e| format!("TLS with {host}:{port}: {e}"))?;
    exchange(stream, req, &call).await
}

/// The TLS client of requests made with no outbound rule (the drills, the doctor).
fn default_tls() -> &'static super::tls::Tls {
    static TLS: std::sync::OnceLock<super::tls::Tls> = std::sync::OnceLock::new();
    TLS.get_or_init(super::tls::Tls::default)
}

/// One request and its answer (at most `call.max_reply` bytes of it) on a connected stream.
async fn exchange<S>(
    stream: S,
    req: hyper::Request<Full<Bytes>>,
    call: &Call<'_>,
) -> Result<Reply, String>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let url = call.url;
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    let res = sender
        .send_request(req)
        .await
        .map_err(|e| format!("{} {url}: {e}", call.method))?;
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let bytes = http_body_util::Limited::new(res.into_body(), call.max_reply)
        .collect()
        .await
        .map_err(|e| {
            if e.is::<http_body_util::LengthLimitError>() {
                format!("{url}: the answer is longer than {} bytes", call.max_reply)
            } else {
                e.to_string()
            }
        })?
        .to_bytes();
    Ok(Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

/// The request for `uri`. A URL's user and password travel as SNS sends them, HTTP Basic
/// authentication, never in the Host header.
fn build(call: &Call<'_>, uri: &Uri, body: Vec<u8>) -> Result<hyper::Request<Full<Bytes>>, String> {
    let authority = uri
        .authority()
        .map_or("", hyper::http::uri::Authority::as_str);
    let (userinfo, host_port) = match authority.rsplit_once('@') {
        Some((userinfo, rest)) => (Some(userinfo), rest),
        None => (None, authority),
    };
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let mut req = hyper::Request::builder()
        .method(call.method)
        .uri(path)
        .header("host", host_port);
    if let Some(userinfo) = userinfo {
        let basic = base64::engine::general_purpose::STANDARD.encode(percent_decode(userinfo));
        req = req.header("authorization", format!("Basic {basic}"));
    }
    for (k, v) in call.headers {
        req = req.header(*k, *v);
    }
    req.body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())
}

/// `user:p%40ss` as the bytes Basic authentication encodes.
fn percent_decode(text: &str) -> Vec<u8> {
    form_urlencoded::parse(format!("x={}", text.replace('+', "%2B")).as_bytes())
        .next()
        .map_or_else(
            || text.as_bytes().to_vec(),
            |(_, v)| v.into_owned().into_bytes(),
        )
}
