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
#[path = "outbound_tests.rs"]
mod tests;
