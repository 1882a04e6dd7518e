//! The outbound rule: its default refusals, the server's own address, entries read and how deny
//! and allow combine.

use super::*;

fn addr(text: &str) -> SocketAddr {
    text.parse().unwrap()
}

#[test]
fn the_default_refusals_and_the_servers_own_address() {
    let out = Outbound::default();
    for refused in [
        "169.254.169.254:80",
        "[fe80::1]:80",
        "0.0.0.0:80",
        "[::]:80",
        "224.0.0.1:80",
        "255.255.255.255:80",
        "[::ffff:169.254.169.254]:80",
        "[ff02::1]:80",
    ] {
        assert!(out.refuses(addr(refused)).is_some(), "{refused}");
    }
    for allowed in [
        "127.0.0.1:9324",
        "10.0.0.5:80",
        "192.168.1.2:8080",
        "[::1]:80",
    ] {
        assert_eq!(out.refuses(addr(allowed)), None, "{allowed}");
    }
    out.listening_on(addr("0.0.0.0:9324"));
    assert!(out.refuses(addr("127.0.0.1:9324")).unwrap().contains("own"));
    assert_eq!(out.refuses(addr("127.0.0.1:9325")), None);
}

fn rule(allow: &[&str], deny: &[&str]) -> Outbound {
    let strings = |l: &[&str]| l.iter().map(|s| (*s).to_owned()).collect();
    let config = OutboundConfig {
        allow: strings(allow),
        deny: strings(deny),
        ..OutboundConfig::default()
    };
    config.check().unwrap();
    Outbound::new(&config)
}

#[test]
fn entries_read_hosts_addresses_networks_and_ports() {
    for good in [
        "hooks",
        "hooks.internal:8443",
        "10.0.0.0/8",
        "[fd00::1]:80",
        "fd00::/8",
        "*:25",
        "10.1.2.3",
    ] {
        assert!(Entry::parse(good).is_ok(), "{good}");
    }
    for bad in [
        "",
        "*",
        "hooks:port",
        "10.0.0.0/40",
        "[fd00::1",
        "a b",
        "http://x",
    ] {
        let config = OutboundConfig {
            deny: vec![bad.into()],
            ..OutboundConfig::default()
        };
        let err = config.check().unwrap_err();
        assert!(err.starts_with("[outbound] deny: `"), "{bad}: {err}");
    }
}

#[test]
fn deny_refuses_and_allow_narrows_and_widens() {
    let deny = rule(&[], &["10.0.0.0/8", "*:25", "hooks.internal"]);
    assert!(deny
        .refuses_named(None, addr("10.2.3.4:80"))
        .unwrap()
        .contains("deny `10.0.0.0/8`"));
    assert!(deny.refuses_named(None, addr("127.0.0.1:25")).is_some());
    assert!(deny
        .refuses_named(Some("HOOKS.internal"), addr("127.0.0.1:80"))
        .is_some());
    assert_eq!(
        deny.refuses_named(Some("other"), addr("127.0.0.1:80")),
        None
    );
    let allow = rule(&["127.0.0.1:8080", "169.254.169.254", "mock.local"], &[]);
    assert_eq!(allow.refuses_named(None, addr("127.0.0.1:8080")), None);
    assert!(allow
        .refuses_named(None, addr("127.0.0.1:8081"))
        .unwrap()
        .contains("not in [outbound] allow"));
    // Named by an allow entry, an address the defaults refuse is allowed.
    assert_eq!(allow.refuses_named(None, addr("169.254.169.254:80")), None);
    assert_eq!(
        allow.refuses_named(Some("mock.local"), addr("10.9.9.9:80")),
        None
    );
    // Before resolving, only what the entries say of the name or the literal address.
    assert!(deny.refuses_endpoint("hooks.internal", 80).is_some());
    assert!(deny.refuses_endpoint("10.0.0.1", 80).is_some());
    assert_eq!(deny.refuses_endpoint("compose-service", 80), None);
    assert!(rule(&[], &[])
        .refuses_endpoint("169.254.169.254", 80)
        .is_some());
}

#[tokio::test]
async fn a_name_is_judged_by_every_address_it_resolves_to() {
    let out = Outbound::default();
    assert!(out.resolve("127.0.0.1", 80).await.is_ok());
    let err = out.resolve("169.254.169.254", 80).await.unwrap_err();
    assert!(err.contains("link-local"), "{err}");
    // A decimal IPv4 address is an address too, resolved like a name.
    let err = out.resolve("2852039166", 80).await.unwrap_err();
    assert!(err.contains("link-local"), "{err}");
}
