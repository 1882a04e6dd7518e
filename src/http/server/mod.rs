//! The accept loop: a bounded number of connections, each on its own task; accept failures back
//! off instead of spinning; graceful shutdown that answers parked long polls.

mod conn;
mod self_wake;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

use hyper::body::Incoming;
use hyper::Request;

use crate::clock::Stopwatch;
use crate::http::DropConnection;
use crate::http::HttpResponse;

/// `[server]` limits on connections: how long a client may take, how many may be open.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// A request head (the first one of a connection included) must arrive within this.
    pub header_timeout: Duration,
    /// A keep-alive connection with no request in flight is closed after this.
    pub idle_timeout: Duration,
    /// Connections served at once; `None` derives it from the open-file limit.
    pub max_connections: Option<usize>,
    /// After SIGTERM, requests in flight may finish for this long (parked long polls are
    /// answered at once).
    pub shutdown_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(75),
            max_connections: None,
            shutdown_timeout: Duration::from_secs(10),
        }
    }
}

/// The soft open-file limit (1024 if unknown), capped at 65,536.
fn open_file_limit() -> usize {
    let soft = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft);
    usize::try_from(soft).unwrap_or(usize::MAX).min(65_536)
}

/// Connections beyond the cap let in on a short lane: they get `/health` answered and anything
/// else a 503, so a full server still answers its probe and tells SDKs to retry. Each must
/// send its request within 0.25 s, so a backlog of silent connections drains at
/// `lane_size() * 4` a second: 4 to 32 places, a sixteenth of the open-file limit.
pub fn lane_size() -> usize {
    (open_file_limit() / 16).clamp(4, 32)
}

/// Connections the open-file limit allows, keeping room for the listener, logs, webhooks
/// and the over-cap lane.
pub fn default_max_connections() -> usize {
    let soft = open_file_limit();
    soft.saturating_sub(16 + soft / 8 + 2 * lane_size()).max(1)
}

/// The right to serve one connection: a place under the cap, or one on the lane.
pub enum Slot {
    Main(#[allow(dead_code)] OwnedSemaphorePermit),
    Lane(#[allow(dead_code)] OwnedSemaphorePermit),
}

struct Slots {
    main: Arc<Semaphore>,
    lane: Arc<Semaphore>,
}

impl Slots {
    /// Waits until a connection may be accepted, holding a main or a lane slot meanwhile.
    async fn ready(&self) -> Slot {
        loop {
            let got = tokio::select! {
                biased;
                p = self.main.clone().acquire_owned() => p.map(Slot::Main),
                p = self.lane.clone().acquire_owned() => p.map(Slot::Lane),
            };
            if let Ok(slot) = got {
                return slot;
            }
        }
    }

    /// The best slot once accepted: a lane slot gives way to a main one freed meanwhile.
    fn settle(&self, held: Slot) -> Slot {
        if let Slot::Lane(_) = held {
            if let Ok(main) = self.main.clone().try_acquire_owned() {
                return Slot::Main(main);
            }
        }
        held
    }
}

/// What the accept loop serves. The composition root implements it with the router, so the
/// server knows connections and nothing of the services behind them.
pub trait Handler: Send + Sync + 'static {
    /// One request from `peer` (the client's address, when the socket knows it);
    /// `Err(DropConnection)` closes the connection without an answer.
    /// The future borrows `app` from its connection, which holds one `Arc` for all of its
    /// requests: cloning the server-wide `Arc` for each request wrote its count from every
    /// core.
    fn handle(
        app: &Arc<Self>,
        req: Request<Incoming>,
        peer: Option<IpAddr>,
    ) -> impl std::future::Future<Output = Result<HttpResponse, DropConnection>> + Send + '_;

    /// `/health` on a connection over the cap, which still answers it.
    fn health(
        app: &Arc<Self>,
        req: Request<Incoming>,
    ) -> impl std::future::Future<Output = HttpResponse> + Send + '_;

    /// Any other request on a connection over the cap: a 503 in the caller's terms.
    fn refuse_over_cap(&self, req: &Request<Incoming>, message: &str) -> HttpResponse;

    /// The server stops accepting: requests that wait (parked long polls) answer now.
    fn closing(&self);
}

/// Serves `app` on `listener` within `limits` until `stop` fires, then drains.
pub async fn serve<H: Handler>(
    listener: TcpListener,
    app: Arc<H>,
    limits: Limits,
    mut stop: oneshot::Receiver<()>,
) {
    let cap = limits
        .max_connections
        .unwrap_or_else(default_max_connections);
    let slots = Slots {
        main: Arc::new(Semaphore::new(cap)),
        lane: Arc::new(Semaphore::new(lane_size())),
    };
    let graceful = GracefulShutdown::new();
    let mut backoff = Backoff::default();
    loop {
        let held = tokio::select! {
            slot = slots.ready() => slot,
            _ = &mut stop => break,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut stop => break,
        };
        match accepted {
            Ok((stream, _)) => {
                backoff.reset();
                let slot = slots.settle(held);
                conn::spawn(&app, &graceful, stream, slot, &limits, cap);
            }
            Err(e) => {
                drop(held);
                tokio::select! {
                    () = backoff.wait(&e, cap) => {}
                    _ = &mut stop => break,
                }
            }
        }
    }
    // New connections are refused from here; parked long polls answer now, empty.
    drop(listener);
    app.closing();
    if tokio::time::timeout(limits.shutdown_timeout, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            "requests still in flight after the {:?} shutdown timeout; closing them",
            limits.shutdown_timeout
        );
    }
}

/// How long to pause after a failed accept, and when to say so again.
#[derive(Default)]
struct Backoff {
    delay: Duration,
    unreported: u64,
    last_report: Option<Stopwatch>,
}

const REPORT_EVERY: Duration = Duration::from_secs(10);
const MAX_DELAY: Duration = Duration::from_secs(1);

impl Backoff {
    fn reset(&mut self) {
        self.delay = Duration::ZERO;
    }

    /// Pauses after `e`: not at all for a connection the peer already gave up on, otherwise
    /// 10 ms doubling to 1 s, so running out of file descriptors cannot spin a core.
    async fn wait(&mut self, e: &std::io::Error, cap: usize) {
        use std::io::ErrorKind::{ConnectionAborted, ConnectionReset, Interrupted};
        if matches!(e.kind(), ConnectionAborted | ConnectionReset | Interrupted) {
            tracing::debug!(error = %e, "accept: the peer left before it was accepted");
            return;
        }
        self.delay = (self.delay * 2).clamp(Duration::from_millis(10), MAX_DELAY);
        self.unreported += 1;
        if self.last_report.is_none_or(|t| t.elapsed() >= REPORT_EVERY) {
            tracing::warn!(
                error = %e,
                failures = self.unreported,
                "cannot accept connections; retrying every {:?} at most (raise the open-file \
                 limit, `ulimit -n`, or lower --max-connections, now {cap})",
                self.delay
            );
            self.unreported = 0;
            self.last_report = Some(Stopwatch::start());
        }
        tokio::time::sleep(self.delay).await;
    }
}
