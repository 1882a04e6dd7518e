//! S3's requests and answers between sqslite's front door and the s3s adapter: the request
//! handed over with its signature taken off (the front door has checked it, on the server's
//! clock, with STS's keys too) and its body streaming through [`inbound`]'s checks; the
//! answer handed back with its body passed through as s3s makes it.

pub mod chunked;
pub mod inbound;

use std::fmt::Write as _;
use std::time::Duration;

use bytes::Bytes;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, AUTHORIZATION, CONTENT_ENCODING, CONTENT_LENGTH};
use hyper::http::request::Parts;
use s3s::S3Error;

use crate::http::auth::sigv4::Chain;
use crate::http::body::Body;
use crate::http::HttpResponse;
use inbound::{Inbound, Mode, Trailers};

/// The query parameters of a signature (SigV4's presigned URL, SigV2's), which the operations
/// never read.
const SIGNATURE_PARAMETERS: &[&str] = &[
    "X-Amz-Algorithm",
    "X-Amz-Credential",
    "X-Amz-Date",
    "X-Amz-Expires",
    "X-Amz-SignedHeaders",
    "X-Amz-Signature",
    "X-Amz-Security-Token",
    "X-Amz-Content-Sha256",
    "AWSAccessKeyId",
    "Signature",
    "Expires",
];

/// The request as s3s is to read it: no signature (s3s sees an anonymous request, whose
/// caller the operations know from the front door), the body decoded as it arrives, and the
/// trailer it may end with.
pub fn request(
    parts: &Parts,
    body: Incoming,
    chain: Option<Chain>,
    idle: Duration,
) -> Result<(hyper::Request<s3s::Body>, Trailers), S3Error> {
    let mode = inbound::mode(&parts.headers)?;
    let inbound = Inbound::new(body, &mode, chain, idle);
    let trailers = inbound.trailers();
    let stream: s3s::stream::DynByteStream = Box::pin(inbound);
    let mut request = hyper::Request::new(s3s::Body::from(stream));
    *request.method_mut() = parts.method.clone();
    *request.uri_mut() = unsigned_uri(&parts.uri);
    *request.version_mut() = parts.version;
    let headers = request.headers_mut();
    headers.clone_from(&parts.headers);
    headers.remove(AUTHORIZATION);
    if let Mode::Chunked { declared, .. } = mode {
        headers.insert(CONTENT_LENGTH, HeaderValue::from(declared));
        decoded_encoding(headers);
    }
    Ok((request, trailers))
}

/// `uri` without a presigned URL's signature parameters.
fn unsigned_uri(uri: &hyper::Uri) -> hyper::Uri {
    let Some(query) = uri.query() else {
        return uri.clone();
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| {
            let name = pair.split('=').next().unwrap_or(pair);
            !SIGNATURE_PARAMETERS.contains(&name)
        })
        .collect();
    let path_and_query = if kept.is_empty() {
        uri.path().to_owned()
    } else {
        format!("{}?{}", uri.path(), kept.join("&"))
    };
    path_and_query.parse().unwrap_or_else(|_| uri.clone())
}

/// `Content-Encoding` without `aws-chunked`, which the decoding has undone (S3 keeps the
/// encodings the object was stored with, not the transfer's).
fn decoded_encoding(headers: &mut hyper::HeaderMap) {
    let rest: Vec<String> = headers
        .get_all(CONTENT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|e| !e.is_empty() && !e.eq_ignore_ascii_case("aws-chunked"))
        .map(str::to_owned)
        .collect();
    headers.remove(CONTENT_ENCODING);
    if let Ok(value) = HeaderValue::from_str(&rest.join(",")) {
        if !rest.is_empty() {
            headers.insert(CONTENT_ENCODING, value);
        }
    }
}

/// s3s's answer as the server sends it (a whole body as one buffer, a stream passed
/// through), and for an error its code and message, for the request log.
pub fn response(answer: s3s::HttpResponse) -> (HttpResponse, Option<(String, String)>) {
    let (parts, body) = answer.into_parts();
    let (body, error) = match body.bytes() {
        Some(bytes) => {
            let error = parts
                .status
                .is_client_error()
                .then(|| error_of(&bytes))
                .or_else(|| parts.status.is_server_error().then(|| error_of(&bytes)))
                .flatten();
            (Body::from(bytes), error)
        }
        None => (Body::passed(body), None),
    };
    (hyper::Response::from_parts(parts, body), error)
}

/// The refused destinations an operation passed in headers
/// ([`crate::s3::notify::ARGUMENT_HEADER`]: an ARN, a tab, why), taken out of them.
pub fn arguments(headers: &mut hyper::HeaderMap) -> Vec<(String, String)> {
    let header = crate::s3::notify::ARGUMENT_HEADER;
    let arguments = headers
        .get_all(header)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(|v| v.split_once('\t').unwrap_or((v, "")))
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    headers.remove(header);
    arguments
}

/// An error document with `arguments` written in as S3 writes them: `ArgumentName1`,
/// `ArgumentValue1`, and so on.
pub fn with_arguments(document: Bytes, arguments: &[(String, String)]) -> Bytes {
    let text = std::str::from_utf8(&document).ok();
    let Some((head, tail)) = text.and_then(|t| t.rsplit_once("</Error>")) else {
        return document;
    };
    if arguments.is_empty() {
        return document;
    }
    let mut out = head.to_owned();
    for (n, (name, value)) in arguments.iter().enumerate() {
        let n = n + 1;
        let _ = write!(out, "<ArgumentName{n}>");
        crate::http::xml::escape_into(&mut out, name);
        let _ = write!(out, "</ArgumentName{n}><ArgumentValue{n}>");
        crate::http::xml::escape_into(&mut out, value);
        let _ = write!(out, "</ArgumentValue{n}>");
    }
    out.push_str("</Error>");
    out.push_str(tail);
    Bytes::from(out)
}

/// The `<Code>` and `<Message>` of an S3 error document.
fn error_of(document: &Bytes) -> Option<(String, String)> {
    let text = std::str::from_utf8(document).ok()?;
    let element = |name: &str| {
        let open = format!("<{name}>");
        let start = text.find(&open)? + open.len();
        let end = text[start..].find(&format!("</{name}>"))? + start;
        Some(text[start..end].to_owned())
    };
    Some((element("Code")?, element("Message").unwrap_or_default()))
}
