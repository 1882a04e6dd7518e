//! AWS Signature Version 4, checked rather than made: a signed request's canonical request,
//! the payload hashes it may have been signed over, the headers it must have signed, and the
//! signature a given secret gives it. Its parts are read once, by [`super::parse`].
//!
//! The canonical request is rebuilt from the request as received, over exactly the headers
//! the client listed in SignedHeaders; the AWS SDKs' signers (aws-sigv4 included) choose
//! their own header set, so they cannot recompute a signature another client made.

use hmac::{Hmac, KeyInit, Mac};
use hyper::header::HeaderMap;
use hyper::Method;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use sha2::{Digest, Sha256};

use super::error::{AuthError, AuthErrorKind, AuthResult};
pub use super::parse::{query_pairs, Signed, ALGORITHM};

const UNSIGNED_PAYLOAD: &str = "UNSIGNED-PAYLOAD";

/// SigV4's URI encoding: everything but the unreserved characters `A-Z a-z 0-9 - _ . ~`.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');
const PATH: &AsciiSet = &UNRESERVED.remove(b'/');

/// The request as SigV4 sees it.
pub struct Request<'a> {
    pub method: &'a Method,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
}

/// Every header that decides what a request does must be signed, as AWS requires of
/// `X-Amz-Target` and of each `x-amz-*` header sent: otherwise a signature over `host` and
/// `x-amz-date` alone would authorize any operation. (`Content-Type` is not required: the
/// JavaScript v2 SDK never signs it (aws/aws-sdk-js#1770), and what a request does never turns
/// on it once X-Amz-Target is signed and the body is.)
pub fn check_signed_headers(headers: &HeaderMap, signed: &Signed) -> AuthResult<()> {
    for name in headers.keys() {
        let name = name.as_str();
        if name.starts_with("x-amz-") && !signed.headers.iter().any(|h| h == name) {
            let shown = if name == "x-amz-target" {
                "X-Amz-Target"
            } else {
                name
            };
            // The wording AWS uses for `Host` [aws-recorded], for the header at hand.
            return Err(AuthError::new(
                AuthErrorKind::SignatureDoesNotMatch,
                format!("'{shown}' must be a 'SignedHeader' in the AWS Authorization."),
            ));
        }
    }
    Ok(())
}

/// The payload hashes the request may have been signed over, best first: the body's SHA-256;
/// for a presigned URL without a body also `UNSIGNED-PAYLOAD`, as the Query-era SDKs presign
/// (AWS accepts it there and nowhere else: elsewhere it would leave the body unsigned). A
/// declared hash (`x-amz-content-sha256`, or a presigned `X-Amz-Content-Sha256`) must be one
/// of these, or the body could be swapped under a valid signature.
pub fn payload_hashes(req: &Request<'_>, signed: &Signed) -> AuthResult<Vec<String>> {
    let actual = hex(&Sha256::digest(req.body));
    let mut allowed = vec![actual];
    if signed.presigned && req.body.is_empty() {
        allowed.push(UNSIGNED_PAYLOAD.to_owned());
    }
    let declared = if signed.presigned {
        query_pairs(req.query.unwrap_or(""))
            .into_iter()
            .find(|(k, _)| k == "X-Amz-Content-Sha256")
            .map(|(_, v)| (v, "'X-Amz-Content-Sha256' parameter"))
    } else {
        req.headers.get("x-amz-content-sha256").map(|v| {
            (
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
                "'x-amz-content-sha256' header",
            )
        })
    };
    let Some((declared, what)) = declared else {
        return Ok(allowed);
    };
    match allowed
        .into_iter()
        .find(|a| a.eq_ignore_ascii_case(&declared))
    {
        Some(hash) => Ok(vec![hash]),
        None => Err(AuthError::new(
            AuthErrorKind::SignatureDoesNotMatch,
            format!("The provided {what} does not match what was computed."),
        )),
    }
}

/// The canonical request over `payload_hash` (one of [`payload_hashes`]).
pub fn canonical_request(req: &Request<'_>, signed: &Signed, payload_hash: &str) -> String {
    let mut out = String::with_capacity(256 + req.path.len());
    out.push_str(req.method.as_str());
    out.push('\n');
    out.push_str(&canonical_path(req.path));
    out.push('\n');
    out.push_str(&canonical_query(req.query.unwrap_or(""), signed.presigned));
    out.push('\n');
    for name in &signed.headers {
        out.push_str(name);
        out.push(':');
        let mut first = true;
        for value in req.headers.get_all(name.as_str()) {
            if !first {
                out.push(',');
            }
            first = false;
            let text = String::from_utf8_lossy(value.as_bytes());
            out.push_str(&text.split_whitespace().collect::<Vec<_>>().join(" "));
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&signed.headers.join(";"));
    out.push('\n');
    out.push_str(payload_hash);
    out
}

/// The path with `.` and `..` segments resolved, each byte but `/` and the unreserved ones
/// percent-encoded (so an already encoded path is encoded twice, as non-S3 services sign it).
fn canonical_path(path: &str) -> String {
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/').skip(1) {
        match segment {
            "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    let normalized = format!("/{}", segments.join("/"));
    utf8_percent_encode(&normalized, PATH).to_string()
}

fn canonical_query(query: &str, presigned: bool) -> String {
    let mut pairs: Vec<(String, String)> = query_pairs(query)
        .into_iter()
        .filter(|(k, _)| !(presigned && k == "X-Amz-Signature"))
        .map(|(k, v)| {
            (
                utf8_percent_encode(&k, UNRESERVED).to_string(),
                utf8_percent_encode(&v, UNRESERVED).to_string(),
            )
        })
        .collect();
    pairs.sort();
    let encoded: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
    encoded.join("&")
}

pub fn string_to_sign(signed: &Signed, canonical_request: &str) -> String {
    format!(
        "{ALGORITHM}\n{}\n{}\n{}",
        signed.amz_date,
        signed.scope,
        hex(&Sha256::digest(canonical_request.as_bytes()))
    )
}

/// The hex signature `secret` gives `string_to_sign` under the request's scope.
pub fn signature(secret: &str, signed: &Signed, string_to_sign: &str) -> String {
    let mut key = hmac(
        format!("AWS4{secret}").as_bytes(),
        signed.scope_date.as_bytes(),
    );
    for part in [&signed.region, &signed.service, &signed.terminator] {
        key = hmac(&key, part.as_bytes());
    }
    hex(&hmac(&key, string_to_sign.as_bytes()))
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    // HMAC takes keys of any length; the error case cannot happen.
    let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap_or_else(|_| unreachable!());
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
