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
use subtle::ConstantTimeEq;

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
    pub body: Payload<'a>,
}

/// What the signature's payload hash is checked against.
#[derive(Debug, Clone, Copy)]
pub enum Payload<'a> {
    /// The whole body, read before the check (every service but S3).
    Read(&'a [u8]),
    /// A body that streams past the check (S3's, gigabytes at most): the signature covers the
    /// hash the request declares (`x-amz-content-sha256`; a presigned URL's
    /// `X-Amz-Content-Sha256`, else `UNSIGNED-PAYLOAD`), and the service holds the body to that
    /// declaration as it arrives.
    Streamed,
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
/// of these, or the body could be swapped under a valid signature. A streamed body's hash is
/// the one declared ([`Payload::Streamed`]).
pub fn payload_hashes(req: &Request<'_>, signed: &Signed) -> AuthResult<Vec<String>> {
    let declared = declared_hash(req, signed);
    let body = match req.body {
        Payload::Read(body) => body,
        Payload::Streamed => {
            return match (declared, signed.presigned) {
                (Some((hash, _)), _) => Ok(vec![hash]),
                (None, true) => Ok(vec![UNSIGNED_PAYLOAD.to_owned()]),
                // S3's words [aws-recorded, e.g. minio/minio#7040].
                (None, false) => Err(AuthError::new(
                    AuthErrorKind::IncompleteSignature,
                    "Missing required header for this request: x-amz-content-sha256",
                )),
            };
        }
    };
    let actual = hex(&Sha256::digest(body));
    let mut allowed = vec![actual];
    if signed.presigned && body.is_empty() {
        allowed.push(UNSIGNED_PAYLOAD.to_owned());
    }
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

/// The payload hash the request declares, and where.
fn declared_hash(req: &Request<'_>, signed: &Signed) -> Option<(String, &'static str)> {
    if signed.presigned {
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
    }
}

/// The canonical request over `payload_hash` (one of [`payload_hashes`]).
pub fn canonical_request(req: &Request<'_>, signed: &Signed, payload_hash: &str) -> String {
    let mut out = String::with_capacity(256 + req.path.len());
    out.push_str(req.method.as_str());
    out.push('\n');
    if signed.service == "s3" {
        out.push_str(&s3_path(req.path));
    } else {
        out.push_str(&canonical_path(req.path));
    }
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

/// S3's canonical path: each byte of the decoded path but `/` and the unreserved ones
/// percent-encoded once, with no `.` or `..` resolved (SigV4's one exception, as a key may
/// hold such segments).
fn s3_path(path: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(path).collect::<Vec<u8>>();
    percent_encoding::percent_encode(&decoded, PATH).to_string()
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
    hex(&hmac(
        &signing_key(secret, signed),
        string_to_sign.as_bytes(),
    ))
}

/// The key `secret` derives for the request's scope (its date, region and service).
fn signing_key(secret: &str, signed: &Signed) -> Vec<u8> {
    let mut key = hmac(
        format!("AWS4{secret}").as_bytes(),
        signed.scope_date.as_bytes(),
    );
    for part in [&signed.region, &signed.service, &signed.terminator] {
        key = hmac(&key, part.as_bytes());
    }
    key
}

/// The signatures of a streamed (`aws-chunked`) body's chunks and trailer, each chained to
/// the one before from the request's own signature (SigV4 streaming: "Transferring Payload in
/// Multiple Chunks" and "... with trailing headers").
pub struct Chain {
    key: Vec<u8>,
    /// `<amz date>\n<scope>\n`, which every link's string to sign holds.
    dated_scope: String,
    /// The last signature checked: the request's, then each chunk's.
    previous: String,
}

/// The SHA-256 of nothing, which a chunk's string to sign holds where headers would be.
const EMPTY_SHA256: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

impl Chain {
    /// The chain that starts from `signed`'s (verified) signature, made with `secret`.
    pub fn new(secret: &str, signed: &Signed) -> Chain {
        Chain {
            key: signing_key(secret, signed),
            dated_scope: format!("{}\n{}\n", signed.amz_date, signed.scope),
            previous: signed.signature.clone(),
        }
    }

    /// Whether `signature` is the next chunk's, whose data hashes to `data_sha256`; the chain
    /// moves on past it when it is.
    pub fn chunk(&mut self, data_sha256: &[u8], signature: &str) -> bool {
        let to_sign = format!(
            "AWS4-HMAC-SHA256-PAYLOAD\n{}{}\n{EMPTY_SHA256}\n{}",
            self.dated_scope,
            self.previous,
            hex(data_sha256)
        );
        self.link(&to_sign, signature)
    }

    /// Whether `signature` is the trailer's, over its `name:value\n` lines.
    pub fn trailer(&mut self, lines: &[u8], signature: &str) -> bool {
        let to_sign = format!(
            "AWS4-HMAC-SHA256-TRAILER\n{}{}\n{}",
            self.dated_scope,
            self.previous,
            hex(&Sha256::digest(lines))
        );
        self.link(&to_sign, signature)
    }

    fn link(&mut self, to_sign: &str, signature: &str) -> bool {
        let expected = hex(&hmac(&self.key, to_sign.as_bytes()));
        // Constant time, as the request's own signature is compared.
        let ok = bool::from(expected.as_bytes().ct_eq(signature.as_bytes()));
        if ok {
            self.previous = expected;
        }
        ok
    }
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
