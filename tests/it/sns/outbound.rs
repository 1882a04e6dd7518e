//! Outbound requests that cannot be turned against the machine (issue 39): the links in
//! SNS's messages come from the server's own address, never from a request's Host (M2); a
//! URL's user and password go out as Basic authentication, never in Host (M1); an endpoint
//! the outbound rule refuses (link-local, the server's own address) is refused at Subscribe
//! before anything is sent (M1, run in a private network namespace).

use crate::common::endpoint::Endpoint;
use crate::common::netns::private_network;
use crate::common::sns::{start, Sns};

/// A Subscribe of `endpoint` over http, sent raw with this Host header.
async fn subscribe_with_host(s: &Sns, topic: &str, endpoint: &str, host: &str) -> String {
    let body: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("Action", "Subscribe"),
            ("TopicArn", topic),
            ("Protocol", "http"),
            ("Endpoint", endpoint),
        ])
        .finish();
    let headers = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("host", host),
    ];
    let got = s.t.raw("POST", "/", &headers, &body).await;
    got.body
}

#[tokio::test]
async fn links_come_from_the_servers_address_not_from_host() {
    let attacker = "attacker.example:8080/steal?x=";
    // Named, or the loopback server's Host rule would refuse it before SNS saw it.
    let mut config = sqslite::Config::ephemeral();
    config.access.allow_hosts = vec![attacker.into()];
    let s = crate::common::sns::start_with(config).await;
    let topic = s.topic("linked", &[]).await;
    let hook = Endpoint::start().await;
    let answer = subscribe_with_host(&s, &topic, &hook.url, attacker).await;
    assert!(answer.contains("pending confirmation"), "{answer}");
    let confirmation = hook.wait_for(1).await.remove(0).json();
    let link = confirmation["SubscribeURL"].as_str().unwrap();
    assert!(
        link.starts_with(&format!("{}/?Action=ConfirmSubscription", s.t.endpoint())),
        "{link}"
    );
    let cert = confirmation["SigningCertURL"].as_str().unwrap();
    assert!(cert.starts_with(&s.t.endpoint()), "{cert}");
    assert!(!confirmation.to_string().contains("attacker"));
}

#[tokio::test]
async fn a_urls_user_and_password_are_basic_authentication() {
    let s = start().await;
    let topic = s.topic("basic", &[]).await;
    let hook = Endpoint::start().await;
    let address = hook.url.trim_start_matches("http://").to_owned();
    let endpoint = format!("http://user:p%40ss@{address}");
    let call = s.sns.subscribe().topic_arn(&topic).protocol("http");
    call.endpoint(&endpoint).send().await.unwrap();
    let got = hook.wait_for(1).await.remove(0);
    // base64("user:p@ss")
    assert_eq!(got.header("authorization"), Some("Basic dXNlcjpwQHNz"));
    let host = address.split('/').next().unwrap();
    assert_eq!(got.header("host"), Some(host));
}

#[test]
fn refused_endpoints_are_refused_at_subscribe() {
    if !private_network("sns::outbound::refused_endpoints_are_refused_at_subscribe") {
        return;
    }
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let s = start().await;
        let topic = s.topic("guarded", &[]).await;
        let own = format!("{}/_sqslite/reset", s.t.endpoint());
        for (endpoint, rule) in [
            ("http://169.254.169.254/latest/meta-data/", "link-local"),
            ("http://2852039166/latest/meta-data/", "link-local"),
            ("http://[fe80::1]/x", "link-local"),
            ("http://0.0.0.0:9/x", "unspecified"),
            ("http://224.0.0.1/x", "multicast"),
            (own.as_str(), "own listening address"),
        ] {
            let call = s.sns.subscribe().topic_arn(&topic).protocol("http");
            let err = call.endpoint(endpoint).send().await.unwrap_err();
            let message = crate::common::message(&err);
            assert!(
                message
                    .starts_with("Invalid parameter: Endpoint Reason: sqslite does not connect to"),
                "{endpoint}: {message}"
            );
            assert!(message.contains(rule), "{endpoint}: {message}");
        }
        let records =
            s.t.raw("GET", "/_sqslite/sns/deliveries", &[], "")
                .await
                .json();
        assert_eq!(records["http_waiting"], 0, "nothing was queued for them");
    });
}

#[tokio::test]
async fn a_deny_entry_refuses_an_endpoint_at_subscribe() {
    let hook = Endpoint::start().await;
    let address = hook.url.trim_start_matches("http://");
    let address = address.split('/').next().unwrap().to_owned();
    let mut config = sqslite::Config::ephemeral();
    config.outbound.deny = vec![address.clone()];
    let s = crate::common::sns::start_with(config).await;
    let topic = s.topic("denied", &[]).await;
    let call = s.sns.subscribe().topic_arn(&topic).protocol("http");
    let err = call.endpoint(&hook.url).send().await.unwrap_err();
    let message = crate::common::message(&err);
    assert!(
        message.contains(&format!("is denied by [outbound] deny `{address}`")),
        "{message}"
    );
    assert!(hook.received().is_empty(), "nothing was sent");
}

#[test]
fn declared_functions_and_webhooks_the_rule_refuses_stop_the_start() {
    // Refused addresses and a denied name: run where no packet can leave the machine.
    let test = "sns::outbound::declared_functions_and_webhooks_the_rule_refuses_stop_the_start";
    if !private_network(test) {
        return;
    }
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        use sqslite::config::{Function, Target};
        let mut config = sqslite::Config::ephemeral();
        config.admin.alarms.webhook = Some("http://169.254.169.254/hook".into());
        let err = crate::common::TestServer::try_start_with(config)
            .await
            .err()
            .unwrap();
        let err = err.to_string();
        assert!(
            err.starts_with("[alarms] webhook: sqslite does not connect to"),
            "{err}"
        );
        assert!(err.contains("link-local"), "{err}");

        let mut config = sqslite::Config::ephemeral();
        config.outbound.deny = vec!["hooks.internal".into()];
        let f = Function::new("f", Target::Url("http://hooks.internal:8080/".into()));
        config.triggers.functions.push(f);
        let err = crate::common::TestServer::try_start_with(config)
            .await
            .err()
            .unwrap();
        assert!(
            err.to_string().contains("function `f`: sqslite does not connect to http://hooks.internal:8080/: hooks.internal is denied by [outbound] deny `hooks.internal`"),
            "{err}"
        );
    });
}
