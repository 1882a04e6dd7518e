//! One `allow` or `deny` entry of `[outbound]`: a host name, an address or a network, with an
//! optional port.

use std::net::{IpAddr, SocketAddr};

use ipnet::IpNet;

use super::ranges::canonical;

/// One parsed `allow` or `deny` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    /// What it was written as, for the refusal's message.
    pub(super) text: String,
    pub(super) host: Host,
    /// `None`: every port.
    port: Option<u16>,
}

/// The host part of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Host {
    /// `*`: any host.
    Any,
    /// A host name, compared without case.
    Name(String),
    /// An address (a /32 or /128) or a network.
    Net(IpNet),
}

impl Entry {
    pub(super) fn parse(text: &str) -> Result<Entry, String> {
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
    pub(super) fn matches(&self, name: Option<&str>, addr: SocketAddr) -> bool {
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
