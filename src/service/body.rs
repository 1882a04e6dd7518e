//! Reading a request body within the size and time limits.

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;

use super::MAX_BODY_BYTES;

/// The whole body in one buffer sized from Content-Length, filled as frames arrive: one copy
/// of the body in memory, where collecting the frames and joining them held two.
/// The whole body, or `None` if it is too large, broken, or trickles in for longer than `limit`
/// (a slow body would otherwise hold its connection for ever).
pub(super) async fn read_body(
    body: Incoming,
    headers: &hyper::HeaderMap,
    limit: Duration,
) -> Option<Bytes> {
    tokio::time::timeout(limit, collect_body(body, headers))
        .await
        .ok()
        .flatten()
}

async fn collect_body(body: Incoming, headers: &hyper::HeaderMap) -> Option<Bytes> {
    let expected = headers
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok())
        .unwrap_or(0);
    let mut buffer = BytesMut::with_capacity(expected.min(MAX_BODY_BYTES));
    let mut body = Limited::new(body, MAX_BODY_BYTES);
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame.ok()?.into_data() {
            buffer.extend_from_slice(&data);
        }
    }
    Some(buffer.freeze())
}
