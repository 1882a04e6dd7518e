//! Where sqslite may connect on a caller's behalf (SNS http subscribers and their
//! confirmations, `url` and `invoke_url` functions, alarm webhooks): one rule for every
//! outbound request. A name is resolved once, every address it gives is checked, and the
//! connection goes to a checked address (no second resolution a DNS answer could change).
//!
//! Refused everywhere ([`ranges`]): instance metadata services (169.254.0.0/16,
//! 100.100.100.200, fd00:ec2::/32), link-local (fe80::/10), unspecified, multicast and
//! broadcast addresses, however spelled (IPv4 mapped into IPv6, compatible or NAT64), and
//! sqslite's own listening address: every address of the machine on its port when it listens
//! on `0.0.0.0` or `::` (a subscriber there would be sqslite's own API).
//!
//! Who chose the destination decides the rest ([`ChosenBy`]). The operator's (a declared
//! function's URL, the alarm webhook) may be loopback, private ranges and compose host names,
//! where local handlers live. So may an API caller's (an SNS http/s endpoint) on a laptop; but
//! with `[[credentials]]` declared the instance is shared, and a caller's endpoint on the
//! machine or its private networks (loopback, private, shared, unique-local) needs an
//! `allow` entry: without one, any account could drive the unauthenticated services beside
//! sqslite with a SubscriptionConfirmation POST to a URL of its choosing.
//!
//! `[outbound]` (`allow`, `deny`; also `--outbound-allow`, `--outbound-deny`) changes that.
//! Each entry is a host name, an address or a network (`10.0.0.0/8`), each optionally with a
//! port (`hooks.internal:8443`, `[fd00::1]:80`), or `*:PORT` for a port on any host. A
//! destination matching a `deny` entry is refused; with `allow` entries, only destinations
//! matching one are allowed, and a destination an `allow` entry names is allowed even where
//! the defaults refuse it (a metadata mock on 169.254.169.254, for instance).
//!
//! A refusal names the rule and the destination as the caller wrote it, never the address a
//! name resolved to (which would map the machine's private DNS for whoever asks).

mod entry;
mod ranges;

use std::net::{IpAddr, SocketAddr};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use entry::{Entry, Host};
use ranges::canonical;

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

/// Who chose a destination, which decides what the rule lets through on a shared instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChosenBy {
    /// Written in the configuration: a declared function's URL, the alarm webhook.
    Operator,
    /// Sent in an API request: an SNS http/s subscription's endpoint.
    Caller,
}

/// Why a destination is refused: the rule, worded apart from the address it was met at.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Refusal {
    rule: String,
    /// A `deny` entry named the host name itself (not an address it resolved to).
    of_name: bool,
}

impl Refusal {
    fn rule(rule: impl Into<String>) -> Self {
        Refusal {
            rule: rule.into(),
            of_name: false,
        }
    }

    /// The refusal told of `host:port` as the caller wrote it: an address is named, a name's
    /// addresses are not.
    fn told(&self, host: &str, addr: SocketAddr) -> String {
        let rule = &self.rule;
        if host.parse::<IpAddr>().is_ok() {
            format!("{addr} is {rule}")
        } else if self.of_name {
            format!("{host} is {rule}")
        } else {
            format!("{host} resolves to an address that is {rule}")
        }
    }
}

/// The outbound rule of one server: the defaults above, the `[outbound]` entries, whether the
/// instance is shared, and its own address once it listens.
#[derive(Debug, Default)]
pub struct Outbound {
    /// The address the server listens on, set once it is bound.
    own: OnceLock<SocketAddr>,
    allow: Vec<Entry>,
    deny: Vec<Entry>,
    /// `[[credentials]]` are declared: callers' endpoints stay off the machine's networks.
    shared: bool,
    /// How https servers are verified.
    tls: super::tls::Tls,
}

impl Outbound {
    /// The rule with `config`'s entries (checked when it was read; an entry that does not
    /// read is left out); `shared` when `[[credentials]]` are declared.
    pub fn new(config: &OutboundConfig, shared: bool) -> Self {
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
            shared,
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

    /// Why `addr` (reached by the host name `name`, when it was one, chosen `by`) may not be
    /// connected to; `None` when it may.
    fn verdict(&self, name: Option<&str>, addr: SocketAddr, by: ChosenBy) -> Option<Refusal> {
        if let Some(entry) = self.deny.iter().find(|e| e.matches(name, addr)) {
            return Some(Refusal {
                rule: format!("denied by [outbound] deny `{}`", entry.text),
                of_name: matches!(entry.host, Host::Name(_)),
            });
        }
        if self.allow.iter().any(|e| e.matches(name, addr)) {
            return None;
        }
        if !self.allow.is_empty() {
            return Some(Refusal::rule("not in [outbound] allow"));
        }
        let ip = canonical(addr.ip());
        if let Some(rule) = ranges::refused_everywhere(ip) {
            return Some(Refusal::rule(rule));
        }
        if self.is_own(SocketAddr::new(ip, addr.port())) {
            return Some(Refusal::rule("sqslite's own listening address"));
        }
        let inside = (self.shared && by == ChosenBy::Caller)
            .then(|| ranges::inside(ip))
            .flatten()?;
        Some(Refusal::rule(format!(
            "{inside}, refused to an API caller's endpoint with [[credentials]] declared \
             (a shared instance) unless [outbound] allow names it"
        )))
    }

    /// Whether `addr` is sqslite itself: its listening address, or any of the machine's
    /// addresses on its port when it listens on all of them.
    fn is_own(&self, addr: SocketAddr) -> bool {
        let Some(own) = self.own.get() else {
            return false;
        };
        let own_ip = canonical(own.ip());
        own.port() == addr.port()
            && (own_ip == addr.ip() || (own_ip.is_unspecified() && ranges::is_local(addr.ip())))
    }

    /// The addresses `host:port` resolves to, every one checked for a destination chosen
    /// `by`: the first refused one is the error, naming its rule; a name that does not
    /// resolve is the error too.
    pub async fn resolve(
        &self,
        host: &str,
        port: u16,
        by: ChosenBy,
    ) -> Result<Vec<SocketAddr>, String> {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
            .await
            .map_err(|e| format!("cannot resolve {host}: {e}"))?
            .collect();
        if addrs.is_empty() {
            return Err(format!("{host} resolves to no address"));
        }
        let name = host.parse::<IpAddr>().is_err().then_some(host);
        let refused = addrs
            .iter()
            .find_map(|a| Some((self.verdict(name, *a, by)?, *a)));
        if let Some((why, addr)) = refused {
            let told = why.told(host, addr);
            return Err(format!("sqslite does not connect to {host}: {told}"));
        }
        Ok(addrs)
    }

    /// What can be told of an operator's endpoint before it is called, without resolving it
    /// (a declared function's URL or an alarm webhook, when the server starts: a compose name
    /// may not resolve yet): a `deny` entry naming its host, or an address the rule refuses.
    pub fn refuses_endpoint(&self, host: &str, port: u16) -> Option<String> {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = host.parse::<IpAddr>() {
            let addr = SocketAddr::new(ip, port);
            return (self.verdict(None, addr, ChosenBy::Operator)).map(|r| r.told(host, addr));
        }
        let any = SocketAddr::from(([0, 0, 0, 0], port));
        let denied = self.deny.iter().find(|e| {
            matches!(&e.host, Host::Name(n) if n.eq_ignore_ascii_case(host))
                && e.matches(Some(host), any)
        });
        denied.map(|e| format!("{host} is denied by [outbound] deny `{}`", e.text))
    }
}

#[cfg(test)]
mod tests;
