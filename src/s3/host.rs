//! Where an S3 request names its bucket: in the path (`/<bucket>/<key>`, path style) or in the
//! Host (virtual-host style), as SDKs configured for LocalStack or a public URL address it:
//! `<bucket>.s3.<region>.localhost.localstack.cloud`, `<bucket>.s3.localhost.localstack.cloud`,
//! `<bucket>.localhost.localstack.cloud`, `<bucket>.localhost`, `<bucket>.<public URL's
//! host>`, and any `<bucket>.s3.…`. Names the other services mint there
//! (`sqs.<region>.<host>`, `<region>.queue.<host>`, `sns.…`, `sts.…`, `lambda.…`) are never a
//! bucket's, and `s3.…` alone (S3's endpoint) is path style.
//!
//! Also the router's rule for an unsigned request (a signed one is S3's by its scope): S3's
//! when its Host names a bucket or S3's endpoint, or when its path names a bucket and it is
//! sent as no Query service sends (GET, HEAD, PUT or DELETE without an `Action` parameter, a
//! browser form's POST, or a POST naming `?uploads`, `?uploadId=` or `?delete`). A path shaped as a queue URL's (`/<12-digit account>/…`,
//! `/queue/…`) stays SQS's: unsigned, a bucket named so is reached in virtual-host style.

use hyper::header::{CONTENT_TYPE, HOST};
use hyper::http::request::Parts;
use hyper::Method;

use super::engine::names::valid_bucket;

/// The domains a bucket's virtual host sits below without an `s3` label: LocalStack's
/// loopback name and the loopback name itself.
const BASES: &[&str] = &["localhost.localstack.cloud", "localhost"];

/// The first labels of the names the other services mint below a host.
const OTHER_SERVICES: &[&str] = &["sqs", "sns", "sts", "lambda"];

/// A bucket and the region its Host names.
#[derive(Debug, PartialEq, Eq)]
pub struct Virtual<'a> {
    /// The bucket, `None` for S3's endpoint itself (path style).
    pub bucket: Option<&'a str>,
    /// `s3.<region>.…`'s region.
    pub region: Option<&'a str>,
}

/// The Host's name without its port, lower-case as DNS compares it.
fn name_of(host: &str) -> &str {
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => {
            name
        }
        _ => host,
    }
}

/// What `host` (a Host header, port and all) says of S3: `None` when it names neither a
/// bucket nor S3's endpoint; `public` is the public URL's host, if one is set.
pub fn parse<'a>(host: &'a str, public: Option<&'a str>) -> Option<Virtual<'a>> {
    let name = name_of(host).trim_end_matches('.');
    if let Some(rest) = name.strip_prefix("s3.") {
        return Some(Virtual {
            bucket: None,
            region: region_after(rest),
        });
    }
    if let Some(at) = name.find(".s3.") {
        let bucket = &name[..at];
        let rest = &name[at + 4..];
        return valid_bucket(bucket).then(|| Virtual {
            bucket: Some(bucket),
            region: region_after(rest),
        });
    }
    let below = BASES
        .iter()
        .copied()
        .chain(public)
        .find_map(|base| below(name, base))?;
    let first = below.split('.').next().unwrap_or(below);
    let second = below.split('.').nth(1);
    let other = OTHER_SERVICES.contains(&first) || second == Some("queue");
    (!other && valid_bucket(below)).then_some(Virtual {
        bucket: Some(below),
        region: None,
    })
}

/// The labels of `name` before `.<base>`, if `name` is below `base`.
fn below<'a>(name: &'a str, base: &str) -> Option<&'a str> {
    let split = name.len().checked_sub(base.len() + 1)?;
    let tail = name.get(split..)?;
    (tail.as_bytes()[0] == b'.' && tail[1..].eq_ignore_ascii_case(base))
        .then(|| &name[..split])
        .filter(|b| !b.is_empty())
}

/// The region `rest`'s first label names, when it looks like one (`us-east-1`).
fn region_after(rest: &str) -> Option<&str> {
    let label = rest.split('.').next()?;
    let looks = label.bytes().filter(|b| *b == b'-').count() >= 2
        && label.bytes().last().is_some_and(|b| b.is_ascii_digit());
    looks.then_some(label)
}

/// The router's rule for an unsigned request; see the module docs.
pub fn names(parts: &Parts) -> bool {
    let host = parts.headers.get(HOST).and_then(|v| v.to_str().ok());
    if host.and_then(|h| parse(h, None)).is_some() {
        return !is_query(parts);
    }
    let path = parts.uri.path();
    let bucket = path[1.min(path.len())..].split('/').next().unwrap_or("");
    let queue_url =
        bucket == "queue" || (bucket.len() == 12 && bucket.bytes().all(|b| b.is_ascii_digit()));
    valid_bucket(bucket) && !queue_url && !is_query(parts)
}

/// Whether the request is sent as the Query services send: a form POST, or any request with an
/// `Action` parameter. A POST is S3's as a browser form's upload, or with a query naming one
/// of S3's POST operations (`?uploads`, `?uploadId=`, `?delete`), which no Query service's
/// form POST carries.
fn is_query(parts: &Parts) -> bool {
    let keys = || {
        parts
            .uri
            .query()
            .into_iter()
            .flat_map(|q| form_urlencoded::parse(q.as_bytes()))
    };
    let action = keys().any(|(k, _)| k == "Action");
    let content_type = parts
        .headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::trim_start);
    let upload = content_type.is_some_and(|t| t.starts_with("multipart/form-data"));
    let form = content_type.is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    let s3_post = keys().any(|(k, _)| matches!(&*k, "uploads" | "uploadId" | "delete")) && !form;
    let s3_method = matches!(
        parts.method,
        Method::GET | Method::HEAD | Method::PUT | Method::DELETE
    ) || (parts.method == Method::POST && (upload || s3_post));
    action || !s3_method
}

#[cfg(test)]
mod tests {
    use super::*;

    fn virtual_host(host: &str) -> Option<Virtual<'_>> {
        parse(host, Some("sqs.example.com"))
    }

    #[test]
    fn buckets_in_the_host() {
        let at = |bucket, region| {
            Some(Virtual {
                bucket: Some(bucket),
                region,
            })
        };
        let cases = [
            (
                "box.s3.us-east-1.localhost.localstack.cloud:4566",
                at("box", Some("us-east-1")),
            ),
            ("my.b.s3.localhost.localstack.cloud", at("my.b", None)),
            ("box.localhost.localstack.cloud:4566", at("box", None)),
            ("box.localhost:9324", at("box", None)),
            ("box.s3.amazonaws.com", at("box", None)),
            ("box.sqs.example.com:80", at("box", None)),
        ];
        for (host, want) in cases {
            assert_eq!(virtual_host(host), want, "{host}");
        }
        let endpoint = Some(Virtual {
            bucket: None,
            region: Some("eu-west-1"),
        });
        assert_eq!(
            virtual_host("s3.eu-west-1.localhost.localstack.cloud"),
            endpoint
        );
        for none in [
            "localhost:4566",
            "127.0.0.1:9324",
            "localhost.localstack.cloud:4566",
            "sqs.us-east-1.localhost.localstack.cloud:4566",
            "us-east-1.queue.localhost.localstack.cloud",
            "sqs.us-east-1.localhost:9324",
            "sns.us-east-1.localhost",
            "sqs.example.com",
            "example.org",
            "Bad_Name.localhost",
        ] {
            assert_eq!(virtual_host(none), None, "{none}");
        }
    }

    fn head(method: &str, uri: &str, host: &str, content_type: Option<&str>) -> Parts {
        let mut builder = hyper::Request::builder().method(method).uri(uri);
        builder = builder.header(HOST, host);
        if let Some(t) = content_type {
            builder = builder.header(CONTENT_TYPE, t);
        }
        builder.body(()).unwrap().into_parts().0
    }

    #[test]
    fn an_unsigned_request_is_s3s_only_as_no_query_service_sends_it() {
        let local = "localhost:4566";
        let form = Some("application/x-www-form-urlencoded");
        let upload = Some("multipart/form-data; boundary=x");
        for s3 in [
            head("GET", "/bucket/key", local, None),
            head("PUT", "/bucket", local, None),
            head("HEAD", "/bucket", local, None),
            head("DELETE", "/bucket/a/b", local, None),
            head("POST", "/bucket", local, upload),
            head("POST", "/bucket?delete", local, Some("application/xml")),
            head("POST", "/bucket/key?uploads", local, None),
            head(
                "POST",
                "/bucket/key?uploadId=abc",
                local,
                Some("application/xml"),
            ),
            head("GET", "/", "box.s3.localhost.localstack.cloud", None),
        ] {
            assert!(names(&s3), "{:?}", s3.uri);
        }
        for other in [
            head("POST", "/", local, form),
            head("POST", "/123456789012/q", local, form),
            head("GET", "/123456789012/q?Action=ReceiveMessage", local, None),
            head("GET", "/000000000000/q", local, None),
            head("GET", "/queue/us-east-1/000000000000/q", local, None),
            head("GET", "/?Action=ListQueues", local, None),
            head("GET", "/", local, None),
            head("POST", "/bucket?uploads", local, form),
            head("POST", "/bucket", local, None),
            head("GET", "/Not_A_Bucket/x", local, None),
            head(
                "POST",
                "/",
                "sqs.us-east-1.localhost.localstack.cloud",
                form,
            ),
        ] {
            assert!(!names(&other), "{:?}", other.uri);
        }
    }
}
