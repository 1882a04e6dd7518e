//! Reading a PUT's or a part's body into the engine as it arrives, and holding it to the
//! digests its request declares: `Content-MD5` (BadDigest, or InvalidDigest when it is no
//! MD5) and one additional checksum, sent as a header (`x-amz-checksum-<algorithm>`) or in the
//! streamed body's trailer (named by `x-amz-trailer`), each BadDigest when it does not match.

use std::future::poll_fn;
use std::pin::Pin;

use base64::Engine as _;
use s3s::checksum::ChecksumHasher;
use s3s::dto::StreamingBlob;
use s3s::{S3Error, S3ErrorCode, S3Result};

use md5::{Digest, Md5};

use crate::s3::call::Call;
use crate::s3::engine::data::{too_large, Builder, Data};
use crate::s3::engine::disk::TempFile;
use crate::s3::engine::object::Checksum;
use crate::s3::engine::Store;
use crate::s3::error::{error, refused};

/// Where a body's bytes go as they arrive: buffers in memory, or a file (`--data-dir`).
pub enum Sink {
    Memory(Builder),
    File(FileSink),
}

/// A body on its way into a file: written a buffer at a time on a blocking thread, so a
/// body of any size holds about one buffer of memory.
pub struct FileSink {
    /// `None` only while a write runs.
    file: Option<TempFile>,
    buf: Vec<u8>,
    md5: Md5,
    len: u64,
    max: u64,
}

/// Bytes gathered before one write to the file.
const WRITE_BUFFER: usize = 1 << 20;

/// S3's answer to a body the disk would not take (full, read-only): nothing is stored.
fn unstored(e: &std::io::Error) -> S3Error {
    error(
        S3ErrorCode::InternalError,
        format!("The object could not be stored: {e}."),
    )
}

/// The file a blocking write ran on went missing (its thread panicked).
fn lost() -> S3Error {
    error(
        S3ErrorCode::InternalError,
        "The object could not be stored: its write was lost.",
    )
}

impl Sink {
    /// A body of at most `max` bytes, `declared` long if its request says so, for `store`.
    pub fn new(store: &Store, declared: Option<u64>, max: u64) -> S3Result<Sink> {
        let Some(disk) = &store.disk else {
            let builder = Builder::new(&store.budget, declared, max).map_err(refused)?;
            return Ok(Sink::Memory(builder));
        };
        if declared.is_some_and(|n| n > max) {
            return Err(refused(too_large(max)));
        }
        // A small body's buffer is its size: a megabyte made and freed per 1 KiB PUT costs.
        let size = declared.map_or(WRITE_BUFFER, |n| n.min(WRITE_BUFFER as u64) as usize);
        Ok(Sink::File(FileSink {
            file: Some(disk.temp().map_err(|e| unstored(&e))?),
            buf: Vec::with_capacity(size),
            md5: Md5::new(),
            len: 0,
            max,
        }))
    }

    async fn push(&mut self, chunk: &[u8]) -> S3Result<()> {
        let sink = match self {
            Sink::Memory(builder) => return builder.push(chunk).map_err(refused),
            Sink::File(sink) => sink,
        };
        if sink.len + chunk.len() as u64 > sink.max {
            return Err(refused(too_large(sink.max)));
        }
        let file = sink.file.as_mut().ok_or_else(lost)?;
        file.reserve(chunk.len() as u64).map_err(refused)?;
        sink.md5.update(chunk);
        sink.len += chunk.len() as u64;
        sink.buf.extend_from_slice(chunk);
        if sink.buf.len() >= WRITE_BUFFER {
            sink.flush().await?;
        }
        Ok(())
    }

    /// The data and its MD5: a file's made whole in `s3/objects`.
    async fn finish(self) -> S3Result<(Data, [u8; 16])> {
        let mut sink = match self {
            Sink::Memory(builder) => return Ok(builder.finish()),
            Sink::File(sink) => sink,
        };
        let mut file = sink.file.take().ok_or_else(lost)?;
        let rest = std::mem::take(&mut sink.buf);
        // The last write and the rename in one trip to the blocking pool.
        let kept =
            tokio::task::spawn_blocking(move || file.write(&rest).and_then(|()| file.keep()))
                .await
                .map_err(|_| lost())?
                .map_err(|e| unstored(&e))?;
        Ok((Data::from_file(kept), sink.md5.finalize().into()))
    }
}

impl FileSink {
    /// Writes what is gathered, on a blocking thread.
    async fn flush(&mut self) -> S3Result<()> {
        let mut file = self.file.take().ok_or_else(lost)?;
        let buf = std::mem::take(&mut self.buf);
        let (file, mut buf, written) = tokio::task::spawn_blocking(move || {
            let written = file.write(&buf);
            (file, buf, written)
        })
        .await
        .map_err(|_| lost())?;
        written.map_err(|e| unstored(&e))?;
        buf.clear();
        self.buf = buf;
        self.file = Some(file);
        Ok(())
    }
}

/// The MD5 of `data`, its files read on a blocking thread.
pub async fn md5_of(data: &Data) -> S3Result<[u8; 16]> {
    let data = data.clone();
    tokio::task::spawn_blocking(move || data.md5(0, data.len()))
        .await
        .map_err(|_| lost())?
        .map_err(|e| {
            error(
                S3ErrorCode::InternalError,
                format!("The object could not be read: {e}."),
            )
        })
}

/// What a body must match.
#[derive(Debug, Default)]
pub struct Declared {
    /// `Content-MD5`, base64.
    pub md5: Option<String>,
    /// The checksum algorithm (`CRC32`…), and its value when a header carries it (else the
    /// trailer does, or none: then it is computed and kept).
    pub checksum: Option<(&'static str, Option<String>)>,
}

/// The algorithms S3 knows, by the name its headers use.
pub const ALGORITHMS: &[&str] = &["CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256"];

/// The algorithm named `name` (any case), as S3 writes it.
pub fn algorithm(name: &str) -> S3Result<&'static str> {
    ALGORITHMS
        .iter()
        .find(|a| a.eq_ignore_ascii_case(name))
        .copied()
        .ok_or_else(|| {
            error(
                S3ErrorCode::InvalidRequest,
                "Value for x-amz-checksum-algorithm header is invalid.",
            )
        })
}

/// A hasher for `algorithm`.
fn hasher(algorithm: &str) -> ChecksumHasher {
    let mut h = ChecksumHasher::default();
    match algorithm {
        "CRC32" => h.crc32 = Some(s3s::crypto::Crc32::default()),
        "CRC32C" => h.crc32c = Some(s3s::crypto::Crc32c::default()),
        "CRC64NVME" => h.crc64nvme = Some(s3s::crypto::Crc64Nvme::default()),
        "SHA1" => h.sha1 = Some(s3s::crypto::Sha1::default()),
        _ => h.sha256 = Some(s3s::crypto::Sha256::default()),
    }
    h
}

/// The value `hasher` computed.
fn value(hasher: ChecksumHasher) -> Option<String> {
    let sums = hasher.finalize();
    sums.checksum_crc32
        .or(sums.checksum_crc32c)
        .or(sums.checksum_crc64nvme)
        .or(sums.checksum_sha1)
        .or(sums.checksum_sha256)
}

/// Reads `blob` into `sink` and checks it against `declared`: the data, its MD5 and the
/// checksum it carries.
pub async fn read(
    blob: Option<StreamingBlob>,
    mut sink: Sink,
    declared: &Declared,
    call: &Call,
) -> S3Result<(Data, [u8; 16], Option<Checksum>)> {
    let mut sum = declared.checksum.as_ref().map(|(a, _)| hasher(a));
    if let Some(mut blob) = blob {
        while let Some(chunk) =
            poll_fn(|cx| futures_core::Stream::poll_next(Pin::new(&mut blob), cx)).await
        {
            let chunk = chunk.map_err(|e| body_error(&e))?;
            if let Some(sum) = &mut sum {
                sum.update(&chunk);
            }
            sink.push(&chunk).await?;
        }
    }
    let (data, md5) = sink.finish().await?;
    if let Some(expected) = &declared.md5 {
        check_md5(expected, &md5)?;
    }
    let checksum = match (&declared.checksum, sum) {
        (Some((algorithm, header)), Some(sum)) => {
            let computed = value(sum).unwrap_or_default();
            let sent = header.clone().or_else(|| {
                call.trailers.get(&format!(
                    "x-amz-checksum-{}",
                    algorithm.to_ascii_lowercase()
                ))
            });
            if sent.as_ref().is_some_and(|s| *s != computed) {
                return Err(error(
                    S3ErrorCode::BadDigest,
                    format!("The {algorithm} you specified did not match the calculated checksum."),
                ));
            }
            Some(Checksum {
                algorithm,
                value: computed,
            })
        }
        _ => None,
    };
    Ok((data, md5, checksum))
}

/// `Content-MD5` against the body's MD5.
fn check_md5(expected: &str, md5: &[u8; 16]) -> S3Result<()> {
    let given = base64::engine::general_purpose::STANDARD
        .decode(expected.trim())
        .ok()
        .filter(|d| d.len() == 16)
        .ok_or_else(|| {
            error(
                S3ErrorCode::InvalidDigest,
                "The Content-MD5 you specified was invalid.",
            )
        })?;
    if given == md5 {
        Ok(())
    } else {
        Err(error(
            S3ErrorCode::BadDigest,
            "The Content-MD5 you specified did not match what we received.",
        ))
    }
}

/// A body that broke off: the error its stream gave (S3's own from the decoding and checks),
/// else IncompleteBody.
fn body_error(e: &s3s::StdError) -> S3Error {
    match e.downcast_ref::<S3Error>() {
        Some(own) => {
            let mut copy =
                S3Error::with_message(own.code().clone(), own.message().unwrap_or("").to_owned());
            if let Some(status) = own.status_code() {
                copy.set_status_code(status);
            }
            copy
        }
        None => error(
            S3ErrorCode::IncompleteBody,
            "You did not provide the number of bytes specified by the Content-Length HTTP header",
        ),
    }
}

/// The trailer a streamed body announces (`x-amz-trailer`).
pub fn trailer(headers: &hyper::HeaderMap) -> Option<String> {
    headers
        .get("x-amz-trailer")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// What a PutObject's or an UploadPart's input declares of its body (the two share these
/// fields' names): its Content-MD5 and its checksum, whose algorithm defaults to `fallback`
/// (an upload's, chosen at its start).
macro_rules! declared {
    ($input:expr, $trailer:expr, $fallback:expr) => {
        $crate::s3::ops::body::Declared {
            md5: $input.content_md5.take(),
            checksum: $crate::s3::ops::body::declared_checksum(
                $input
                    .checksum_algorithm
                    .as_ref()
                    .map(s3s::dto::ChecksumAlgorithm::as_str)
                    .or($fallback),
                [
                    ("CRC32", $input.checksum_crc32.as_ref()),
                    ("CRC32C", $input.checksum_crc32c.as_ref()),
                    ("CRC64NVME", $input.checksum_crc64nvme.as_ref()),
                    ("SHA1", $input.checksum_sha1.as_ref()),
                    ("SHA256", $input.checksum_sha256.as_ref()),
                ],
                $trailer,
            )?,
        }
    };
}
pub(super) use declared;

/// The checksum a request declares: its algorithm and, from a header, its value.
pub fn declared_checksum(
    algorithm: Option<&str>,
    headers: [(&'static str, Option<&String>); 5],
    trailer: Option<&str>,
) -> S3Result<Option<(&'static str, Option<String>)>> {
    if let Some((name, value)) = headers.iter().find_map(|(n, v)| v.map(|v| (*n, v))) {
        return Ok(Some((name, Some(value.clone()))));
    }
    if let Some(named) = trailer.and_then(|t| t.trim().strip_prefix("x-amz-checksum-")) {
        return Ok(Some((self::algorithm(named)?, None)));
    }
    algorithm
        .map(|a| self::algorithm(a).map(|a| (a, None)))
        .transpose()
}
