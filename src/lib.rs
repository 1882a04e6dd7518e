//! sqslite: an Amazon SQS-compatible server for laptops, CI and game-day drills.
//!
//! # Layout
//!
//! A request takes four hops, each in its own place:
//!
//! 1. `server` accepts connections (hyper 1.x, HTTP/1.1 keep-alive, header and idle
//!    timeouts, a connection cap, graceful shutdown) and hands each request to whatever
//!    `server::Handler` it serves: `service`, the router, which first asks `guard`
//!    whether the caller may reach it (browser origins, the admin API's Host and token).
//! 2. `protocol` tells AWS JSON 1.0 (`X-Amz-Target`) from AWS Query (form or GET `Action=`),
//!    and turns either into an action name, its input and the caller's `protocol::Context`
//!    (region and account from the SigV4 credential, the base for queue URLs). Query input is
//!    folded into the JSON shape (`protocol::query`) so one serde type decodes both.
//!    With `[[credentials]]` configured, `auth` first checks the request's Signature V4 and
//!    makes the context act as the key's account (its principal then meets queue policies).
//! 3. `actions` holds the `actions::Action` enum, one variant per SQS operation, with the
//!    input and output types of each family (`queues`, `send`, `receive`, …). Applying an
//!    action takes the SQS service's state, `actions::Sqs` (the queues, the clock, the
//!    ticker's wake-up and the shutdown signal), and nothing else of the server. Every
//!    operation but ReceiveMessage answers at once (`actions::Started::Done`); a receive,
//!    which may park, comes back as a boxed future, as do requests with faults armed or a
//!    data directory (`service::execute`). So the future of a request that never waits holds
//!    no long poll's state, and hyper moves a small future into place for each request.
//! 4. `engine` knows every queue rule and nothing of HTTP: the `engine::Registry` of
//!    queues, each queue's messages in a `engine::store::Store`, attributes (one row each in
//!    `engine::attribute_table`, every numeric limit in `engine::limits`), receipt
//!    handles, FIFO, redrive, queue policies (`engine::policy`), tags (`engine::tags`,
//!    which TagQueue and declarations share) and MD5s. The result (or the one
//!    `error::SqsError`) goes back through `protocol` to JSON or XML.
//!
//! A request for a service sqslite does not serve (an S3 call, another `X-Amz-Target`) is
//! refused in its SDK's shape by `protocol::foreign`, naming what sqslite serves.
//!
//! `sns` is a second service on the same port, with its own protocol, actions, engine and
//! error table: `service` hands it the requests whose credential scope names `sns` (or,
//! unsigned, whose `Version` or action is SNS's). The router is the one front door of every
//! service (SQS, SNS, the Lambda API): it reads the body within its bounds and the signature
//! once, verifies it for the service's signing name, builds the request's `Context` and runs
//! the service in the durable scope; each service authenticates by that verdict and each
//! operation is authorized by the rule its action list gives it (SNS:
//! `sns::actions::access`). The auth floor's refusals (`auth::AuthError`) are mapped by each
//! service's own error table. The `sns::Service` holds its topics, the SQS state it delivers
//! into, the fault rules it is lent (`sns::FaultRules`) and the two settings it reads;
//! `sns::declare` creates the declared topics; its actions deliver through the SQS engine's own
//! `engine::queue::Queue::send`, so a topic writes queues only as a client would, POST
//! the http/s ones through `http_client` (retries wait in the SNS outbox and the
//! `ticker` starts them when due on the server's clock), and record the rest for
//! `/_sqslite/sns/deliveries`. Topic policies are read by the queues' `engine::policy`.
//! Observers read SNS only through `sns::engine::view` (topics, subscriptions and the
//! counts `sns::engine::counts` keeps under CloudWatch's SNS metric names): `/metrics`,
//! the advisor's subscription rules and the dashboard's Topics page with its filter-policy
//! test (`patterns::FilterPolicy::explain`).
//!
//! `triggers` is the third service: Lambda-style event source mappings. Its model
//! (`triggers::mapping`, `triggers::registry`, `triggers::functions`) is what
//! `sqslite.toml` declares and the Lambda API edits; its runtime (`triggers::runtime`) runs
//! one poller per enabled mapping, receiving through the SQS engine's own
//! `engine::Registry::receive_pass` (so receive counts and redrive apply), invoking the
//! declared function (`triggers::invoke`: URL, Lambda Invoke API or command; `Invoke`
//! fault rules may fail or delay it first) with Lambda's event (`triggers::event`) and
//! deleting what succeeded; each invocation and error feeds its queue's chart (`series`).
//! Its management API, `triggers::api`, answers Lambda's event-source-mapping operations
//! (REST-JSON under `/2015-03-31/event-source-mappings`): `service` hands it the requests
//! whose credential scope names `lambda` (or, unsigned, whose path is under `/2015-03-31/`);
//! it checks each mapping with the same model rules as declared ones. Observers read the
//! mappings through `triggers::Triggers::observe` (each mapping's copy with its
//! `triggers::stats`): `/metrics`, and the admin API's `/_sqslite/mappings` behind the
//! dashboard's Triggers page, whose enable/disable switch runs UpdateEventSourceMapping's
//! own code.
//!
//! ## Layers
//!
//! Imports point down only; no top-level module imports one above it, so there is no
//! import circle (`module-circles src`, in the shared tools, prints 0):
//!
//! - **Root**: `app` builds the `app::App` and hands each part only what it needs (the
//!   SQS state, the SNS and triggers services, the fault rules' `faults::inject::Injector`,
//!   the chart's recorder, `app::App::ticker_jobs`, the stores to compact,
//!   `app::App::stores`);
//!   `service` (the router) and `admin` (`/_sqslite/...`, the dashboard, `/metrics`) serve
//!   it. Only these two name `App`. [`drill`] sits beside them: it runs the game-day drills
//!   against any endpoint through `http_client`, and its `trigger` drill starts a whole
//!   [`Server`] and handler from a [`Config`], as the binary does.
//! - **Settings**: [`config`] reads flags, `sqslite.toml` and ElasticMQ files into one
//!   [`Config`]; each setting's type lives in its own module (`server::Limits`,
//!   `guard::AccessConfig`, `alarms::AlarmConfig`, `advisor::Thresholds`,
//!   `durable::FsyncPolicy`, `auth::Credential`, `declare::QueueDecl`,
//!   `sns::declare::TopicDecl`, `triggers::TriggersConfig`) and nothing below imports
//!   `config`; they get a view (`protocol::context::Defaults`, `declare::Plan`,
//!   `guard::Exposure`).
//! - **Plumbing**: `server`, `guard`, and `ticker`, the one background task, sleeping on
//!   the server's clock until the next deadline of the jobs it was handed (move tasks, alarms,
//!   SNS's HTTP/S deliveries, the chart's samples).
//! - **Observers**: `metrics` (exposition), `alarms` (DLQ depth, stalls, message age) and
//!   `advisor` read the queues through `engine::Registry` and their own settings.
//! - **Services**: `triggers`, above `faults` (the rules of all three services: errors
//!   before an SQS or SNS action runs, into SNS's deliveries, on invocations; it reads SQS's
//!   and SNS's action names and error tables, and SNS meets it through the
//!   `sns::FaultRules` it is lent), above `sns`, above SQS (`protocol`, `actions`,
//!   `declare`, which creates declared queues before the port opens and on first use).
//! - **Floors**: `series`, the chart's recorder: while the dashboard is open it samples each
//!   queue's counts and oldest age on the server clock (the ticker's job), and keeps alarm
//!   changes and fault hits as marks and the trigger mappings' named series, which
//!   `alarms`, `faults` and `triggers` write into;
//!   `engine`; `durable`, which keeps queues, messages and SNS topics across restarts
//!   (`--data-dir`: the engine reports every change as an `engine::mutation::Mutation`,
//!   from the only places that can make one: a queue's `engine::queue::Ledger`, its
//!   settings' edit, the move tasks' book; SNS
//!   as an `sns::engine::state::SnsRecord`, the mappings as a
//!   `triggers::journal::MappingRecord`, a log writer appends it, recovery replays the
//!   snapshot and the log; of SNS and triggers it imports only their state and records,
//!   never their protocols or actions, and the router runs each service's request inside
//!   the log's scope, so no service imports `durable`);
//!   `auth`; `http` (the response body, streamed for the large ones, form decoding,
//!   byte splitting in `http::text`, `http::DropConnection`); `http_client` and
//!   `endpoint` (a running sqslite seen from outside); `health`, the container probe; `patterns`, the SNS
//!   filter-policy / Lambda event-pattern matcher; `clock` and `error`.
//!
//! A new service is a folder beside `sns` with its own protocol, actions and engine, a state
//! type built in `app`, and one registration in `service`.
//!
//! ## Visibility
//!
//! Every module above is `pub(crate)`: the other crates of the package (the binary, the
//! bench, the integration tests, the examples) see only this facade, each item documented
//! (`#![warn(missing_docs)]`):
//!
//! - the embedding API at the root: [`Server`], [`Config`] and the declarations
//!   ([`QueueDecl`], [`TopicDecl`], ...), the clocks ([`ManualClock`], [`SharedClock`], ...),
//!   the errors ([`SqsError`], [`ErrorKind`]);
//! - [`config`]: `Config` with every settings type it holds, re-exported from the module that
//!   owns it ([`config::Credential`], [`config::FsyncPolicy`], [`config::Function`], ...);
//! - what the binary runs besides the server: [`drill`] (each drill's options and `run`),
//!   [`doctor`] and [`probe`];
//! - [`support`], for the package's own tests, bench and examples: the decoders as the router
//!   runs them and a [`support::Queues`] fixture below HTTP.
//!
//! A test that drives engine internals lives beside them as a unit test
//! (`src/engine/tests/`) rather than widening the facade.
//!
//! # Glossary
//!
//! - **Queue**: one SQS queue, its attributes and messages behind one short-held mutex.
//! - **Message**: a body with attributes; visible when `visible_at <= now`.
//! - **ReceiptHandle**: names the queue, the message and which receive issued it.
//! - **Waiter**: a long-polling ReceiveMessage parked on its queue's `Notify`. One waiter is
//!   woken per message sent or FIFO group released (delete of the group's in-flight head);
//!   all are woken by a visibility made shorter (e.g. 0) or the queue's deletion; each also
//!   wakes itself when the clock reaches the next visibility deadline.
//! - **Group**: a FIFO message group; receivable while its head is visible, served in the
//!   order its head became available (`engine/groups.rs`).
//! - **MoveTask**: a StartMessageMoveTask redrive, moving messages at a bounded rate.
//! - **Mapping**: an event source mapping: a queue, a function, batching and filter
//!   settings and a State; its **poller** gathers batches and invokes the function.
//! - **Ticker**: the single background task that wakes at the next deadline of its jobs (move
//!   tasks, alarms, SNS's HTTP/S retries, the chart's samples) on the server's clock
//!   (visibility and retention need none: they settle lazily).
//!
//! # Embedding
//!
//! Add sqslite as a dev-dependency and start one server per test: it listens on an ephemeral
//! loopback port, creates the declared queues before it serves anything, and stops when the
//! [`Server`] is dropped. [`Server::start`], [`Server::start_with_clock`], [`Server::endpoint`],
//! [`Server::queue_url`], [`Server::manual_clock`] and [`Server::shutdown`] are the stable API;
//! [`Config::from_file`] reads the same `sqslite.toml` the binary takes, into a [`Loaded`]
//! (the configuration and the warnings for settings it did not carry over).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> std::io::Result<()> {
//! use sqslite::{Config, QueueDecl, Server};
//!
//! let config = Config::ephemeral()
//!     .with_queue(QueueDecl::new("orders-dlq"))
//!     .with_queue(
//!         QueueDecl::new("orders")
//!             .attribute("VisibilityTimeout", 60)
//!             .dead_letter("orders-dlq", 3),
//!     );
//! let server = Server::start(config).await?;
//! // Give any AWS SDK this endpoint; the queues already exist.
//! let endpoint = server.endpoint();
//! assert_eq!(server.queue_url("orders"), format!("{endpoint}/000000000000/orders"));
//! server.shutdown().await;
//! # Ok(()) }
//! ```

#![warn(clippy::too_many_lines)]
#![warn(missing_docs)]

pub(crate) mod admin;
pub(crate) mod app;
pub(crate) mod clock;
pub mod config;
pub mod drill;
pub(crate) mod durable;
pub(crate) mod endpoint;
pub(crate) mod faults;
pub(crate) mod health;
pub(crate) mod http;
pub(crate) mod observe;
pub(crate) mod patterns;
pub(crate) mod series;
pub(crate) mod service;
pub(crate) mod sns;
pub(crate) mod sqs;
pub mod support;
pub(crate) mod ticker;
pub(crate) mod triggers;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use clock::{
    Clock, ManualClock, Millis, OutOfRange, SharedClock, SleepFuture, SystemClock, LATEST,
};
pub use config::{
    ClockKind, Config, ConfigError, DeadLetter, Loaded, QueueDecl, QueueTemplate, UrlStyle,
};
pub use health::probe;
pub use observe::advisor::doctor;
pub use sns::declare::{SubscriptionDecl, TopicDecl};
pub use sqs::error::{ErrorKind, Fault, SqsError, SqsResult};

/// A running sqslite server; it stops when dropped or when [`Server::shutdown`] is awaited.
pub struct Server {
    addr: SocketAddr,
    app: Arc<app::App>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
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
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        let app = Arc::new(match &config.data_dir {
            None => app::App::new(config, clock),
            Some(dir) => {
                let mode = if config.repair {
                    durable::Mode::Repair
                } else {
                    durable::Mode::Strict
                };
                let (registry, sns, mappings, durable) =
                    durable::mode::open(dir, config.fsync, config.strict, mode, clock.now())
                        .map_err(|e| std::io::Error::other(e.to_string()))?;
                let stores = (registry, sns, mappings);
                app::App::with_registry(config, clock, stores, Some(durable))
            }
        });
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
