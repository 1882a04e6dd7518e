//! Reading a request body within the size and time limits.

use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt, Limited};
use hyper::body::Body as _;
use hyper::body::Incoming;

/// Larger than any valid request of any service (an SQS batch of 1 MiB, base64 and form
/// overhead included).
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The whole body, or `None` if it is too large, broken, or trickles in for longer than `limit`
/// (a slow body would otherwise hold its connection for ever). It is the one frame it came in,
/// or else one buffer sized from Content-Length and filled as frames arrive (one copy of the
/// body in memory, where collecting the frames and joining them held two).
pub async fn read_body(
    body: Incoming,
    headers: &hyper::HeaderMap,
    limit: Duration,
) -> Option<Bytes> {
    let mut collect = pin!(collect_body(body, headers));
    // A small body usually arrives with its head: read it without setting up a timer.
    if let Poll::Ready(body) = poll_fn(|cx| Poll::Ready(collect.as_mut().poll(cx))).await {
        return body;
    }
    tokio::time::timeout(limit, collect).await.ok().flatten()
}

async fn collect_body(body: Incoming, headers: &hyper::HeaderMap) -> Option<Bytes> {
    let mut body = Limited::new(body, MAX_BODY_BYTES);
    let first = match body.frame().await {
        None => return Some(Bytes::new()),
        Some(frame) => frame.ok()?.into_data().ok(),
    };
    // A body that came in one frame is kept as hyper read it: no buffer, no copy.
    if body.is_end_stream() {
        return Some(first.unwrap_or_default());
    }
    let expected = headers
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok())
        .unwrap_or(0);
    let mut buffer = BytesMut::with_capacity(expected.min(MAX_BODY_BYTES));
    if let Some(data) = first {
        buffer.extend_from_slice(&data);
    }
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame.ok()?.into_data() {
            buffer.extend_from_slice(&data);
        }
    }
    Some(buffer.freeze())
}
