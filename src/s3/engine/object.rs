//! One object: its bytes, its ETag, when it was written and what its request said of it
//! (headers it returns on GET, user metadata, checksum, tags).

use std::ops::Range;

use super::data::Data;
use crate::clock::Millis;

/// What a PUT, a copy or a multipart upload's start says of an object besides its bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta {
    /// `Content-Type`, returned as given; S3 says `binary/octet-stream` for none.
    pub content_type: Option<String>,
    /// `Content-Encoding`, returned as given (`aws-chunked` taken out).
    pub content_encoding: Option<String>,
    /// `Content-Disposition`.
    pub content_disposition: Option<String>,
    /// `Content-Language`.
    pub content_language: Option<String>,
    /// `Cache-Control`.
    pub cache_control: Option<String>,
    /// `Expires`, as an instant.
    pub expires: Option<Millis>,
    /// `x-amz-meta-*`, names lower-case as S3 keeps them, in the order given.
    pub metadata: Vec<(String, String)>,
    /// The additional checksum the upload carried or asked for.
    pub checksum: Option<Checksum>,
    /// The object's tags.
    pub tags: Vec<(String, String)>,
}

/// An additional checksum (S3's flexible checksums): its algorithm and base64 value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checksum {
    /// `CRC32`, `CRC32C`, `CRC64NVME`, `SHA1` or `SHA256`.
    pub algorithm: &'static str,
    /// The base64 value, of the whole object (`FULL_OBJECT`) or of its parts' checksums
    /// (`COMPOSITE`, ending `-<parts>`).
    pub value: String,
}

/// An object as stored.
#[derive(Debug, Clone)]
pub struct Object {
    /// Its bytes.
    pub data: Data,
    /// The ETag, unquoted: the hex MD5, or for a multipart object the MD5 of its parts' MD5s
    /// and `-<parts>`.
    pub etag: String,
    /// When it was written (Last-Modified).
    pub modified: Millis,
    /// What its request said of it.
    pub meta: Meta,
    /// The sizes of the parts a multipart upload made it of, in order.
    pub parts: Option<Vec<u64>>,
}

impl Object {
    /// Its size in bytes.
    pub fn size(&self) -> u64 {
        self.data.len()
    }

    /// How many parts a multipart upload made it of (`x-amz-mp-parts-count`).
    pub fn parts_count(&self) -> Option<usize> {
        self.parts.as_ref().map(Vec::len)
    }

    /// The bytes of part `number` (from 1), what a GET or HEAD with `partNumber` reads: a
    /// multipart object's part as uploaded, or a one-part object whole as its part 1. `None`
    /// past the last part.
    pub fn part(&self, number: u32) -> Option<Range<u64>> {
        let Some(sizes) = &self.parts else {
            return (number == 1).then(|| 0..self.size());
        };
        let index = usize::try_from(number).ok()?.checked_sub(1)?;
        let size = *sizes.get(index)?;
        let start = sizes[..index].iter().sum::<u64>();
        Some(start..start + size)
    }
}

/// The hex ETag of an MD5.
pub fn etag_of(md5: &[u8]) -> String {
    use std::fmt::Write;
    md5.iter().fold(String::with_capacity(32), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
