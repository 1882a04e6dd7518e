//! Unit tests of guard.rs.

use super::*;
use crate::config::{Config, Credential};

#[test]
fn host_names_lose_their_port() {
    assert_eq!(host_name("localhost:9324"), "localhost");
    assert_eq!(host_name("[::1]:9324"), "::1");
    assert_eq!(host_name("::1"), "::1");
    assert_eq!(host_name("sqs"), "sqs");
}

#[test]
fn loopback_and_configured_hosts_are_known_others_are_not() {
    let config = Config {
        public_url: Some("http://sqs.internal:9324".into()),
        access: AccessConfig {
            allow_hosts: vec!["devbox".into()],
            ..AccessConfig::default()
        },
        ..Config::default()
    };
    for host in [
        "127.0.0.1:9324",
        "localhost",
        "[::1]:1",
        "a.localhost",
        "sqs.internal",
        "sqs.eu-west-1.SQS.internal:9324",
    ] {
        assert!(known_host(&(&config).into(), host), "{host}");
    }
    assert!(known_host(&(&config).into(), "DEVBOX:9324"));
    for host in [
        "evil.example:9324",
        "10.0.0.1",
        "localhost.evil.example",
        "evilsqs.internal",
        "evil-localhost",
        "a.devbox",
    ] {
        assert!(!known_host(&(&config).into(), host), "{host}");
    }
}

fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.insert(*k, HeaderValue::from_static(v));
    }
    h
}

#[test]
fn the_dashboard_may_call_the_admin_api_but_not_the_sqs_api() {
    let config = Config::default();
    let own = headers(&[
        ("host", "127.0.0.1:9324"),
        ("origin", "http://127.0.0.1:9324"),
    ]);
    let get = headers(&[
        ("host", "localhost:9324"),
        ("sec-fetch-site", "same-origin"),
    ]);
    for h in [&own, &get] {
        assert!(admit(&config, Route::Admin, &Method::POST, h).is_ok());
        assert!(admit(&config, Route::Sqs, &Method::POST, h).is_err());
    }
    // A rebound name is same-origin too, and still stopped by the Host check.
    let rebound = headers(&[
        ("host", "evil.example:9324"),
        ("origin", "http://evil.example:9324"),
    ]);
    assert!(admit(&config, Route::Admin, &Method::GET, &rebound).is_err());
    let other = headers(&[
        ("host", "127.0.0.1:9324"),
        ("origin", "http://127.0.0.1:3000"),
    ]);
    assert!(admit(&config, Route::Admin, &Method::GET, &other).is_err());
}

#[test]
fn with_a_token_the_page_loads_and_its_data_needs_the_token() {
    let config = Config {
        access: AccessConfig {
            admin_token: Some("s3cret".into()),
            ..AccessConfig::default()
        },
        ..Config::default()
    };
    let h = headers(&[("host", "127.0.0.1:9324")]);
    assert!(admit(&config, Route::Page, &Method::GET, &h).is_ok());
    assert!(admit(&config, Route::Admin, &Method::GET, &h).is_err());
}

#[test]
fn only_loopback_binds_count_as_loopback() {
    assert!(loopback_only("127.0.0.1") && loopback_only("::1") && loopback_only("localhost"));
    assert!(!loopback_only("0.0.0.0") && !loopback_only("::") && !loopback_only("myhost"));
}

#[test]
fn on_loopback_without_credentials_every_route_keeps_the_host_rule() {
    let rebound = headers(&[("host", "evil.example:9324")]);
    let open = Config::default();
    for route in [Route::Sqs, Route::Open, Route::Page, Route::Admin] {
        assert!(
            admit(&open, route, &Method::GET, &rebound).is_err(),
            "{route:?}"
        );
    }
    let verified = Config::default().with_credential(Credential::new("AKID", "s", "0"));
    for route in [Route::Sqs, Route::Open] {
        assert!(
            admit(&verified, route, &Method::GET, &rebound).is_ok(),
            "{route:?}"
        );
    }
    assert!(admit(&verified, Route::Admin, &Method::GET, &rebound).is_err());
    let beyond = Config {
        host: "0.0.0.0".into(),
        ..Config::default()
    };
    assert!(admit(&beyond, Route::Sqs, &Method::GET, &rebound).is_ok());
}
