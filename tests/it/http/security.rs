//! Browser and network safety: web pages cannot reach the admin API or the SQS API unless
//! `--allow-origin` names them, the admin API answers only loopback or configured Host names
//! (DNS rebinding) or its bearer token, and `/metrics` follows its switch.

use crate::common::{RawResponse, TestServer};
use sqslite::Config;

async fn queue_count(s: &TestServer) -> usize {
    let r = s.raw("GET", "/_sqslite/queues", &[], "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["queues"].as_array().map_or(0, Vec::len)
}

async fn reset(s: &TestServer, headers: &[(&str, &str)]) -> RawResponse {
    s.raw("POST", "/_sqslite/reset", headers, "{}").await
}

#[tokio::test]
async fn a_text_plain_post_from_a_web_page_wipes_nothing() {
    let s = TestServer::start().await;
    s.create_queue("precious").await;
    let page = ("origin", "https://evil.example");
    for headers in [
        vec![page, ("content-type", "text/plain;charset=UTF-8")],
        vec![("content-type", "text/plain")],
        vec![("content-type", "application/x-www-form-urlencoded")],
        vec![("content-type", "multipart/form-data; boundary=x")],
        vec![page, ("content-type", "application/json")],
        vec![("sec-fetch-site", "cross-site")],
    ] {
        let r = reset(&s, &headers).await;
        assert!(
            matches!(r.status, 403 | 415),
            "{headers:?}: {} {}",
            r.status,
            r.body
        );
        assert!(r.json()["error"].as_str().is_some(), "{}", r.body);
    }
    assert_eq!(queue_count(&s).await, 1, "a refused reset wiped the queues");
    let r = reset(&s, &[("content-type", "application/json")]).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(queue_count(&s).await, 0);
}

#[tokio::test]
async fn the_admin_api_refuses_a_foreign_host_and_answers_loopback_and_configured_ones() {
    let mut config = Config::ephemeral();
    config.access.allow_hosts = vec!["devbox".into()];
    let s = TestServer::start_with(config).await;
    let r = s
        .raw(
            "GET",
            "/_sqslite/queues",
            &[("host", "rebound.evil.example:9324")],
            "",
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("--allow-host"), "{}", r.body);
    for host in ["localhost:9324", "127.0.0.1", "[::1]:9324", "devbox:9324"] {
        let r = s
            .raw("GET", "/_sqslite/queues", &[("host", host)], "")
            .await;
        assert_eq!(r.status, 200, "{host}: {}", r.body);
    }
    // On loopback without credentials the SQS API keeps the same rule (rebinding.rs);
    // containers that reach it by service name reach a server beyond loopback.
    let r = s
        .raw("GET", "/?Action=ListQueues", &[("host", "devbox:9324")], "")
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn an_admin_token_is_required_and_accepted() {
    let mut config = Config::ephemeral();
    config.access.admin_token = Some("s3cret".into());
    let s = TestServer::start_with(config).await;
    for auth in [
        None,
        Some("Bearer wrong"),
        Some("Bearer s3cre"),
        Some("s3cret"),
    ] {
        let headers: Vec<(&str, &str)> = auth.map(|a| ("authorization", a)).into_iter().collect();
        let r = s.raw("GET", "/_sqslite/clock", &headers, "").await;
        assert_eq!(r.status, 401, "{auth:?}: {}", r.body);
        assert_eq!(s.raw("GET", "/metrics", &headers, "").await.status, 401);
    }
    let ok = [
        ("authorization", "Bearer s3cret"),
        ("host", "anything.example"),
    ];
    assert_eq!(s.raw("GET", "/_sqslite/clock", &ok, "").await.status, 200);
    assert_eq!(s.raw("GET", "/metrics", &ok, "").await.status, 200);
}

#[tokio::test]
async fn beyond_loopback_the_admin_api_needs_a_token() {
    let mut config = Config::ephemeral();
    config.host = "0.0.0.0".into();
    assert!(sqslite::support::exposure_warning(&config).is_some());
    let s = TestServer::start_with(config).await;
    let r = s
        .raw("GET", "/_sqslite/clock", &[("host", "localhost")], "")
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("--admin-token"), "{}", r.body);
    assert_eq!(s.raw("GET", "/health", &[], "").await.status, 200);
    let mut config = Config::ephemeral();
    config.host = "0.0.0.0".into();
    config.access.admin_token = Some("t".into());
    assert!(sqslite::support::exposure_warning(&config).is_none());
}

#[tokio::test]
async fn a_form_post_send_message_from_a_web_page_is_refused() {
    let s = TestServer::start().await;
    let url = s.create_queue("orders").await;
    let form = form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("Action", "SendMessage"),
            ("QueueUrl", url.as_str()),
            ("MessageBody", "forged"),
        ])
        .finish();
    let form_type = ("content-type", "application/x-www-form-urlencoded");
    let r = s
        .raw(
            "POST",
            "/",
            &[form_type, ("origin", "https://evil.example")],
            &form,
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.xml("Code").as_deref(), Some("AccessDenied"), "{}", r.body);
    assert!(r.body.contains("--allow-origin"), "{}", r.body);
    let r = s
        .raw(
            "GET",
            &format!("/?{form}"),
            &[("sec-fetch-site", "same-site")],
            "",
        )
        .await;
    assert_eq!(r.status, 403, "an <img> GET carries no Origin: {}", r.body);
    let json = s
        .raw(
            "POST",
            "/",
            &[
                ("x-amz-target", "AmazonSQS.ListQueues"),
                ("content-type", "application/x-amz-json-1.0"),
                ("origin", "null"),
            ],
            "{}",
        )
        .await;
    assert_eq!(json.status, 403);
    assert_eq!(
        json.json()["__type"],
        "com.amazon.coral.service#AccessDeniedException"
    );
    assert_eq!(s.counts(&url).await, (0, 0, 0), "nothing was sent");
}

#[tokio::test]
async fn an_allowed_origin_may_call_and_read_the_answer() {
    let mut config = Config::ephemeral();
    config.access.allow_origins = vec!["http://localhost:3000".into()];
    let s = TestServer::start_with(config).await;
    let page = ("origin", "http://localhost:3000");
    let pre = s
        .raw(
            "OPTIONS",
            "/",
            &[
                page,
                ("access-control-request-method", "POST"),
                (
                    "access-control-request-headers",
                    "x-amz-target,content-type",
                ),
            ],
            "",
        )
        .await;
    assert_eq!(pre.status, 204);
    assert_eq!(
        pre.header("access-control-allow-origin"),
        Some("http://localhost:3000")
    );
    assert_eq!(
        pre.header("access-control-allow-headers"),
        Some("x-amz-target,content-type")
    );
    let r = s
        .raw(
            "GET",
            "/?Action=ListQueues",
            &[page, ("sec-fetch-site", "same-site")],
            "",
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://localhost:3000")
    );
}

#[tokio::test]
async fn metrics_follow_no_admin_unless_switched_on() {
    let mut config = Config::ephemeral();
    config.admin.enabled = false;
    let s = TestServer::start_with(config.clone()).await;
    let r = s.raw("GET", "/metrics", &[], "").await;
    assert_eq!(r.status, 404, "{}", r.body);
    config.access.metrics = Some(true);
    let s = TestServer::start_with(config).await;
    assert_eq!(s.raw("GET", "/metrics", &[], "").await.status, 200);
    let mut config = Config::ephemeral();
    config.access.metrics = Some(false);
    let s = TestServer::start_with(config).await;
    assert_eq!(s.raw("GET", "/metrics", &[], "").await.status, 404);
    assert_eq!(s.raw("GET", "/_sqslite/clock", &[], "").await.status, 200);
}

#[tokio::test]
async fn an_empty_admin_token_is_refused_at_startup() {
    let mut config = Config::ephemeral();
    config.access.admin_token = Some(String::new());
    let err = TestServer::try_start_with(config.clone())
        .await
        .err()
        .expect("an empty token must not start a server");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("SQSLITE_ADMIN_TOKEN"), "{err}");
    // The switch that makes the admin API always need the token needs one.
    config.access.admin_token = None;
    config.access.require_admin_token = true;
    let err = TestServer::try_start_with(config).await.err().unwrap();
    assert!(err.to_string().contains("admin_require_token"), "{err}");
}

#[tokio::test]
async fn allow_origin_opens_the_sqs_api_and_not_the_admin_api() {
    let mut config = Config::ephemeral();
    config.access.allow_origins = vec!["*".into()];
    let s = TestServer::start_with(config).await;
    let url = s.create_queue("private").await;
    s.send(&url, "secret").await;
    let page = ("origin", "https://evil.example");
    let queue: String = form_urlencoded::byte_serialize(url.as_bytes()).collect();
    let peek = format!("/_aws/sqs/messages?QueueUrl={queue}");
    let r = s.raw("GET", &peek, &[page], "").await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("--admin-allow-origin"), "{}", r.body);
    let json = ("content-type", "application/json");
    assert_eq!(reset(&s, &[page, json]).await.status, 403);
    assert_eq!(queue_count(&s).await, 1, "the page reset nothing");
    let r = s.raw("GET", "/?Action=ListQueues", &[page], "").await;
    assert_eq!(r.status, 200, "the SQS API is open to it: {}", r.body);

    // The admin API has its own list.
    let mut config = Config::ephemeral();
    config.access.admin_origins = vec!["http://localhost:3000".into()];
    let s = TestServer::start_with(config).await;
    let tool = ("origin", "http://localhost:3000");
    let r = s.raw("GET", "/_sqslite/queues", &[tool], "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://localhost:3000")
    );
    let r = s.raw("GET", "/?Action=ListQueues", &[tool], "").await;
    assert_eq!(r.status, 403, "not the SQS API: {}", r.body);
}

#[tokio::test]
async fn with_credentials_the_admin_api_can_be_made_to_need_its_token() {
    use sqslite::config::Credential;
    let open = Config::ephemeral().with_credential(Credential::new("AKID", "s", "000000000000"));
    // Without the switch, loopback callers reach the admin API unsigned and without a token.
    let s = TestServer::start_with(open.clone()).await;
    assert_eq!(s.raw("GET", "/_sqslite/clock", &[], "").await.status, 200);
    let mut locked = open;
    locked.access.require_admin_token = true;
    locked.access.admin_token = Some("t0ken".into());
    let s = TestServer::start_with(locked).await;
    assert_eq!(s.raw("GET", "/_sqslite/clock", &[], "").await.status, 401);
    assert_eq!(s.raw("GET", "/metrics", &[], "").await.status, 401);
    let bearer = [("authorization", "Bearer t0ken")];
    assert_eq!(
        s.raw("GET", "/_sqslite/clock", &bearer, "").await.status,
        200
    );
}

/// A refusal the router makes before any service runs (a browser origin, a body over the
/// bound) answers in the shape of the service the request names: SNS's XML, the Lambda API's
/// JSON, SQS's either (issue 49).
#[tokio::test]
async fn refusals_before_a_service_runs_speak_its_language() {
    let s = TestServer::start().await;
    let evil = ("origin", "https://evil.example");
    let scoped = |service: &str| {
        format!(
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/us-east-1/{service}/aws4_request, SignedHeaders=host;x-amz-date, Signature=00"
        )
    };
    let sns = scoped("sns");
    let form = ("content-type", "application/x-www-form-urlencoded");
    let date = ("x-amz-date", "20240101T000000Z");
    let body = "Action=ListTopics&Version=2010-03-31";
    let r = s
        .raw(
            "POST",
            "/",
            &[evil, form, date, ("authorization", &sns)],
            body,
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("<ErrorResponse"), "{}", r.body);
    assert_eq!(r.xml("Code").as_deref(), Some("AuthorizationError"));

    let r = s
        .raw("GET", "/2015-03-31/event-source-mappings/", &[evil], "")
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.header("x-amzn-errortype"), Some("AccessDeniedException"));
    assert!(r.json()["Message"]
        .as_str()
        .unwrap()
        .contains("--allow-origin"));

    let big = "x".repeat(sqslite::support::MAX_BODY_BYTES + 1);
    let r = s
        .raw("POST", "/", &[form, date, ("authorization", &sns)], &big)
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(
        r.xml("Code").as_deref(),
        Some("InvalidParameter"),
        "{}",
        r.body
    );
    let sqs = [
        ("x-amz-target", "AmazonSQS.ListQueues"),
        ("content-type", "application/x-amz-json-1.0"),
    ];
    let r = s.raw("POST", "/", &sqs, &big).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(
        r.json()["__type"],
        "com.amazon.coral.service#InvalidParameterValueException"
    );
}
