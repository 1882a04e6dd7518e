//! DNS rebinding (issue 50, L11): on loopback without `[[credentials]]`, a page whose own name
//! resolves to 127.0.0.1 sends that name in `Host`, and nothing else tells it from a program on
//! this machine. Every route then answers only a loopback or configured Host: each service's
//! API, the admin API, `/metrics`, the dashboard and its guide, `/health`, SNS's certificate.

use crate::common::TestServer;
use sqslite::config::Credential;
use sqslite::Config;

const FORM: (&str, &str) = ("content-type", "application/x-www-form-urlencoded");
const JSON: (&str, &str) = ("content-type", "application/json");

/// One request to each route: a name, the method, the path, its headers and its body.
type Route = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
);

const ROUTES: &[Route] = &[
    ("health", "GET", "/health", &[], ""),
    (
        "dashboard redirect",
        "GET",
        "/",
        &[("accept", "text/html")],
        "",
    ),
    ("dashboard", "GET", "/_sqslite/ui/", &[], ""),
    ("guide", "GET", "/_sqslite/guide/", &[], ""),
    ("metrics", "GET", "/metrics", &[], ""),
    ("admin API", "GET", "/_sqslite/queues", &[], ""),
    (
        "admin API, a change",
        "POST",
        "/_sqslite/reset",
        &[JSON],
        "{}",
    ),
    ("LocalStack peek", "GET", "/_aws/sqs/messages", &[], ""),
    (
        "SNS certificate",
        "GET",
        "/SimpleNotificationService-sqslite.pem",
        &[],
        "",
    ),
    ("SQS, AWS Query", "GET", "/?Action=ListQueues", &[], ""),
    (
        "SQS, AWS JSON",
        "POST",
        "/",
        &[
            ("x-amz-target", "AmazonSQS.ListQueues"),
            ("content-type", "application/x-amz-json-1.0"),
        ],
        "{}",
    ),
    (
        "SNS",
        "POST",
        "/",
        &[FORM],
        "Action=ListTopics&Version=2010-03-31",
    ),
    (
        "Lambda",
        "GET",
        "/2015-03-31/event-source-mappings/",
        &[],
        "",
    ),
    (
        "STS",
        "POST",
        "/",
        &[FORM],
        "Action=GetCallerIdentity&Version=2011-06-15",
    ),
];

async fn send(s: &TestServer, route: &Route, host: &str) -> crate::common::RawResponse {
    let (_, method, path, headers, body) = *route;
    let mut all = headers.to_vec();
    all.push(("host", host));
    s.raw(method, path, &all, body).await
}

#[tokio::test]
async fn on_loopback_without_credentials_every_route_wants_a_known_host() {
    let mut config = Config::ephemeral();
    config.access.allow_hosts = vec!["devbox".into()];
    let s = TestServer::start_with(config).await;
    let port = s.server.local_addr().port();
    for route in ROUTES {
        let name = route.0;
        for host in [
            "evil.example",
            "evil.example:9324",
            "localhost.evil.example",
        ] {
            let r = send(&s, route, host).await;
            assert_eq!(r.status, 403, "{name}, Host {host}: {}", r.body);
            assert!(r.body.contains("--allow-host"), "{name}: {}", r.body);
        }
        for host in [
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("devbox:{port}"),
            // LocalStack's name for the machine itself, which migrating SDK configs keep.
            format!("localhost.localstack.cloud:{port}"),
            format!("sqs.us-east-1.localhost.localstack.cloud:{port}"),
        ] {
            let r = send(&s, route, &host).await;
            assert!(
                !r.body.contains("--allow-host") && r.status < 500,
                "{name}, Host {host}: {} {}",
                r.status,
                r.body
            );
        }
    }
}

/// With credentials a page cannot sign, so the services' APIs and the open routes answer any
/// Host again (a proxy may name the server as it likes); the admin API without a token keeps
/// the rule, and with its token the token is the proof.
#[tokio::test]
async fn with_credentials_or_a_token_the_signature_or_the_token_is_the_proof() {
    let config = Config::ephemeral().with_credential(Credential::new("AKID", "s", "000000000000"));
    let s = TestServer::start_with(config).await;
    let evil = "evil.example:9324";
    let health = send(&s, &ROUTES[0], evil).await;
    assert_eq!(health.status, 200, "{}", health.body);
    let sqs = send(&s, &ROUTES[9], evil).await;
    assert!(!sqs.body.contains("--allow-host"), "{}", sqs.body);
    let admin = send(&s, &ROUTES[5], evil).await;
    assert_eq!(admin.status, 403, "{}", admin.body);

    let mut config = Config::ephemeral();
    config.access.admin_token = Some("t0ken".into());
    let s = TestServer::start_with(config).await;
    let bearer = [("authorization", "Bearer t0ken"), ("host", evil)];
    let r = s.raw("GET", "/_sqslite/queues", &bearer, "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    for route in [&ROUTES[0], &ROUTES[2], &ROUTES[9]] {
        assert_eq!(send(&s, route, evil).await.status, 403, "{}", route.0);
    }
}
