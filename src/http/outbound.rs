//! Where sqslite may connect on a caller's behalf (SNS http subscribers and their
//! confirmations, `url` and `invoke_url` functions, alarm webhooks): one rule for every
//! outbound request. A name is resolved once, every address it gives is checked, and the
//! connection goes to a checked address (no second resolution a DNS answer could change).
//!
//! Refused by default: link-local addresses (IPv4 169.254.0.0/16, where clouds serve instance
//! metadata; IPv6 fe80::/10), unspecified (0.0.0.0, ::), multicast and broadcast addresses,
//! and sqslite's own listening address (a subscriber there would be sqslite's own API).
//! Loopback, private ranges and compose host names are allowed: local subscribers and
//! handlers live there.
//!
//! `[outbound]` (`allow`, `deny`; also `--outbound-allow`, `--outbound-deny`) changes that.
//! Each entry is a host name, an address or a network (`10.0.0.0/8`), each optionally with a
//! port (`hooks.internal:8443`, `[fd00::1]:80`), or `*:PORT` for a port on any host. A
//! destination matching a `deny` entry is refused; with `allow` entries, only destinations
//! matching one are allowed, and a destination an `allow` entry names is allowed even where
//! the defaults refuse it (a metadata mock on 169.254.169.254, for instance).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::OnceLock;

use ipnet::IpNet;
use serde::{Deserialize, Serialize};

/// `[outbound]` as written: the entries, checked when the configuration is read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutboundConfig {
    /// Destinations allowed (only these, when any is given; past the default refusals too).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    /// Destinations refused besides the default refusals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deny: Vec<String>,
    /// A PEM file of CA certificates https servers are verified against, besides the
    /// system's roots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<std::path::PathBuf>,
    /// Accept any https certificate (an explicit opt-in, logged at start).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub insecure: bool,
}

impl OutboundConfig {
    /// Whether every entry reads; the error names the first that does not.
    pub fn check(&self) -> Result<(), String> {
        for (list, entries) in [("allow", &self.allow), ("deny", &self.deny)] {
            for entry in entries {
                Entry::parse(entry).map_err(|e| format!("[outbound] {list}: {e}"))?;
            }
        }
        if let Some(path) = &self.ca_file {
            super::tls::read_ca_file(path).map_err(|e| format!("[outbound] {e}"))?;
        }
        Ok(())
    }
}

/// One parsed `allow` or `deny` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    /// What it was written as, for the refusal's message.
    text: String,
    host: Host,
    /// `None`: every port.
    port: Option<u16>,
}

/// The host part of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Host {
    /// `*`: any host.
    Any,
    /// A host name, compared without case.
    Name(String),
    /// An address (a /32 or /128) or a network.
    Net(IpNet),
}

impl Entry {
    fn parse(text: &str) -> Result<Entry, String> {
        let bad = || format!("`{text}` is not a host, address or network with an optional :port");
        let (host, port) = split_port(text.trim()).ok_or_else(bad)?;
        let host = match host {
            "*" => Host::Any,
            h if h.contains('/') => Host::Net(h.parse::<IpNet>().map_err(|_| bad())?.trunc()),
            h => match h.parse::<IpAddr>() {
                Ok(ip) => Host::Net(IpNet::from(ip)),
                Err(_) if valid_name(h) => Host::Name(h.to_ascii_lowercase()),
                Err(_) => return Err(bad()),
            },
        };
        if host == Host::Any && port.is_none() {
            return Err(format!("`{text}`: `*` needs a port (`*:25`)"));
        }
        Ok(Entry {
            text: text.trim().to_owned(),
            host,
            port,
        })
    }

    /// Whether the entry names this host name (when it is given) or address, on this port.
    fn matches(&self, name: Option<&str>, addr: SocketAddr) -> bool {
        self.port.is_none_or(|p| p == addr.port())
            && match &self.host {
                Host::Any => true,
                Host::Name(n) => name.is_some_and(|h| h.eq_ignore_ascii_case(n)),
                Host::Net(net) => net.contains(&canonical(addr.ip())),
            }
    }
}

/// `host`, `host:port`, `[v6]:port`, a bare IPv6 address or a network; `None` if the port
/// does not read.
fn split_port(text: &str) -> Option<(&str, Option<u16>)> {
    if let Some(rest) = text.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        return match after.strip_prefix(':') {
            Some(port) => Some((host, Some(port.parse().ok()?))),
            None if after.is_empty() => Some((host, None)),
            None => None,
        };
    }
    match text.rsplit_once(':') {
        // More than one colon and no brackets: an IPv6 address or network, no port.
        Some((host, _)) if host.contains(':') => Some((text, None)),
        Some((host, port)) => Some((host, Some(port.parse().ok()?))),
        None => Some((text, None)),
    }
}

/// A DNS name: letters, digits, `-`, `_` and dots.
fn valid_name(host: &str) -> bool {
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// The outbound rule of one server: the defaults above, the `[outbound]` entries, and its
/// own address once it listens.
#[derive(Debug, Default)]
pub struct Outbound {
    /// The address the server listens on, set once it is bound.
    own: OnceLock<SocketAddr>,
    allow: Vec<Entry>,
    deny: Vec<Entry>,
    /// How https servers are verified.
    tls: super::tls::Tls,
}

impl Outbound {
    /// The rule with `config`'s entries (checked when it was read; an entry that does not
    /// read is left out).
    pub fn new(config: &OutboundConfig) -> Self {
        let parse = |list: &[String]| list.iter().filter_map(|e| Entry::parse(e).ok()).collect();
        let extra = (config.ca_file.as_deref())
            .and_then(|path| super::tls::read_ca_file(path).ok())
            .unwrap_or_default();
        if config.insecure {
            tracing::warn!("[outbound] insecure: https certificates are not verified");
        }
        Outbound {
            own: OnceLock::new(),
            allow: parse(&config.allow),
            deny: parse(&config.deny),
            tls: super::tls::Tls::new(extra, config.insecure),
        }
    }

    /// How https servers are verified.
    pub fn tls(&self) -> &super::tls::Tls {
        &self.tls
    }

    /// Records the listening address (the server's own, refused as a destination).
    pub fn listening_on(&self, addr: SocketAddr) {
        let _ = self.own.set(addr);
    }

    /// Why `addr` (reached by the host name `name`, when it was one) may not be connected to,
    /// naming the rule; `None` when it may.
    pub fn refuses_named(&self, name: Option<&str>, addr: SocketAddr) -> Option<String> {
        if let Some(entry) = self.deny.iter().find(|e| e.matches(name, addr)) {
            return Some(format!(
                "{addr} is denied by [outbound] deny `{}`",
                entry.text
            ));
        }
        if self.allow.iter().any(|e| e.matches(name, addr)) {
            return None;
        }
        if !self.allow.is_empty() {
            return Some(format!("{addr} is not in [outbound] allow"));
        }
        self.refuses(addr)
    }

    /// Why `addr` may not be connected to by the default refusals and the server's own
    /// address; `None` when it may.
    pub fn refuses(&self, addr: SocketAddr) -> Option<String> {
        let ip = canonical(addr.ip());
        if let Some(rule) = refused_range(ip) {
            return Some(format!("{ip} is {rule}"));
        }
        let own = self.own.get()?;
        let own_ip = canonical(own.ip());
        let same_host = own_ip == ip || (own_ip.is_unspecified() && ip.is_loopback());
        (same_host && own.port() == addr.port())
            .then(|| format!("{addr} is sqslite's own listening address"))
    }

    /// The addresses `host:port` resolves to, every one checked: the first refused one is the
    /// error, naming its rule; a name that does not resolve is the error too.
    pub async fn resolve(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, String> {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
            .await
            .map_err(|e| format!("cannot resolve {host}: {e}"))?
            .collect();
        if addrs.is_empty() {
            return Err(format!("{host} resolves to no address"));
        }
        let name = host.parse::<IpAddr>().is_err().then_some(host);
        if let Some(why) = addrs.iter().find_map(|a| self.refuses_named(name, *a)) {
            return Err(format!("sqslite does not connect to {host}: {why}"));
        }
        Ok(addrs)
    }

    /// What can be told of an endpoint before it is called, without resolving it (a declared
    /// function's URL or an alarm webhook, when the server starts: a compose name may not
    /// resolve yet): a `deny` entry naming its host, or an address the rule refuses.
    pub fn refuses_endpoint(&self, host: &str, port: u16) -> Option<String> {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = host.parse::<IpAddr>() {
            return self.refuses_named(None, SocketAddr::new(ip, port));
        }
        let any = SocketAddr::from(([0, 0, 0, 0], port));
        let denied = self.deny.iter().find(|e| {
            matches!(&e.host, Host::Name(n) if n.eq_ignore_ascii_case(host))
                && e.matches(Some(host), any)
        });
        denied.map(|e| format!("{host} is denied by [outbound] deny `{}`", e.text))
    }
}

/// An IPv4 address carried in IPv6 (`::ffff:169.254.169.254`) is judged as IPv4.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 @ IpAddr::V4(_) => v4,
    }
}

/// The default refusals: the kind of address, if it is refused.
fn refused_range(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_rule(v4),
        IpAddr::V6(v6) => v6_rule(v6),
    }
}

fn v4_rule(ip: Ipv4Addr) -> Option<&'static str> {
    if ip.is_link_local() {
        Some("link-local (169.254.0.0/16, where clouds serve instance metadata)")
    } else if ip.is_unspecified() {
        Some("unspecified")
    } else if ip.is_multicast() {
        Some("multicast")
    } else if ip.is_broadcast() {
        Some("broadcast")
    } else {
        None
    }
}

fn v6_rule(ip: Ipv6Addr) -> Option<&'static str> {
    if ip.is_unicast_link_local() {
        Some("link-local (fe80::/10)")
    } else if ip.is_unspecified() {
        Some("unspecified")
    } else if ip.is_multicast() {
        Some("multicast")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
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
}
