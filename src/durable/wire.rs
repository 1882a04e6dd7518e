//! The byte primitives of the record codecs ([`super::codec`], [`super::sns_codec`],
//! [`super::mapping_codec`]):
//! little-endian integers, optional values and length-prefixed strings.

use std::collections::BTreeMap;

/// Writes fixed-width little-endian integers and length-prefixed strings.
pub(super) struct W<'a>(pub(super) &'a mut Vec<u8>);

impl W<'_> {
    pub(super) fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    pub(super) fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(super) fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(super) fn opt_u64(&mut self, v: Option<u64>) {
        match v {
            Some(v) => {
                self.u8(1);
                self.u64(v);
            }
            None => self.u8(0),
        }
    }
    pub(super) fn bytes_raw(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
    pub(super) fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
    }
    pub(super) fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    /// A string map: its length, then each key and value.
    pub(super) fn map(&mut self, m: &BTreeMap<String, String>) {
        self.u32(m.len() as u32);
        for (k, v) in m {
            self.str(k);
            self.str(v);
        }
    }
    pub(super) fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
            None => self.u8(0),
        }
    }
}

/// Reads what [`W`] wrote; every read fails cleanly on a record that ends early.
pub(super) struct R<'a>(pub(super) &'a [u8]);

const SHORT: &str = "record ends early";

impl<'a> R<'a> {
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err(SHORT.into());
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    pub(super) fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        self.take(N)?.try_into().map_err(|_| SHORT.to_owned())
    }
    pub(super) fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    pub(super) fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    pub(super) fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    pub(super) fn opt_u64(&mut self) -> Result<Option<u64>, String> {
        Ok(if self.u8()? == 1 {
            Some(self.u64()?)
        } else {
            None
        })
    }
    pub(super) fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    pub(super) fn string(&mut self) -> Result<String, String> {
        String::from_utf8(self.bytes()?.to_vec()).map_err(|_| "a string is not UTF-8".to_owned())
    }
    pub(super) fn map(&mut self) -> Result<BTreeMap<String, String>, String> {
        (0..self.u32()?)
            .map(|_| Ok((self.string()?, self.string()?)))
            .collect()
    }
    pub(super) fn opt_string(&mut self) -> Result<Option<String>, String> {
        Ok(if self.u8()? == 1 {
            Some(self.string()?)
        } else {
            None
        })
    }
}
