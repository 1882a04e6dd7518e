//! Record framing on disk: a file header naming the format version, then records. Version 2
//! (written now) frames each record as
//! `[length u32 LE][crc32 of the length][crc32 of length and payload][payload]`; version 1
//! (still read) as `[length][crc32 of the payload][payload]`.
//!
//! Why the length has a checksum of its own: a frame whose header verifies but runs past the
//! end of the file is a write a crash cut short (a torn tail, cut at recovery), while a
//! damaged length is damage, which stops the start. Version 1 cannot tell the two apart.
//!
//! Why resynchronising after damage is safe: reading resumes at the first offset where a
//! whole frame verifies, its length against its own checksum and its payload against a
//! second one over length and payload. Bytes that are not a frame pass both 32-bit checks by
//! chance once in about 2^64 tries, and every other offset of a damaged stretch is one try;
//! a frame whose length verifies but whose contents do not is skipped whole, without looking
//! inside it. What this cannot rule out is a payload crafted to hold a whole valid frame (a
//! binary message attribute carrying bytes of this format) at the one place a repair scans:
//! inside the record whose own header was damaged. The repair keeps the damaged file, logs
//! every stretch it skipped, and never runs unless asked.

use std::fmt;

/// Every file of the data directory starts with these 8 bytes, then a format version.
pub const MAGIC: &[u8; 8] = b"SQSLITE\0";
/// The on-disk format this build writes. Bump it whenever a record's encoding or framing
/// changes meaning; a file of a version this build does not read is refused, never reset.
pub const FORMAT_VERSION: u32 = 2;
/// The oldest version still read: version 1 files are replayed, and new records go to a new
/// file in the current version.
pub const OLDEST_READ: u32 = 1;
/// Magic, version, file kind (one byte, padded to 4), generation.
pub const HEADER_LEN: usize = 8 + 4 + 4 + 8;
/// A length above this is corruption, not a record: no mutation batch is anywhere near it.
pub const MAX_RECORD: usize = 256 << 20;

/// Which of the two kinds of file a header opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Log = 1,
    Snapshot = 2,
}

/// A file header that cannot be read as ours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderError {
    /// Shorter than a header, or not starting with [`MAGIC`].
    NotOurs,
    /// Written by a build with another [`FORMAT_VERSION`].
    Version(u32),
    /// A log where a snapshot was expected, or the reverse, or a generation that does not
    /// match the file's name.
    Mismatch,
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::NotOurs => f.write_str("not an sqslite data file (bad header)"),
            HeaderError::Version(v) => write!(
                f,
                "written in on-disk format version {v}; this build reads versions {OLDEST_READ} to {FORMAT_VERSION}. \
                 Run the sqslite release that wrote it, or move the directory aside to start empty"
            ),
            HeaderError::Mismatch => f.write_str("header does not match the file's name"),
        }
    }
}

pub fn header(kind: FileKind, generation: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12] = kind as u8;
    h[16..24].copy_from_slice(&generation.to_le_bytes());
    h
}

/// Checks a file's header; returns the format version its records are framed in.
pub fn check_header(bytes: &[u8], kind: FileKind, generation: u64) -> Result<u32, HeaderError> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err(HeaderError::NotOurs);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or_default());
    if !(OLDEST_READ..=FORMAT_VERSION).contains(&version) {
        return Err(HeaderError::Version(version));
    }
    let gen = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or_default());
    if bytes[12] != kind as u8 || gen != generation {
        return Err(HeaderError::Mismatch);
    }
    Ok(version)
}

/// Bytes before each payload in version 2: its length, the length's checksum, and the
/// checksum of length and payload.
pub const FRAME_OVERHEAD: usize = 12;
/// Bytes before each payload in version 1: its length and the payload's checksum.
const V1_OVERHEAD: usize = 8;

/// The checksum of a frame's length and payload: a frame whose length was damaged fails it
/// even where the damaged length still lands inside the file.
fn checksum(len: &[u8], payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(len);
    h.update(payload);
    h.finalize()
}

/// Appends one framed record to `out`, in the current format.
pub fn encode(payload: &[u8], out: &mut Vec<u8>) {
    out.reserve(FRAME_OVERHEAD + payload.len());
    let len = (payload.len() as u32).to_le_bytes();
    out.extend_from_slice(&len);
    out.extend_from_slice(&crc32fast::hash(&len).to_le_bytes());
    out.extend_from_slice(&checksum(&len, payload).to_le_bytes());
    out.extend_from_slice(payload);
}

/// Appends one record framed as version 1 wrote it, for the tests that read old directories.
#[cfg(test)]
pub fn encode_v1(payload: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
}

/// What is wrong with a frame that is not a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    /// The length does not match its checksum (version 2).
    Length,
    /// The length is beyond any record ([`MAX_RECORD`]).
    TooLong,
    /// The checksum does not match the contents; the frame is `frame_len` bytes long (in
    /// version 2 that length is itself checked, so reading can go on right after it).
    Contents { frame_len: usize },
    /// An incomplete record at the end of a file that is never appended to, or of a log
    /// that is not the last: not a crash's torn write.
    Incomplete,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Damage::Length => "its length fails its checksum",
            Damage::TooLong => "its length is larger than any record",
            Damage::Contents { .. } => "its checksum does not match its contents",
            Damage::Incomplete => "it is cut short, in a file no crash leaves half-written",
        })
    }
}

/// What the bytes at the start of a slice hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A verified record `len` bytes long (frame included), its payload at `payload`.
    Whole {
        len: usize,
        payload: std::ops::Range<usize>,
    },
    /// The frame needs `need` bytes and the slice has fewer.
    Short {
        need: usize,
    },
    Bad(Damage),
}

/// Reads the frame at the start of `bytes`, as format `version` lays it out.
pub fn parse(version: u32, bytes: &[u8]) -> Frame {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or_default());
    let overhead = if version == 1 {
        V1_OVERHEAD
    } else {
        FRAME_OVERHEAD
    };
    if bytes.len() < overhead {
        return Frame::Short { need: overhead };
    }
    let len = word(0) as usize;
    if version != 1 && crc32fast::hash(&bytes[..4]) != word(4) {
        return Frame::Bad(Damage::Length);
    }
    if len > MAX_RECORD {
        return Frame::Bad(Damage::TooLong);
    }
    let payload = overhead..overhead + len;
    let Some(body) = bytes.get(payload.clone()) else {
        return Frame::Short {
            need: overhead + len,
        };
    };
    let verified = if version == 1 {
        crc32fast::hash(body) == word(4)
    } else {
        checksum(&bytes[..4], body) == word(8)
    };
    if !verified {
        return Frame::Bad(Damage::Contents {
            frame_len: overhead + len,
        });
    }
    Frame::Whole {
        len: overhead + len,
        payload,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        encode(payload, &mut out);
        out
    }

    #[test]
    fn reads_back_what_it_wrote_in_both_versions() {
        let bytes = framed(b"three");
        let whole = Frame::Whole {
            len: FRAME_OVERHEAD + 5,
            payload: FRAME_OVERHEAD..FRAME_OVERHEAD + 5,
        };
        assert_eq!(parse(2, &bytes), whole);
        let mut old = Vec::new();
        encode_v1(b"three", &mut old);
        assert_eq!(
            parse(1, &old),
            Frame::Whole {
                len: 13,
                payload: 8..13
            }
        );
    }

    #[test]
    fn every_cut_is_short_and_every_flipped_bit_is_damage() {
        let bytes = framed(b"a payload");
        for cut in 0..bytes.len() {
            assert!(
                matches!(parse(2, &bytes[..cut]), Frame::Short { .. }),
                "cut at {cut}"
            );
        }
        for bit in 0..bytes.len() * 8 {
            let mut flipped = bytes.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            let got = parse(2, &flipped);
            let expected = match bit / 8 {
                0..8 => Frame::Bad(Damage::Length),
                _ => Frame::Bad(Damage::Contents {
                    frame_len: bytes.len(),
                }),
            };
            assert_eq!(got, expected, "bit {bit}");
        }
    }

    #[test]
    fn zeros_and_a_huge_length_are_damage_not_records() {
        assert_eq!(parse(2, &[0; 64]), Frame::Bad(Damage::Length));
        let mut huge = u32::MAX.to_le_bytes().to_vec();
        huge.extend_from_slice(&crc32fast::hash(&u32::MAX.to_le_bytes()).to_le_bytes());
        huge.extend_from_slice(&[0; 8]);
        assert_eq!(parse(2, &huge), Frame::Bad(Damage::TooLong));
    }

    #[test]
    fn headers_name_kind_generation_and_version() {
        let mut h = header(FileKind::Log, 7).to_vec();
        assert_eq!(check_header(&h, FileKind::Log, 7), Ok(FORMAT_VERSION));
        assert_eq!(
            check_header(&h, FileKind::Snapshot, 7),
            Err(HeaderError::Mismatch)
        );
        assert_eq!(
            check_header(&h[..10], FileKind::Log, 7),
            Err(HeaderError::NotOurs)
        );
        h[8..12].copy_from_slice(&1u32.to_le_bytes());
        assert_eq!(check_header(&h, FileKind::Log, 7), Ok(1));
        h[8..12].copy_from_slice(&9u32.to_le_bytes());
        let err = check_header(&h, FileKind::Log, 7).unwrap_err();
        assert_eq!(err, HeaderError::Version(9));
        assert!(err.to_string().contains("format version 9"));
    }
}
