//! The one reading of a request's SigV4 signature (Authorization header or presigned query):
//! its result serves authentication, the request's region and account, and its SenderId, so
//! no two parts of the server can read two different credentials from one request.

use std::borrow::Cow;

use hyper::header::{HeaderMap, HeaderName, AUTHORIZATION};
use hyper::http::request::Parts;

use super::error::{AuthError, AuthErrorKind, AuthResult};

/// By name, not by text, which hyper would parse on each signed request.
const X_AMZ_DATE: HeaderName = HeaderName::from_static("x-amz-date");

pub const ALGORITHM: &str = "AWS4-HMAC-SHA256";

/// SigV4's longest presigned validity, a week: the signing key lives seven days (AWS docs,
/// "Authenticating Requests: Using Query Parameters"; wire reference §8.5).
pub const MAX_EXPIRES_SECONDS: u64 = 604_800;

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
    /// SigV4's SignedHeaders, lower-case, in the order signed.
    pub headers: Vec<String>,
    pub signature: String,
    /// `X-Amz-Date`, ISO 8601 basic format (`20240101T000000Z`).
    pub amz_date: String,
    /// A presigned URL's `X-Amz-Expires`, in seconds.
    pub expires: Option<u64>,
    pub presigned: bool,
}

pub(super) fn incomplete(message: impl Into<Cow<'static, str>>) -> AuthError {
    AuthError::new(AuthErrorKind::IncompleteSignature, message.into())
}

/// The request's signature, `None` when it carries none.
pub fn read(parts: &Parts) -> AuthResult<Option<Signed>> {
    let query = query_pairs(parts.uri.query().unwrap_or(""));
    let presigned = query.iter().any(|(k, _)| k == "X-Amz-Algorithm");
    if let Some(value) = parts.headers.get(AUTHORIZATION) {
        if presigned {
            // [aws-recorded for DynamoDB, whose signature checks SQS shares (dynalite's notes)]
            return Err(AuthError::new(
                AuthErrorKind::SignatureDoesNotMatch,
                "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.",
            ));
        }
        let text = value
            .to_str()
            .map_err(|_| incomplete("The Authorization header is not valid ASCII."))?;
        return from_header(text, &parts.headers).map(Some);
    }
    if query.iter().any(|(k, _)| k.starts_with("X-Amz-")) {
        return from_query(&query).map(Some);
    }
    Ok(None)
}

/// Reads `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` and `X-Amz-Date`.
/// Each of the three parts must come exactly once and nothing else may: a part that is
/// neither would be read by nobody, and a second copy by whoever reads the other one.
pub fn from_header(value: &str, headers: &HeaderMap) -> AuthResult<Signed> {
    let whole = value.trim();
    let (algorithm, rest) = whole.split_once(' ').unwrap_or((whole, ""));
    if algorithm != ALGORITHM {
        return Err(incomplete(format!(
            "Unsupported AWS 'algorithm': '{algorithm}'"
        )));
    }
    let mut fields: [Option<&str>; 3] = [None; 3];
    for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((key, field)) = part.split_once('=') else {
            // AWS's wording for a part without `=` [aws-recorded, IncompleteSignature].
            return Err(incomplete(format!(
                "'{part}' not a valid key=value pair (missing equal-sign) in Authorization header: '{whole}'."
            )));
        };
        let slot = match key {
            "Credential" => &mut fields[0],
            "SignedHeaders" => &mut fields[1],
            "Signature" => &mut fields[2],
            _ => {
                return Err(incomplete(format!(
                    "'{key}' is not an Authorization header parameter (only 'Credential', 'SignedHeaders' and 'Signature', once each): '{whole}'"
                )))
            }
        };
        if slot.replace(field.trim()).is_some() {
            return Err(incomplete(format!(
                "Authorization header has the '{key}' parameter more than once: '{whole}'"
            )));
        }
    }
    let amz_date = headers.get(X_AMZ_DATE).and_then(|v| v.to_str().ok());
    let mut missing = String::new();
    for (name, present) in [
        ("'Credential' parameter", fields[0].is_some()),
        ("'Signature' parameter", fields[2].is_some()),
        ("'SignedHeaders' parameter", fields[1].is_some()),
        // AWS also reads a `Date` header here; sqslite reads `X-Amz-Date` only, and says so.
        ("existence of a 'X-Amz-Date' header", amz_date.is_some()),
    ] {
        if !present {
            missing.push_str("Authorization header requires ");
            missing.push_str(name);
            missing.push_str(". ");
        }
    }
    match (fields, amz_date) {
        ([Some(c), Some(h), Some(s)], Some(d)) => build(c, h, s, d, None, false),
        _ => Err(incomplete(format!("{missing}Authorization={whole}"))),
    }
}

/// Reads the `X-Amz-*` parameters of a presigned URL's query string; each at most once.
pub fn from_query(query: &[(String, String)]) -> AuthResult<Signed> {
    let get = |name: &str| -> AuthResult<Option<&str>> {
        let mut found = query
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.as_str());
        let first = found.next();
        if found.next().is_some() {
            return Err(incomplete(format!(
                "AWS query-string parameter '{name}' is given more than once. Re-examine the query-string parameters."
            )));
        }
        Ok(first)
    };
    let mut found = Vec::with_capacity(5);
    for name in [
        "X-Amz-Algorithm",
        "X-Amz-Credential",
        "X-Amz-Signature",
        "X-Amz-SignedHeaders",
        "X-Amz-Date",
    ] {
        found.push(get(name)?.ok_or_else(|| {
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
    let expires = match get("X-Amz-Expires")? {
        None => None,
        Some(text) => Some(expires(text)?),
    };
    build(found[1], found[3], found[2], found[4], expires, true)
}

fn expires(text: &str) -> AuthResult<u64> {
    let seconds = text.parse::<u64>().map_err(|_| {
        incomplete(format!(
            "X-Amz-Expires should be a number of seconds, not '{text}'."
        ))
    })?;
    if seconds > MAX_EXPIRES_SECONDS {
        // S3's wording of SigV4's one-week cap; SQS's own text is unrecorded.
        return Err(incomplete(format!(
            "X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less than {MAX_EXPIRES_SECONDS} seconds"
        )));
    }
    Ok(seconds)
}

fn build(
    credential: &str,
    signed_headers: &str,
    signature: &str,
    amz_date: &str,
    expires: Option<u64>,
    presigned: bool,
) -> AuthResult<Signed> {
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
        headers: signed_headers,
        signature: signature.to_owned(),
        amz_date: amz_date.to_owned(),
        expires,
        presigned,
    })
}

/// Query parameters decoded exactly as the form decoder decodes them (`+` is a space,
/// `%XX` a byte), so that what the signature covers is what the action reads.
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    use crate::http::form::decode;
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (
                decode(k.as_bytes()).into_owned(),
                decode(v.as_bytes()).into_owned(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(value: &str) -> AuthResult<Signed> {
        let mut headers = HeaderMap::new();
        headers.insert("x-amz-date", "20240101T000000Z".parse().unwrap());
        from_header(value, &headers)
    }

    #[test]
    fn each_part_once_and_nothing_else() {
        let good = "AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/sqs/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc";
        assert_eq!(header(good).unwrap().access_key, "AKID");
        for bad in [
            good.replace(
                "AWS4-HMAC-SHA256 ",
                "AWS4-HMAC-SHA256 X=Credential=B/x/y/z/w, ",
            ),
            format!("{good}, Signature=abc"),
            format!("{good}, Credential=B/20240101/eu-west-1/sqs/aws4_request"),
            good.replace("Signature=abc", "Signature"),
        ] {
            let err = header(&bad).unwrap_err();
            assert_eq!(err.kind, AuthErrorKind::IncompleteSignature, "{bad}");
        }
    }

    #[test]
    fn plus_is_a_space_as_in_forms() {
        assert_eq!(
            query_pairs("a=x+y&b=x%2By&c"),
            [("a", "x y"), ("b", "x+y"), ("c", "")].map(|(k, v)| (k.to_owned(), v.to_owned()))
        );
    }
}
