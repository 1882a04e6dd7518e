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

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::OnceLock;

/// The outbound rule of one server: the defaults above, and its own address once it listens.
#[derive(Debug, Default)]
pub struct Outbound {
    /// The address the server listens on, set once it is bound.
    own: OnceLock<SocketAddr>,
}

impl Outbound {
    /// Records the listening address (the server's own, refused as a destination).
    pub fn listening_on(&self, addr: SocketAddr) {
        let _ = self.own.set(addr);
    }

    /// Why `addr` may not be connected to, naming the rule; `None` when it may.
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
        if let Some(why) = addrs.iter().find_map(|a| self.refuses(*a)) {
            return Err(format!("sqslite does not connect to {host}: {why}"));
        }
        Ok(addrs)
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
