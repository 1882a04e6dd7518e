//! The accept loop: one task per connection, HTTP/1.1 keep-alive, graceful shutdown.

use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::app::App;
use crate::service;

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

/// Connections the open-file limit allows, keeping room for the listener, logs, webhooks
/// and the over-cap lane.
pub fn default_max_connections() -> usize {
    let soft = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft);
    let soft = usize::try_from(soft).unwrap_or(usize::MAX).min(65_536);
    soft.saturating_sub(16 + soft / 8 + 16).max(1)
}

/// How long in-flight requests (long polls included) may finish after a shutdown request.
const DRAIN: Duration = Duration::from_secs(2);

pub async fn serve(listener: TcpListener, app: Arc<App>, mut stop: oneshot::Receiver<()>) {
    let graceful = GracefulShutdown::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let app = app.clone();
                let conn = http1::Builder::new()
                    .keep_alive(true)
                    .serve_connection(
                        TokioIo::new(stream),
                        service_fn(move |req| service::handle(app.clone(), req)),
                    );
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    if let Err(e) = conn.await {
                        tracing::trace!(error = %e, "connection ended with an error");
                    }
                });
            }
            _ = &mut stop => break,
        }
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::debug!("connections still open after the drain period; closing them");
    }
}
