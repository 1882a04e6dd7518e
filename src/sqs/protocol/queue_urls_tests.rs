//! The request context: credentials, queue URLs in every style, hosts of other emulators.

use hyper::header::{HeaderMap, HOST};

use super::*;
use crate::config::Config;
use crate::http::context::{regional_url, UrlStyle};

fn ctx() -> Context {
    let mut headers = HeaderMap::new();
    headers.insert(
        hyper::header::AUTHORIZATION,
        "AWS4-HMAC-SHA256 Credential=123456789012/20240101/eu-west-1/sqs/aws4_request, SignedHeaders=host, Signature=x"
            .parse()
            .unwrap(),
    );
    headers.insert("x-amz-date", "20240101T000000Z".parse().unwrap());
    headers.insert(HOST, "sqs:9324".parse().unwrap());
    let (parts, ()) = {
        let mut req = hyper::Request::new(());
        *req.headers_mut() = headers.clone();
        req.into_parts()
    };
    let signed = crate::http::auth::read(&parts).unwrap();
    Context::new(
        &Config::default().defaults(),
        &headers,
        signed.as_ref(),
        "rid".into(),
    )
}

#[test]
fn region_and_account_come_from_the_credential() {
    let c = ctx();
    assert_eq!(
        (c.region.as_str(), c.account.as_str()),
        ("eu-west-1", "123456789012")
    );
    assert_eq!(c.queue_url(&c.key("q")), "http://sqs:9324/123456789012/q");
}

#[test]
fn queue_urls_in_every_style() {
    let c = ctx();
    let want = |r: &str, a: &str| Some(QueueKey::new(r, a, "q"));
    assert_eq!(
        c.parse_queue_url("http://localhost:9324/000000000000/q"),
        want("eu-west-1", "000000000000")
    );
    assert_eq!(
        c.parse_queue_url("http://x/queue/us-west-2/1/q"),
        want("us-west-2", "1")
    );
    assert_eq!(
        c.parse_queue_url("http://x/queue/q"),
        want("eu-west-1", "123456789012")
    );
    assert_eq!(c.parse_queue_url("q"), want("eu-west-1", "123456789012"));
    assert_eq!(
        c.parse_queue_url("http://sqs.ap-south-1.localhost.localstack.cloud:4566/000000000000/q"),
        want("ap-south-1", "000000000000")
    );
}

#[test]
fn other_emulators_and_aws_hosts() {
    let c = ctx();
    let want = |r: &str, a: &str| Some(QueueKey::new(r, a, "q"));
    let cases = [
        (
            "https://sqs.us-east-2.amazonaws.com/111122223333/q",
            want("us-east-2", "111122223333"),
        ),
        (
            "https://eu-central-1.queue.amazonaws.com/111122223333/q",
            want("eu-central-1", "111122223333"),
        ),
        (
            "http://us-west-1.queue.localhost.localstack.cloud:4566/000000000000/q",
            want("us-west-1", "000000000000"),
        ),
        (
            "http://localhost:4566/queue/us-east-1/000000000000/q",
            want("us-east-1", "000000000000"),
        ),
        (
            "http://goaws:4100/queue/q",
            want("eu-west-1", "123456789012"),
        ),
        (
            "http://elasticmq:9324/ctx/000000000000/q",
            want("eu-west-1", "000000000000"),
        ),
        ("/000000000000/q", want("eu-west-1", "000000000000")),
    ];
    for (url, expected) in cases {
        assert_eq!(c.parse_queue_url(url), expected, "{url}");
    }
}

#[test]
fn host_region_reads_the_first_two_labels() {
    let cases = [
        ("sqs.us-east-2.amazonaws.com", Some("us-east-2")),
        ("eu-central-1.queue.amazonaws.com", Some("eu-central-1")),
        ("sqs.us-east-1", Some("us-east-1")),
        ("us-east-1.queue", Some("us-east-1")),
        ("sqs.local.example", None),
        ("127.0.0.1:9324", None),
        ("localhost:9324", None),
        ("sqs", None),
        ("sqs.", None),
        ("sqs..x", None),
        ("", None),
    ];
    for (host, want) in cases {
        assert_eq!(host_region(host), want, "{host:?}");
    }
}

#[test]
fn url_styles() {
    let headers = {
        let mut h = HeaderMap::new();
        h.insert(HOST, "sqs:9324".parse().unwrap());
        h
    };
    let make = |config: &Config| Context::new(&config.defaults(), &headers, None, "r".into());
    let key = QueueKey::new("us-east-1", "000000000000", "q");
    let host = Config::default();
    assert_eq!(
        make(&host).queue_url(&key),
        "http://sqs:9324/000000000000/q"
    );
    let path = Config {
        url_style: UrlStyle::Path,
        ..Config::default()
    };
    assert_eq!(make(&path).queue_url(&key), "/000000000000/q");
    let fixed = Config {
        public_url: Some("http://localhost:9324/".into()),
        ..path
    };
    assert_eq!(
        make(&fixed).queue_url(&key),
        "http://localhost:9324/000000000000/q"
    );
    // The region style puts the request's region in front of a public URL's host too.
    for public in [
        "http://localhost.localstack.cloud:4566",
        "http://sqs.us-east-1.localhost.localstack.cloud:4566/",
    ] {
        let regional = Config {
            public_url: Some(public.into()),
            url_style: UrlStyle::Region,
            ..Config::default()
        };
        assert_eq!(
            make(&regional).queue_url(&key),
            "http://sqs.us-east-1.localhost.localstack.cloud:4566/000000000000/q"
        );
    }
    assert_eq!(
        regional_url("https://example.com/base", "eu-west-1"),
        "https://sqs.eu-west-1.example.com/base"
    );
}
