//! Unit tests of the outbound rule.

use super::*;

fn addr(text: &str) -> SocketAddr {
    text.parse().unwrap()
}

impl Outbound {
    /// The rule text for an operator's destination, as the tests read it.
    fn refuses_named(&self, name: Option<&str>, addr: SocketAddr) -> Option<String> {
        self.verdict(name, addr, ChosenBy::Operator).map(|r| r.rule)
    }

    fn refuses(&self, addr: SocketAddr) -> Option<String> {
        self.refuses_named(None, addr)
    }
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
    assert!(out.refuses(addr("[::ffff:127.0.0.1]:9324")).is_some());
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
    Outbound::new(&config, false)
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
    assert!(out.resolve("127.0.0.1", 80, ChosenBy::Caller).await.is_ok());
    let err = out
        .resolve("169.254.169.254", 80, ChosenBy::Operator)
        .await
        .unwrap_err();
    assert!(err.contains("link-local"), "{err}");
    // A decimal IPv4 address is an address too, resolved like a name.
    let err = out
        .resolve("2852039166", 80, ChosenBy::Operator)
        .await
        .unwrap_err();
    assert!(err.contains("link-local"), "{err}");
}

#[test]
fn metadata_services_are_refused_however_spelled() {
    let out = Outbound::default();
    for refused in [
        "100.100.100.200:80",
        "[fd00:ec2::254]:80",
        "[::169.254.169.254]:80",
        "[64:ff9b::169.254.169.254]:80",
        "[64:ff9b::a9fe:a9fe]:80",
        "[::100.100.100.200]:80",
    ] {
        assert!(out.refuses(addr(refused)).is_some(), "{refused}");
    }
    assert!(out
        .refuses(addr("[fd00:ec2::254]:80"))
        .unwrap()
        .contains("metadata"));
    // Their neighbours are not metadata.
    for allowed in ["100.100.100.201:80", "[fd00:ec3::1]:80", "[::1]:80"] {
        assert_eq!(out.refuses(addr(allowed)), None, "{allowed}");
    }
}

#[test]
fn a_shared_instance_keeps_callers_off_the_machines_networks() {
    let shared = Outbound::new(&OutboundConfig::default(), true);
    for inside in [
        "127.0.0.1:9619",
        "127.1.2.3:80",
        "10.1.2.3:80",
        "172.16.0.1:80",
        "192.168.1.1:80",
        "100.64.0.1:80",
        "[::1]:80",
        "[fd12::1]:80",
        "[fec0::1]:80",
        "[::ffff:127.0.0.1]:80",
        "[::127.0.0.1]:80",
        "[64:ff9b::10.0.0.1]:80",
    ] {
        let why = shared.verdict(None, addr(inside), ChosenBy::Caller);
        assert!(why.unwrap().rule.contains("[outbound] allow"), "{inside}");
        // The operator's own destinations keep the developer default.
        assert_eq!(shared.verdict(None, addr(inside), ChosenBy::Operator), None);
    }
    assert_eq!(
        shared.verdict(None, addr("93.184.216.34:80"), ChosenBy::Caller),
        None
    );
    // Without credentials a developer's localhost webhook needs nothing configured.
    let laptop = Outbound::default();
    assert_eq!(
        laptop.verdict(None, addr("127.0.0.1:3000"), ChosenBy::Caller),
        None
    );
    // An allow entry opens one destination and closes the rest.
    let config = OutboundConfig {
        allow: vec!["127.0.0.1:3000".into()],
        ..OutboundConfig::default()
    };
    let opened = Outbound::new(&config, true);
    assert_eq!(
        opened.verdict(None, addr("127.0.0.1:3000"), ChosenBy::Caller),
        None
    );
    assert!(opened
        .verdict(None, addr("127.0.0.1:9619"), ChosenBy::Caller)
        .is_some());
}

#[test]
fn listening_on_every_address_refuses_each_of_the_machines_own() {
    let out = Outbound::default();
    out.listening_on(addr("[::]:9324"));
    assert!(out.refuses(addr("127.0.0.1:9324")).is_some());
    assert!(out.refuses(addr("[::1]:9324")).is_some());
    assert_eq!(out.refuses(addr("127.0.0.1:9325")), None);
    // An address of no interface here (TEST-NET-3) is somebody else's.
    assert_eq!(out.refuses(addr("203.0.113.9:9324")), None);
}

#[tokio::test]
async fn a_refusal_of_a_name_does_not_tell_its_address() {
    let shared = Outbound::new(&OutboundConfig::default(), true);
    let err = shared
        .resolve("localhost", 9619, ChosenBy::Caller)
        .await
        .unwrap_err();
    assert!(err.starts_with("sqslite does not connect to localhost: localhost resolves to an address that is loopback"), "{err}");
    assert!(!err.contains("127.0.0.1") && !err.contains("::1"), "{err}");
    // An address the caller wrote is named back.
    let err = shared
        .resolve("127.0.0.1", 9619, ChosenBy::Caller)
        .await
        .unwrap_err();
    assert!(err.contains("127.0.0.1:9619 is loopback"), "{err}");
}
