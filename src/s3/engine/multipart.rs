//! Multipart uploads (S3 User Guide, "Uploading and copying objects using multipart upload"):
//! parts numbered 1 to 10,000 of 5 MiB to 5 GiB (the last may be smaller), completed into one
//! object whose ETag is the MD5 of the parts' MD5s and `-<parts>`.

use std::collections::BTreeMap;

use md5::{Digest, Md5};

use super::data::Data;
use super::error::{Refusal, Result};
use super::object::{etag_of, Meta, Object};
use crate::clock::Millis;

/// The smallest part but the last.
pub const MIN_PART: u64 = 5 * 1024 * 1024;
/// The largest part, and the largest single PUT.
pub const MAX_PART: u64 = 5 * 1024 * 1024 * 1024;
/// The highest part number.
pub const MAX_PARTS: u32 = 10_000;

/// One uploaded part.
#[derive(Debug, Clone)]
pub struct Part {
    /// Its bytes.
    pub data: Data,
    /// Its ETag (its MD5, hex).
    pub etag: String,
    /// When it was uploaded.
    pub modified: Millis,
    /// Its additional checksum's value, if the upload has an algorithm.
    pub checksum: Option<String>,
}

/// An upload in progress.
#[derive(Debug, Clone)]
pub struct Upload {
    /// Its id.
    pub id: String,
    /// The key the object will have.
    pub key: String,
    /// When it started.
    pub initiated: Millis,
    /// The account that started it.
    pub owner: String,
    /// What the completed object will say of itself.
    pub meta: Meta,
    /// The additional checksum each part carries, as its start asked.
    pub algorithm: Option<&'static str>,
    /// The parts uploaded so far, by number.
    pub parts: BTreeMap<u32, Part>,
}

/// A part a completion names: its number and ETag (unquoted).
#[derive(Debug, Clone)]
pub struct Named {
    /// Its number.
    pub number: u32,
    /// The ETag its upload returned.
    pub etag: String,
}

impl Upload {
    /// The object `named` makes of this upload's parts, written `now`. The parts must be named
    /// in ascending order, each as uploaded, each but the last at least [`MIN_PART`].
    pub fn complete(&self, named: &[Named], now: Millis) -> Result<Object> {
        if named.is_empty() {
            return Err(Refusal::MalformedXml);
        }
        if named.windows(2).any(|w| w[0].number >= w[1].number) {
            return Err(Refusal::InvalidPartOrder);
        }
        let mut parts = Vec::with_capacity(named.len());
        for n in named {
            match self.parts.get(&n.number) {
                Some(part) if part.etag == n.etag => parts.push(part),
                _ => return Err(Refusal::InvalidPart),
            }
        }
        if parts[..parts.len() - 1]
            .iter()
            .any(|p| p.data.len() < MIN_PART)
        {
            return Err(Refusal::EntityTooSmall);
        }
        let mut md5s = Md5::new();
        for part in &parts {
            md5s.update(from_hex(&part.etag));
        }
        let digest: [u8; 16] = md5s.finalize().into();
        Ok(Object {
            data: Data::concat(parts.iter().map(|p| &p.data)),
            etag: format!("{}-{}", etag_of(&digest), parts.len()),
            modified: now,
            meta: self.meta.clone(),
            parts: Some(parts.iter().map(|p| p.data.len()).collect()),
        })
    }
}

/// The bytes of a hex ETag (an MD5's, as the engine writes them).
fn from_hex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::s3::engine::data::{Budget, Builder};

    fn part(bytes: &[u8]) -> Part {
        let budget = Budget::new(u64::MAX);
        let mut builder = Builder::new(&budget, None, MAX_PART).unwrap();
        builder.push(bytes).unwrap();
        let (data, md5) = builder.finish();
        Part {
            data,
            etag: etag_of(&md5),
            modified: 0,
            checksum: None,
        }
    }

    fn upload(parts: Vec<(u32, Part)>) -> Upload {
        Upload {
            id: "u".into(),
            key: "k".into(),
            initiated: 0,
            owner: "1".into(),
            meta: Meta::default(),
            algorithm: None,
            parts: parts.into_iter().collect(),
        }
    }

    fn named(number: u32, part: &Part) -> Named {
        Named {
            number,
            etag: part.etag.clone(),
        }
    }

    #[test]
    fn completion_checks_the_parts_and_names_the_etag_by_them() {
        let big = part(&vec![1; MIN_PART as usize]);
        let small = part(b"tail");
        let up = upload(vec![(1, big.clone()), (3, small.clone())]);
        let object = up.complete(&[named(1, &big), named(3, &small)], 7).unwrap();
        assert_eq!(object.size(), MIN_PART + 4);
        assert!(object.etag.ends_with("-2"), "{}", object.etag);
        assert_eq!(object.parts_count(), Some(2));
        assert_eq!(object.part(1), Some(0..MIN_PART));
        assert_eq!(object.part(2), Some(MIN_PART..MIN_PART + 4));
        assert_eq!((object.part(0), object.part(3)), (None, None));
        let refused = |list: &[Named]| up.complete(list, 7).unwrap_err();
        assert_eq!(refused(&[]), Refusal::MalformedXml);
        assert_eq!(
            refused(&[named(3, &small), named(1, &big)]),
            Refusal::InvalidPartOrder
        );
        assert_eq!(refused(&[named(2, &big)]), Refusal::InvalidPart);
        assert_eq!(refused(&[named(1, &small)]), Refusal::InvalidPart);
        let two_small = upload(vec![(1, small.clone()), (2, small.clone())]);
        let list = [named(1, &small), named(2, &small)];
        assert_eq!(
            two_small.complete(&list, 0).unwrap_err(),
            Refusal::EntityTooSmall
        );
    }
}
