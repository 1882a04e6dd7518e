//! Record framing on disk: a file header naming the format version, then records, each
//! `[payload length u32 LE][crc32 of the payload u32 LE][payload]`, and the scan that finds
//! where the valid prefix of a file ends.

use std::fmt;
use std::io::{self, Read};

/// Every file of the data directory starts with these 8 bytes, then a format version.
pub const MAGIC: &[u8; 8] = b"SQSLITE\0";
/// The on-disk format this build reads and writes. A file of any other version is refused
/// (never reset): bump it whenever a record's encoding changes meaning.
pub const FORMAT_VERSION: u32 = 1;
/// Magic, version, file kind (one byte, padded to 4), generation.
pub const HEADER_LEN: usize = 8 + 4 + 4 + 8;
/// Bytes before each payload: its length and its checksum.
pub const FRAME_OVERHEAD: usize = 8;
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
                "written in on-disk format version {v}; this build reads version {FORMAT_VERSION} only. \
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

/// Checks a file's header; returns the rest of the file (its records).
pub fn check_header(bytes: &[u8], kind: FileKind, generation: u64) -> Result<&[u8], HeaderError> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err(HeaderError::NotOurs);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or_default());
    if version != FORMAT_VERSION {
        return Err(HeaderError::Version(version));
    }
    let gen = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or_default());
    if bytes[12] != kind as u8 || gen != generation {
        return Err(HeaderError::Mismatch);
    }
    Ok(&bytes[HEADER_LEN..])
}

/// Appends one framed record to `out`.
pub fn encode(payload: &[u8], out: &mut Vec<u8>) {
    out.reserve(FRAME_OVERHEAD + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
}

/// Why a scan stopped before the end of the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadTail {
    /// The last record is cut short: a write the crash interrupted.
    Torn,
    /// A record's checksum or length is wrong.
    Corrupt,
}

/// Where the valid records of a file end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// Records read whole and verified.
    pub records: usize,
    /// Bytes of those records (frames included); a torn tail starts here.
    pub valid_len: usize,
    /// Why bytes after `valid_len` were not read, if any are left.
    pub bad_tail: Option<BadTail>,
}

/// Calls `each` with every valid record's payload, in order, and says where they end.
pub fn scan<E>(mut bytes: &[u8], mut each: impl FnMut(&[u8]) -> Result<(), E>) -> Result<Scan, E> {
    let mut scan = Scan {
        records: 0,
        valid_len: 0,
        bad_tail: None,
    };
    while !bytes.is_empty() {
        if bytes.len() < FRAME_OVERHEAD {
            scan.bad_tail = Some(BadTail::Torn);
            break;
        }
        let len = u32::from_le_bytes(bytes[..4].try_into().unwrap_or_default()) as usize;
        let crc = u32::from_le_bytes(bytes[4..8].try_into().unwrap_or_default());
        if len > MAX_RECORD {
            scan.bad_tail = Some(BadTail::Corrupt);
            break;
        }
        let Some(payload) = bytes.get(FRAME_OVERHEAD..FRAME_OVERHEAD + len) else {
            scan.bad_tail = Some(BadTail::Torn);
            break;
        };
        if crc32fast::hash(payload) != crc {
            scan.bad_tail = Some(BadTail::Corrupt);
            break;
        }
        each(payload)?;
        scan.records += 1;
        scan.valid_len += FRAME_OVERHEAD + len;
        bytes = &bytes[FRAME_OVERHEAD + len..];
    }
    Ok(scan)
}

/// Bytes read from a file at a time while it is scanned.
const CHUNK: u64 = 8 << 20;

/// [`scan`] over a reader, a chunk at a time, so recovery never holds a whole file in
/// memory next to the state it rebuilds. The outer error is the read's, the inner `each`'s.
pub fn scan_reader<E>(
    input: impl Read,
    each: impl FnMut(&[u8]) -> Result<(), E>,
) -> io::Result<Result<Scan, E>> {
    scan_chunks(input, CHUNK, each)
}

fn scan_chunks<E>(
    mut input: impl Read,
    chunk: u64,
    mut each: impl FnMut(&[u8]) -> Result<(), E>,
) -> io::Result<Result<Scan, E>> {
    let mut total = Scan {
        records: 0,
        valid_len: 0,
        bad_tail: None,
    };
    let mut buf = Vec::with_capacity(chunk as usize);
    loop {
        let read = input.by_ref().take(chunk).read_to_end(&mut buf)?;
        let at_end = (read as u64) < chunk;
        let part = match scan(&buf, &mut each) {
            Ok(part) => part,
            Err(e) => return Ok(Err(e)),
        };
        total.records += part.records;
        total.valid_len += part.valid_len;
        match part.bad_tail {
            None if at_end => return Ok(Ok(total)),
            None => buf.clear(),
            // A record that goes on in the next chunk.
            Some(BadTail::Torn) if !at_end => {
                buf.drain(..part.valid_len);
            }
            Some(why) => {
                total.bad_tail = Some(why);
                return Ok(Ok(total));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(bytes: &[u8]) -> (Vec<Vec<u8>>, Scan) {
        let mut got = Vec::new();
        let scan = scan::<()>(bytes, |p| {
            got.push(p.to_vec());
            Ok(())
        })
        .unwrap();
        (got, scan)
    }

    fn three() -> Vec<u8> {
        let mut out = Vec::new();
        for p in [&b"one"[..], b"", b"three"] {
            encode(p, &mut out);
        }
        out
    }

    #[test]
    fn a_reader_in_chunks_of_any_size_sees_what_one_slice_does() {
        let mut bytes = three();
        encode(&[7; 40], &mut bytes);
        let whole = collect(&bytes);
        let mut torn = bytes.clone();
        torn.extend_from_slice(&[9, 0, 0, 0, 1]);
        let mut corrupt = bytes.clone();
        corrupt[9] ^= 1;
        for input in [&bytes, &torn, &corrupt] {
            let expected = collect(input);
            for chunk in [1, 2, 7, 8, 11, 64, 1 << 20] {
                let mut got = Vec::new();
                let scan = scan_chunks::<()>(&input[..], chunk, |p| {
                    got.push(p.to_vec());
                    Ok(())
                });
                assert_eq!((got, scan.unwrap().unwrap()), expected, "chunk {chunk}");
            }
        }
        assert_eq!(whole.0.len(), 4);
    }

    #[test]
    fn reads_back_what_it_wrote() {
        let bytes = three();
        let (got, scan) = collect(&bytes);
        assert_eq!(got, vec![b"one".to_vec(), vec![], b"three".to_vec()]);
        assert_eq!(scan.valid_len, bytes.len());
        assert_eq!(scan.bad_tail, None);
    }

    #[test]
    fn every_cut_of_the_last_record_is_a_torn_tail() {
        let bytes = three();
        let last_start = bytes.len() - (FRAME_OVERHEAD + 5);
        for cut in last_start + 1..bytes.len() {
            let (got, scan) = collect(&bytes[..cut]);
            assert_eq!(got.len(), 2, "cut at {cut}");
            assert_eq!(scan.valid_len, last_start);
            assert_eq!(scan.bad_tail, Some(BadTail::Torn));
        }
    }

    #[test]
    fn a_flipped_bit_stops_the_scan_at_that_record() {
        let mut bytes = three();
        let second_payload_end = 2 * FRAME_OVERHEAD + 3;
        bytes[second_payload_end + FRAME_OVERHEAD] ^= 0x10; // first byte of "three"
        let (got, scan) = collect(&bytes);
        assert_eq!(got.len(), 2);
        assert_eq!(scan.bad_tail, Some(BadTail::Corrupt));
        let mut huge = three();
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(collect(&huge).1.bad_tail, Some(BadTail::Corrupt));
    }

    #[test]
    fn headers_name_kind_generation_and_version() {
        let mut h = header(FileKind::Log, 7).to_vec();
        h.extend_from_slice(b"rest");
        assert_eq!(check_header(&h, FileKind::Log, 7), Ok(&b"rest"[..]));
        assert_eq!(
            check_header(&h, FileKind::Snapshot, 7),
            Err(HeaderError::Mismatch)
        );
        assert_eq!(
            check_header(&h[..10], FileKind::Log, 7),
            Err(HeaderError::NotOurs)
        );
        h[8..12].copy_from_slice(&9u32.to_le_bytes());
        let err = check_header(&h, FileKind::Log, 7).unwrap_err();
        assert_eq!(err, HeaderError::Version(9));
        assert!(err.to_string().contains("format version 9"));
    }
}
