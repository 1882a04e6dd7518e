//! Response bodies: one buffer (every SQS answer, sent with its Content-Length), chunks a
//! producer writes on a blocking thread while the first ones are already on the wire, or
//! another body passed through as it comes (an S3 object's). With 10,000 queues a `/metrics`
//! scrape is 13 MB and the alarm list 8 MB: streamed, neither sits in memory whole (no fresh
//! 13 MB to fault in on every scrape) and the client reads while the rest is written.

use std::fmt;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use tokio::sync::mpsc;

/// How much a producer writes before handing a chunk to the connection.
const CHUNK: usize = 128 * 1024;
/// Chunks written ahead of the connection: the memory a stream holds at most.
const AHEAD: usize = 4;

/// Why a passed-through body stopped: the connection is dropped mid-answer.
pub type BodyError = Box<dyn std::error::Error + Send + Sync>;

/// A body passed through as it comes.
type Passed = Pin<Box<dyn HttpBody<Data = Bytes, Error = BodyError> + Send>>;

pub enum Body {
    Full(Full<Bytes>),
    Chunks(mpsc::Receiver<Bytes>),
    Passed(Passed),
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Body::Full(full) => f.debug_tuple("Full").field(full).finish(),
            Body::Chunks(rx) => f.debug_tuple("Chunks").field(rx).finish(),
            Body::Passed(_) => f.write_str("Passed"),
        }
    }
}

impl From<Bytes> for Body {
    fn from(bytes: Bytes) -> Self {
        Body::Full(Full::new(bytes))
    }
}

impl Body {
    /// A body `produce` writes on a blocking thread. Once the client is gone every write
    /// fails, so `produce` stops at its next `?`.
    pub fn stream(
        produce: impl FnOnce(&mut ChunkWriter) -> io::Result<()> + Send + 'static,
    ) -> Body {
        let (tx, rx) = mpsc::channel(AHEAD);
        tokio::task::spawn_blocking(move || {
            let mut writer = ChunkWriter {
                buf: Vec::with_capacity(CHUNK),
                tx,
            };
            if produce(&mut writer).is_ok() {
                let _ = writer.hand_over();
            }
        });
        Body::Chunks(rx)
    }

    /// `body`, sent as it comes: its frames as they are ready, its length if it knows it.
    pub fn passed<B>(body: B) -> Body
    where
        B: HttpBody<Data = Bytes> + Send + 'static,
        B::Error: Into<BodyError>,
    {
        Body::Passed(Box::pin(http_body_util::BodyExt::map_err(body, Into::into)))
    }
}

impl HttpBody for Body {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        match self.get_mut() {
            Body::Full(full) => Pin::new(full).poll_frame(cx).map_err(|e| match e {}),
            Body::Chunks(rx) => rx.poll_recv(cx).map(|c| c.map(|b| Ok(Frame::data(b)))),
            Body::Passed(body) => body.as_mut().poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Body::Full(full) => full.is_end_stream(),
            Body::Chunks(_) => false,
            Body::Passed(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Body::Full(full) => full.size_hint(),
            Body::Chunks(_) => SizeHint::default(),
            Body::Passed(body) => body.size_hint(),
        }
    }
}

/// Where a streamed body is written: text (`fmt::Write`) or bytes (`io::Write`), handed to
/// the connection every `CHUNK` (128 KiB).
pub struct ChunkWriter {
    buf: Vec<u8>,
    tx: mpsc::Sender<Bytes>,
}

impl ChunkWriter {
    fn hand_over(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK)));
        self.tx
            .blocking_send(chunk)
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the client went away"))
    }

    // Inlined: a JSON serializer writes a few bytes at a time.
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= CHUNK {
            self.hand_over()?;
        }
        Ok(())
    }
}

impl io::Write for ChunkWriter {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.put(bytes)?;
        Ok(bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.put(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl fmt::Write for ChunkWriter {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.put(s.as_bytes()).map_err(|_| fmt::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn a_stream_arrives_whole_and_in_order() {
        let body = Body::stream(|w| {
            use std::io::Write as _;
            for i in 0..100_000 {
                writeln!(w, "{i}")?;
            }
            Ok(())
        });
        let bytes = body.collect().await.unwrap().to_bytes();
        let mut expected = String::new();
        for i in 0..100_000 {
            expected.push_str(&i.to_string());
            expected.push('\n');
        }
        assert_eq!(bytes, expected.as_bytes());
    }

    #[tokio::test]
    async fn a_producer_stops_when_the_client_goes_away() {
        let (done, finished) = tokio::sync::oneshot::channel();
        let body = Body::stream(move |w| {
            use std::io::Write as _;
            let mut written = 0;
            let result = loop {
                if let Err(e) = w.write_all(&[b'x'; 1024]) {
                    break Err(e);
                }
                written += 1;
                if written > 1_000_000 {
                    break Ok(());
                }
            };
            let _ = done.send(result.is_err());
            result
        });
        drop(body);
        assert!(
            finished.await.unwrap(),
            "the producer never saw the client leave"
        );
    }
}
