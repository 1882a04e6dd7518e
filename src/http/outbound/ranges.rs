//! The kinds of address the outbound rule judges by what they are, not by what `[outbound]`
//! lists: those refused everywhere (metadata services, link-local, unspecified, multicast,
//! broadcast), those refused to a caller's endpoint on a shared instance (loopback, private,
//! unique-local), and the machine's own addresses.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The address as judged: IPv4 carried in IPv6 (mapped `::ffff:a.b.c.d`, the deprecated
/// compatible `::a.b.c.d`, NAT64's `64:ff9b::a.b.c.d`) is judged by its IPv4 part, so no
/// spelling of 169.254.169.254 passes where the plain one is refused.
pub(super) fn canonical(ip: IpAddr) -> IpAddr {
    let IpAddr::V6(v6) = ip else {
        return ip;
    };
    if let Some(v4) = v6.to_ipv4_mapped() {
        return IpAddr::V4(v4);
    }
    let s = v6.segments();
    let compatible = s[..6] == [0; 6] && !(v6.is_unspecified() || v6.is_loopback());
    let nat64 = s[..6] == [0x64, 0xff9b, 0, 0, 0, 0];
    if compatible || nat64 {
        let o = v6.octets();
        return IpAddr::V4(Ipv4Addr::new(o[12], o[13], o[14], o[15]));
    }
    ip
}

/// The refusals that hold for every destination: the kind of address, if it is refused.
pub(super) fn refused_everywhere(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_rule(v4),
        IpAddr::V6(v6) => v6_rule(v6),
    }
}

/// Alibaba Cloud's instance metadata, outside the link-local range.
const ALIBABA_METADATA: Ipv4Addr = Ipv4Addr::new(100, 100, 100, 200);

fn v4_rule(ip: Ipv4Addr) -> Option<&'static str> {
    if ip.is_link_local() {
        Some("link-local (169.254.0.0/16, where clouds serve instance metadata)")
    } else if ip == ALIBABA_METADATA {
        Some("a cloud's instance metadata service (100.100.100.200)")
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
    // AWS serves instance metadata on fd00:ec2::254 (Nitro instances, IPv6).
    if ip.segments()[..2] == [0xfd00, 0x0ec2] {
        Some("a cloud's instance metadata service (fd00:ec2::/32)")
    } else if ip.is_unicast_link_local() {
        Some("link-local (fe80::/10)")
    } else if ip.is_unspecified() {
        Some("unspecified")
    } else if ip.is_multicast() {
        Some("multicast")
    } else {
        None
    }
}

/// On a shared instance, what a caller may not name as its endpoint without an `allow`
/// entry: the machine itself and the networks behind it, where other teams' services listen
/// with no authentication of their own.
pub(super) fn inside(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) if v4.is_loopback() => Some("loopback (127.0.0.0/8)"),
        IpAddr::V4(v4) if v4.is_private() => {
            Some("private (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)")
        }
        // Carrier-grade NAT space, private in practice (RFC 6598).
        IpAddr::V4(v4) if v4.octets()[0] == 100 && v4.octets()[1] & 0xc0 == 64 => {
            Some("shared address space (100.64.0.0/10)")
        }
        IpAddr::V6(v6) if v6.is_loopback() => Some("loopback (::1)"),
        IpAddr::V6(v6) if v6.is_unique_local() => Some("unique-local (fc00::/7)"),
        // Deprecated site-local, still routed inside some networks.
        IpAddr::V6(v6) if v6.segments()[0] & 0xffc0 == 0xfec0 => Some("site-local (fec0::/10)"),
        _ => None,
    }
}

/// Whether `ip` is one of this machine's addresses: binding a socket to it succeeds only
/// then, which needs no list of interfaces (and sees addresses added after the start).
pub(super) fn is_local(ip: IpAddr) -> bool {
    ip.is_loopback() || std::net::UdpSocket::bind((ip, 0)).is_ok()
}
