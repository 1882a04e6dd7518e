//! IP networks for the `cidr` operator: IPv4 and IPv6, `address/prefix-length`.

use std::net::IpAddr;

use super::errors::PatternError;

/// A network as (family, address bits, prefix length); IPv4 uses the low 32 bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IpNet {
    v6: bool,
    bits: u128,
    len: u32,
}

fn to_bits(ip: IpAddr) -> (bool, u128) {
    match ip {
        IpAddr::V4(a) => (false, u128::from(u32::from(a))),
        IpAddr::V6(a) => (true, u128::from(a)),
    }
}

impl IpNet {
    /// `10.0.0.0/24`, `2001:db8::/32`; a bare address is its own /32 or /128.
    /// SNS's text for a malformed network was not found \[unverified\].
    pub(crate) fn parse(text: &str) -> Result<IpNet, PatternError> {
        let invalid = || PatternError::syntax(format!("Malformed CIDR: {text}"));
        let (addr, len) = match text.split_once('/') {
            Some((a, l)) => (a, Some(l.parse::<u32>().map_err(|_| invalid())?)),
            None => (text, None),
        };
        let (v6, bits) = to_bits(addr.parse::<IpAddr>().map_err(|_| invalid())?);
        let width = if v6 { 128 } else { 32 };
        let len = len.unwrap_or(width);
        if len > width {
            return Err(invalid());
        }
        Ok(IpNet {
            v6,
            bits: bits & mask(width, len),
            len,
        })
    }

    /// Whether `text` is an address of the same family inside this network.
    pub(crate) fn contains_text(&self, text: &str) -> bool {
        let Ok(ip) = text.parse::<IpAddr>() else {
            return false;
        };
        let (v6, bits) = to_bits(ip);
        let width = if v6 { 128 } else { 32 };
        v6 == self.v6 && bits & mask(width, self.len) == self.bits
    }
}

/// The top `len` bits of a `width`-bit address.
fn mask(width: u32, len: u32) -> u128 {
    if len == 0 {
        return 0;
    }
    let all = if width == 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    all & !((1u128 << (width - len)) - 1)
}
