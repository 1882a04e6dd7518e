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
    /// `10.0.0.0/24`, `2001:db8::/32`: exactly one `/`, in the words of the matcher SNS's
    /// come from (aws/event-ruler `CIDR`; the texts are those the issue records from AWS).
    pub(crate) fn parse(text: &str) -> Result<IpNet, PatternError> {
        let mut parts = text.split('/');
        let (Some(addr), Some(len), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(PatternError::syntax("Malformed CIDR, one '/' required"));
        };
        let len = len
            .parse::<u32>()
            .map_err(|_| PatternError::syntax("Malformed CIDR, mask bits must be an integer"))?;
        let ip = addr
            .parse::<IpAddr>()
            .map_err(|_| PatternError::syntax(format!("Nonstandard IP address: {addr}")))?;
        let (v6, bits) = to_bits(ip);
        let width = if v6 { 128 } else { 32 };
        if len > width {
            // [unverified wording]
            return Err(PatternError::syntax(format!(
                "Malformed CIDR, mask bits must be between 0 and {width}"
            )));
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
