//! The embedding API's server: [`Server`] starts the composition root on a listener, serves
//! it through the router and stops it when dropped or shut down, as the binary does.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::{app, clock, durable, http, ticker, triggers};
use crate::{ClockKind, Config, ManualClock, SystemClock};

/// The declared functions' URLs and the alarm webhook, against the outbound rule as far as
/// it can tell before they are called (a `deny` entry, a refused address): refused, the
/// server does not start.
fn outbound_endpoints(config: &Config) -> Result<(), String> {
    let rule = http::outbound::Outbound::new(&config.outbound, !config.credentials.is_empty());
    let functions = config
        .triggers
        .functions
        .iter()
        .filter_map(|f| match &f.target {
            triggers::Target::Url(u) | triggers::Target::InvokeUrl(u) => {
                Some((format!("function `{}`", f.name), u.as_str()))
            }
            triggers::Target::Command(_) => None,
        });
    let webhook =
        (config.admin.alarms.webhook.as_deref()).map(|u| ("[alarms] webhook".to_owned(), u));
    for (what, url) in functions.chain(webhook) {
        let Ok(uri) = url.parse::<hyper::Uri>() else {
            continue;
        };
        let Some(authority) = uri.authority() else {
            continue;
        };
        let port = authority.port_u16().unwrap_or(80);
        if let Some(why) = rule.refuses_endpoint(authority.host(), port) {
            return Err(format!("{what}: sqslite does not connect to {url}: {why}"));
        }
    }
    Ok(())
}

/// A running sqslite server; it stops when dropped or when [`Server::shutdown`] is awaited.
pub struct Server {
    addr: SocketAddr,
    app: Arc<app::App>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

/// The app over fresh engines, or over what the data directory holds (`--data-dir`).
fn build(config: Config, clock: clock::SharedClock) -> std::io::Result<app::App> {
    let Some(dir) = &config.data_dir else {
        return Ok(app::App::new(config, clock));
    };
    let mode = if config.repair {
        durable::Mode::Repair
    } else {
        durable::Mode::Strict
    };
    let opened = durable::mode::open(
        dir,
        config.fsync,
        config.strict,
        mode,
        clock.now(),
        config.s3.max_bytes,
    )
    .map_err(|e| std::io::Error::other(e.to_string()))?;
    let stores = (
        opened.registry,
        opened.sns,
        opened.mappings,
        Some(opened.s3),
    );
    Ok(app::App::with_registry(
        config,
        clock,
        stores,
        Some(opened.durable),
    ))
}

impl Server {
    /// Creates the declared queues, then binds the configured address and starts serving;
    /// queues live in memory only. A declaration SQS would refuse fails with `InvalidInput`.
    pub async fn start(config: Config) -> std::io::Result<Server> {
        let clock: clock::SharedClock = match config.clock {
            ClockKind::System => Arc::new(SystemClock),
            ClockKind::Manual => Arc::new(ManualClock::starting_now()),
        };
        Server::start_with_clock(config, clock).await
    }

    /// Starts with a clock of the caller's choosing (a [`ManualClock`] in tests).
    pub async fn start_with_clock(
        config: Config,
        clock: clock::SharedClock,
    ) -> std::io::Result<Server> {
        config
            .access
            .check()
            .and_then(|()| config.outbound.check())
            .and_then(|()| outbound_endpoints(&config))
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        let app = Arc::new(build(config, clock)?);
        // Queues first: nothing can connect, so `/health` and every request see them all.
        app.declare_all()
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        for spec in &app.config.admin.faults {
            app.faults.add(spec.clone(), app.now()).map_err(|e| {
                std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("fault rule: {e}"))
            })?;
        }
        let (host, port) = (app.config.host.as_str(), app.config.port);
        // io::Error alone says "Address already in use" without saying which address.
        let listener = TcpListener::bind((host, port)).await.map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot listen on {host}:{port}: {e}"))
        })?;
        let addr = listener.local_addr()?;
        app.outbound.listening_on(addr);
        app.sns.listening_on(addr, app.config.public_url.as_deref());
        if let Some(warning) = http::guard::exposure_warning(&app.config) {
            tracing::warn!("{warning}");
        }
        let (stop, stopped) = oneshot::channel();
        let served = app.clone();
        let ticker = tokio::spawn(ticker::run(
            app.clock.clone(),
            app.ticker.clone(),
            app.ticker_jobs(),
        ));
        let triggers = tokio::spawn(triggers::runtime::run(app.triggers.clone()));
        let task = tokio::spawn(async move {
            let limits = served.config.connections.clone();
            http::server::serve(listener, served, limits, stopped).await;
            ticker.abort();
            // Stops every poller and, with them, their invocations.
            triggers.abort();
        });
        Ok(Server {
            addr,
            app,
            stop: Some(stop),
            task: Some(task),
        })
    }

    /// The address the server listens on (the port chosen when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL to give an SQS client as its endpoint.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The URL of a queue of the default region and account, on this server's endpoint.
    pub fn queue_url(&self, name: &str) -> String {
        format!("{}/{}/{name}", self.endpoint(), self.app.config.account_id)
    }

    /// The server's clock if it is manual, to advance time from a test.
    pub fn manual_clock(&self) -> Option<ManualClock> {
        self.app.clock.as_manual().cloned()
    }

    /// Stops accepting, answers parked long polls (empty), lets in-flight requests finish
    /// within the configured shutdown timeout, and waits for the server.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
