//! AWS Signature Version 4, checked rather than made: the parts of a signed request (from the
//! Authorization header or a presigned query string), its canonical request and the
//! signature a given secret gives it.
//!
//! The canonical request is rebuilt from the request as received, over exactly the headers
//! the client listed in SignedHeaders; the AWS SDKs' signers (aws-sigv4 included) choose
//! their own header set, so they cannot recompute a signature another client made.

use std::borrow::Cow;

use hmac::{Hmac, KeyInit, Mac};
use hyper::header::HeaderMap;
use hyper::Method;
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use sha2::{Digest, Sha256};

use crate::error::{ErrorKind, SqsError, SqsResult};

pub const ALGORITHM: &str = "AWS4-HMAC-SHA256";
const UNSIGNED_PAYLOAD: &str = "UNSIGNED-PAYLOAD";

/// SigV4's URI encoding: everything but the unreserved characters `A-Z a-z 0-9 - _ . ~`.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');
const PATH: &AsciiSet = &UNRESERVED.remove(b'/');

/// What a request says about its signature, before anything is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    pub access_key: String,
    /// The credential scope: `date/region/service/aws4_request`.
    pub scope: String,
    pub scope_date: String,
    pub region: String,
    pub service: String,
    pub terminator: String,
    pub signed_headers: Vec<String>,
    pub signature: String,
    /// `X-Amz-Date`, ISO 8601 basic format (`20240101T000000Z`).
    pub amz_date: String,
    /// A presigned URL's `X-Amz-Expires`, in seconds.
    pub expires: Option<u64>,
    pub presigned: bool,
}

fn incomplete(message: impl Into<Cow<'static, str>>) -> SqsError {
    SqsError::new(ErrorKind::IncompleteSignature, message.into())
}

/// Reads `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` and `X-Amz-Date`.
pub fn from_header(value: &str, headers: &HeaderMap) -> SqsResult<Signed> {
    let (algorithm, rest) = value.trim().split_once(' ').unwrap_or((value.trim(), ""));
    if algorithm != ALGORITHM {
        return Err(incomplete(format!(
            "Unsupported AWS 'algorithm': '{algorithm}'"
        )));
    }
    let field = |name: &str| {
        rest.split(',')
            .filter_map(|part| part.trim().split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.trim())
    };
    let (credential, signed_headers, signature) = (
        field("Credential"),
        field("SignedHeaders"),
        field("Signature"),
    );
    let amz_date = headers.get("x-amz-date").and_then(|v| v.to_str().ok());
    let mut missing = String::new();
    for (name, present) in [
        ("'Credential' parameter", credential.is_some()),
        ("'Signature' parameter", signature.is_some()),
        ("'SignedHeaders' parameter", signed_headers.is_some()),
        (
            "existence of either a 'X-Amz-Date' or a 'Date' header",
            amz_date.is_some(),
        ),
    ] {
        if !present {
            missing.push_str("Authorization header requires ");
            missing.push_str(name);
            missing.push_str(". ");
        }
    }
    match (credential, signed_headers, signature, amz_date) {
        (Some(c), Some(h), Some(s), Some(d)) => build(c, h, s, d, None, false),
        _ => Err(incomplete(format!("{missing}Authorization={value}"))),
    }
}

/// Reads the `X-Amz-*` parameters of a presigned URL's query string.
pub fn from_query(query: &[(String, String)]) -> SqsResult<Signed> {
    let get = |name: &str| {
        query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let mut found = Vec::with_capacity(5);
    for name in [
        "X-Amz-Algorithm",
        "X-Amz-Credential",
        "X-Amz-Signature",
        "X-Amz-SignedHeaders",
        "X-Amz-Date",
    ] {
        found.push(get(name).ok_or_else(|| {
            incomplete(format!(
                "AWS query-string parameters must include '{name}'. Re-examine the query-string parameters."
            ))
        })?);
    }
    if found[0] != ALGORITHM {
        return Err(incomplete(format!(
            "Unsupported AWS 'algorithm': '{}'",
            found[0]
        )));
    }
    let expires = match get("X-Amz-Expires") {
        None => None,
        Some(text) => Some(text.parse::<u64>().map_err(|_| {
            incomplete(format!(
                "X-Amz-Expires should be a number of seconds, not '{text}'."
            ))
        })?),
    };
    build(found[1], found[3], found[2], found[4], expires, true)
}

fn build(
    credential: &str,
    signed_headers: &str,
    signature: &str,
    amz_date: &str,
    expires: Option<u64>,
    presigned: bool,
) -> SqsResult<Signed> {
    let parts: Vec<&str> = credential.split('/').collect();
    let [access_key, date, region, service, terminator] = parts[..] else {
        return Err(incomplete(format!(
            "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '{credential}'"
        )));
    };
    let signed_headers: Vec<String> = signed_headers.split(';').map(str::to_owned).collect();
    if !signed_headers.iter().any(|h| h == "host") {
        return Err(incomplete(
            "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.",
        ));
    }
    Ok(Signed {
        access_key: access_key.to_owned(),
        scope: format!("{date}/{region}/{service}/{terminator}"),
        scope_date: date.to_owned(),
        region: region.to_owned(),
        service: service.to_owned(),
        terminator: terminator.to_owned(),
        signed_headers,
        signature: signature.to_owned(),
        amz_date: amz_date.to_owned(),
        expires,
        presigned,
    })
}

/// The request as SigV4 sees it.
pub struct Request<'a> {
    pub method: &'a Method,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
}

/// The canonical request, or the error for a payload hash that does not match the body.
pub fn canonical_request(req: &Request<'_>, signed: &Signed) -> SqsResult<String> {
    let mut out = String::with_capacity(256 + req.path.len());
    out.push_str(req.method.as_str());
    out.push('\n');
    out.push_str(&canonical_path(req.path));
    out.push('\n');
    out.push_str(&canonical_query(req.query.unwrap_or(""), signed.presigned));
    out.push('\n');
    for name in &signed.signed_headers {
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
    out.push_str(&signed.signed_headers.join(";"));
    out.push('\n');
    out.push_str(&payload_hash(req, signed)?);
    Ok(out)
}

/// The body's SHA-256 in hex; a declared `x-amz-content-sha256` must be that hash (or say the
/// payload is unsigned), or the body could be swapped under a valid signature.
fn payload_hash(req: &Request<'_>, signed: &Signed) -> SqsResult<String> {
    let actual = hex(&Sha256::digest(req.body));
    let declared = req
        .headers
        .get("x-amz-content-sha256")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| {
            signed
                .presigned
                .then(|| query_pairs(req.query.unwrap_or("")))
                .and_then(|q| q.into_iter().find(|(k, _)| k == "X-Amz-Content-Sha256"))
                .map(|(_, v)| v)
        });
    match declared {
        Some(d) if d == UNSIGNED_PAYLOAD => Ok(d),
        Some(d) if !d.eq_ignore_ascii_case(&actual) => Err(SqsError::new(
            ErrorKind::SignatureDoesNotMatch,
            "The provided 'x-amz-content-sha256' header does not match what was computed.",
        )),
        _ => Ok(actual),
    }
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

/// Query parameters decoded (`%XX` only: a literal `+` is a plus), as SigV4 reads them.
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| percent_decode_str(s).decode_utf8_lossy().into_owned();
            (decode(k), decode(v))
        })
        .collect()
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
