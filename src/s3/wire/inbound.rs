//! A request's body on its way to S3's operations: read from the connection as it arrives
//! (never gathered here), held to what its request declares (`x-amz-content-sha256`: a body
//! hash checked at its end, or an `aws-chunked` encoding decoded as it comes, [`Decoder`]),
//! and cut off when the client stops sending for the idle timeout.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use hyper::body::{Body as _, Incoming};
use hyper::header::HeaderMap;
use s3s::stream::{ByteStream, RemainingLength};
use s3s::{S3Error, S3ErrorCode, StdError};
use sha2::{Digest, Sha256};

use super::chunked::Decoder;
use crate::http::auth::sigv4::Chain;

/// How the request says its body is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// As is, unhashed (`UNSIGNED-PAYLOAD`, or no declaration).
    Plain,
    /// As is, with this SHA-256 (hex) declared.
    Hashed(String),
    /// `aws-chunked`: `declared` data bytes, signed chunks or not, a trailer or not.
    Chunked {
        /// `x-amz-decoded-content-length`.
        declared: u64,
        /// Chunks carry signatures.
        signed: bool,
        /// A trailer follows the last chunk.
        trailer: bool,
    },
}

/// The declarations `x-amz-content-sha256` may make, as S3 lists them.
const MODES: &str = "UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, \
    STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER, \
    STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD, STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER";

/// The body's mode by its request's headers.
pub fn mode(headers: &HeaderMap) -> Result<Mode, S3Error> {
    let declared = headers
        .get("x-amz-content-sha256")
        .map(|v| v.to_str().unwrap_or("?"));
    let (signed, trailer) = match declared {
        None | Some("UNSIGNED-PAYLOAD") if !aws_chunked(headers) => return Ok(Mode::Plain),
        None | Some("UNSIGNED-PAYLOAD") => (false, false),
        Some("STREAMING-UNSIGNED-PAYLOAD-TRAILER") => (false, true),
        Some("STREAMING-AWS4-HMAC-SHA256-PAYLOAD" | "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD") => {
            (true, false)
        }
        Some(
            "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"
            | "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER",
        ) => (true, true),
        Some(hash) if hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            return Ok(Mode::Hashed(hash.to_ascii_lowercase()));
        }
        Some(_) => {
            return Err(S3Error::with_message(
                S3ErrorCode::InvalidArgument,
                format!("x-amz-content-sha256 must be {MODES}, or a valid sha256 value."),
            ))
        }
    };
    let declared = headers
        .get("x-amz-decoded-content-length")
        .and_then(|v| v.to_str().ok()?.parse().ok())
        .ok_or_else(|| {
            S3Error::with_message(
                S3ErrorCode::MissingContentLength,
                "You must provide the Content-Length HTTP header.",
            )
        })?;
    Ok(Mode::Chunked {
        declared,
        signed,
        trailer,
    })
}

/// Whether `Content-Encoding` names `aws-chunked`.
pub fn aws_chunked(headers: &HeaderMap) -> bool {
    headers
        .get_all(hyper::header::CONTENT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|e| e.trim().eq_ignore_ascii_case("aws-chunked"))
}

/// A streamed trailer's headers, once the body has been read to its end.
#[derive(Debug, Clone, Default)]
pub struct Trailers(Arc<Mutex<Vec<(String, String)>>>);

impl Trailers {
    /// The trailer header `name`'s value, if the body's trailer had it.
    pub fn get(&self, name: &str) -> Option<String> {
        let headers = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }
}

/// How the body's bytes are checked as they pass.
enum Check {
    Plain,
    Hashed(Sha256, String),
    Chunked(Box<Decoder>),
}

/// The body as a stream of its (decoded) data.
pub struct Inbound {
    body: Incoming,
    check: Check,
    ready: VecDeque<Bytes>,
    trailers: Trailers,
    idle: Duration,
    timer: Pin<Box<tokio::time::Sleep>>,
    left: Option<u64>,
    /// Bytes came since the timer was set.
    fed: bool,
    ended: bool,
}

impl Inbound {
    /// `body`, sent in `mode`, its chunks checked against `chain` if given; cut off after
    /// `idle` without a byte.
    pub fn new(body: Incoming, mode: &Mode, chain: Option<Chain>, idle: Duration) -> Inbound {
        let (check, left) = match mode {
            Mode::Plain => (Check::Plain, body.size_hint().exact()),
            Mode::Hashed(hash) => (
                Check::Hashed(Sha256::new(), hash.clone()),
                body.size_hint().exact(),
            ),
            Mode::Chunked {
                declared, trailer, ..
            } => (
                Check::Chunked(Box::new(Decoder::new(*declared, *trailer, chain))),
                Some(*declared),
            ),
        };
        Inbound {
            body,
            check,
            ready: VecDeque::new(),
            trailers: Trailers::default(),
            idle,
            timer: Box::pin(tokio::time::sleep(idle)),
            left,
            fed: false,
            ended: false,
        }
    }

    /// The trailer's headers, filled once the body is read.
    pub fn trailers(&self) -> Trailers {
        self.trailers.clone()
    }

    /// One frame's data, checked; decoded ones to `ready`.
    fn take(&mut self, data: Bytes) -> Result<(), S3Error> {
        match &mut self.check {
            Check::Plain => self.ready.push_back(data),
            Check::Hashed(hash, _) => {
                hash.update(&data);
                self.ready.push_back(data);
            }
            Check::Chunked(decoder) => {
                let mut out = Vec::new();
                decoder.feed(data, &mut out)?;
                self.ready.extend(out);
            }
        }
        Ok(())
    }

    /// The body's end: its hash or its encoding's end checked, its trailer kept.
    fn end(&mut self) -> Result<(), S3Error> {
        match &mut self.check {
            Check::Plain => Ok(()),
            Check::Hashed(hash, declared) => {
                let actual = hex(&std::mem::take(hash).finalize());
                if actual == *declared {
                    Ok(())
                } else {
                    let mut e = S3Error::with_message(
                        S3ErrorCode::Custom("XAmzContentSHA256Mismatch".into()),
                        "The provided 'x-amz-content-sha256' header does not match what was computed.",
                    );
                    e.set_status_code(hyper::StatusCode::BAD_REQUEST);
                    Err(e)
                }
            }
            Check::Chunked(decoder) => {
                decoder.finish()?;
                *self
                    .trailers
                    .0
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) =
                    std::mem::take(&mut decoder.trailers);
                Ok(())
            }
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    crate::s3::engine::object::etag_of(bytes)
}

/// What a broken connection or a stalled one gives the operation reading the body.
fn broken(error: &hyper::Error) -> S3Error {
    S3Error::with_message(
        S3ErrorCode::IncompleteBody,
        format!(
            "You did not provide the number of bytes specified by the Content-Length HTTP \
             header ({error})."
        ),
    )
}

impl futures_core::Stream for Inbound {
    type Item = Result<Bytes, StdError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(data) = this.ready.pop_front() {
                this.left = this.left.map(|l| l.saturating_sub(data.len() as u64));
                return Poll::Ready(Some(Ok(data)));
            }
            if this.ended {
                return Poll::Ready(None);
            }
            let result = match Pin::new(&mut this.body).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => {
                    this.fed = true;
                    match frame.into_data() {
                        Ok(data) => this.take(data),
                        Err(_) => Ok(()),
                    }
                }
                Poll::Ready(Some(Err(e))) => Err(broken(&e)),
                Poll::Ready(None) => {
                    this.ended = true;
                    this.end()
                }
                // A timer that ran out after bytes came starts again: a stall is seen within
                // two idle periods, and no frame pays for re-arming it.
                Poll::Pending
                    if std::future::Future::poll(this.timer.as_mut(), cx).is_ready()
                        && this.fed =>
                {
                    this.fed = false;
                    this.timer = Box::pin(tokio::time::sleep(this.idle));
                    Ok(())
                }
                Poll::Pending if std::future::Future::poll(this.timer.as_mut(), cx).is_ready() => {
                    Err(S3Error::with_message(
                        S3ErrorCode::RequestTimeout,
                        "Your socket connection to the server was not read from or written to \
                         within the timeout period. Idle connections will be closed.",
                    ))
                }
                Poll::Pending => return Poll::Pending,
            };
            if let Err(e) = result {
                this.ended = true;
                this.ready.clear();
                return Poll::Ready(Some(Err(Box::new(e))));
            }
        }
    }
}

impl ByteStream for Inbound {
    fn remaining_length(&self) -> RemainingLength {
        self.left
            .and_then(|l| usize::try_from(l).ok())
            .map_or_else(RemainingLength::unknown, RemainingLength::new_exact)
    }
}
