//! One connection: HTTP/1.1 keep-alive through hyper, closed by a watchdog when its client
//! takes too long to send a request head or stays idle too long; over-cap (lane) connections
//! answer `/health` and turn anything else away with a 503.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONNECTION};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use super::self_wake::SelfWakes;
use super::{Handler, Limits, Slot};
use crate::clock::Stopwatch;
use crate::http::HttpResponse;

/// A lane connection must send its request within this (or the header timeout if shorter).
const LANE_TIMEOUT: Duration = Duration::from_millis(250);

const HEAD: u8 = 0;
const BUSY: u8 = 1;
const IDLE: u8 = 2;

/// Where a connection is in its request cycle, and since when (ms after it was accepted).
struct Activity {
    born: Stopwatch,
    phase: AtomicU8,
    since_ms: AtomicU64,
}

impl Activity {
    fn new() -> Self {
        // A new connection is expected to send its first request head promptly.
        Activity {
            born: Stopwatch::start(),
            phase: AtomicU8::new(HEAD),
            since_ms: AtomicU64::new(0),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Two stores and no wake-up: the watchdog finds the change when it next looks, which is
    /// before any deadline the change can set (see [`watchdog`]). A busy phase has no
    /// deadline, so it needs no clock reading either. The phase is released after its start
    /// time, so a watchdog that reads (acquires) the phase reads that time or a later one.
    fn enter(&self, phase: u8) {
        if phase != BUSY {
            self.since_ms.store(self.now_ms(), Ordering::Relaxed);
        }
        self.phase.store(phase, Ordering::Release);
    }

    /// Bytes arrived: an idle connection has started its next request head.
    fn bytes_read(&self) {
        if self.phase.load(Ordering::Relaxed) == IDLE {
            self.enter(HEAD);
        }
    }
}

/// What every request of one connection reads: one per-connection `Arc` is cloned for each
/// request, so no count shared by all connections is written per request.
struct Shared<H> {
    app: Arc<H>,
    activity: Arc<Activity>,
    peer: Option<std::net::IpAddr>,
    lane: bool,
    cap: usize,
}

/// The TCP stream, telling [`Activity`] when request bytes arrive.
struct Watched {
    io: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.io).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.bytes_read();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Serves one accepted connection on its own task until it ends, times out or shuts down.
pub fn spawn<H: Handler>(
    app: &Arc<H>,
    graceful: &GracefulShutdown,
    stream: TcpStream,
    slot: Slot,
    limits: &Limits,
    cap: usize,
) {
    let _ = stream.set_nodelay(true);
    // Handed to each request directly: as a request extension it cost an allocation, a map
    // and a free per request (about 500 instructions).
    let peer = stream.peer_addr().ok().map(|a| a.ip());
    let activity = Arc::new(Activity::new());
    let lane = matches!(slot, Slot::Lane(_));
    let (header, idle) = if lane {
        let t = limits.header_timeout.min(LANE_TIMEOUT);
        (t, t)
    } else {
        (limits.header_timeout, limits.idle_timeout)
    };
    let io = TokioIo::new(Watched {
        io: stream,
        activity: activity.clone(),
    });
    let watched = activity.clone();
    let shared = Arc::new(Shared {
        app: app.clone(),
        activity,
        peer,
        lane,
        cap,
    });
    let service = service_fn(move |req: Request<Incoming>| {
        let shared = shared.clone();
        async move {
            let Shared {
                app,
                activity,
                peer,
                lane,
                cap,
            } = &*shared;
            activity.enter(BUSY);
            let answer = if *lane {
                // Boxed: the lane's future is as large as the request path's, and only an
                // over-cap connection needs it.
                Ok(Box::pin(on_lane(app, req, *cap)).await)
            } else {
                H::handle(app, req, *peer).await
            };
            activity.enter(IDLE);
            answer
        }
    });
    let conn = http1::Builder::new()
        .keep_alive(true)
        .serve_connection(io, service);
    let conn = SelfWakes::new(graceful.watch(conn));
    tokio::spawn(async move {
        let _slot = slot;
        tokio::select! {
            ended = conn => if let Err(e) = ended {
                tracing::trace!(error = %e, "connection ended with an error");
            },
            why = watchdog(&watched, header, idle) => {
                tracing::debug!("closing a connection: {why}");
            }
        }
    });
}

/// Resolves when the connection has been in its head or idle phase for too long.
///
/// It sleeps at most `recheck` (the shorter timeout) at a time instead of being woken at each
/// phase change: a phase entered at or after this look has its deadline at least `recheck`
/// later, so no deadline is overslept, and a request costs no notification and no new timer.
async fn watchdog(activity: &Activity, header: Duration, idle: Duration) -> &'static str {
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let recheck = ms(header.min(idle)).max(1);
    loop {
        let phase = activity.phase.load(Ordering::Acquire);
        let since = activity.since_ms.load(Ordering::Relaxed);
        let (limit, why) = match phase {
            HEAD => (
                ms(header),
                "no complete request head within the header timeout",
            ),
            IDLE => (ms(idle), "idle for the idle timeout"),
            // A request in flight (a long poll included) is never cut by these timeouts.
            _ => (u64::MAX, ""),
        };
        let now = activity.now_ms();
        let due = since.saturating_add(limit);
        if now >= due {
            return why;
        }
        tokio::time::sleep(Duration::from_millis((due - now).min(recheck))).await;
    }
}

/// A connection over the cap: `/health` as usual, anything else a 503 that SDKs retry.
async fn on_lane<H: Handler>(app: &Arc<H>, req: Request<Incoming>, cap: usize) -> HttpResponse {
    let mut response = if req.uri().path() == "/health" && req.method() == Method::GET {
        H::health(app, req).await
    } else {
        let message = format!(
            "sqslite is serving its maximum of {cap} connections (--max-connections); retry shortly"
        );
        app.refuse_over_cap(&req, &message)
    };
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}
