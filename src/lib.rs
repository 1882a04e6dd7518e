//! sqslite: an Amazon SQS-compatible server for laptops, CI and game-day drills.
//!
//! # Layout
//!
//! The tree shows the services; each owns its protocol, actions and engine in its folder:
//!
//! - `sqs`: Amazon SQS. `sqs::protocol` tells AWS JSON 1.0 (`X-Amz-Target`) from AWS Query
//!   (form or GET `Action=`) and decodes either into one serde type (Query input by the
//!   shared bounded deserializer, `http::query`, in SQS's dialect), reads queue URLs off the
//!   request's context (`QueueUrls`) and encodes results and errors; `sqs::actions` holds the
//!   `Action` enum, one variant per operation, applied to `sqs::actions::Sqs` (the queues,
//!   the clock, the ticker's wake-up, the shutdown signal) and nothing else; each row of its
//!   list names what the operation acts on (a queue by URL or name, a dead-letter queue by
//!   ARN, a move task, or the caller's own account), which `sqs::actions::access` resolves
//!   and authorizes before the operation runs and hands it, so none runs unchecked; `sqs::engine`
//!   knows every queue rule and nothing of HTTP (the `Registry`, each queue's `Store`, the
//!   attribute table, the limits, receipt handles, FIFO, redrive, queue policies, tags,
//!   MD5s, and `at_least_once`: AWS's duplicates, loose order and approximate counts on
//!   request, from a seeded generator per queue, one branch away when off); `sqs::declare` creates declared queues before the port opens and on first use;
//!   `sqs::error` is SQS's error table.
//! - `sns`: Amazon SNS on the same port, with its own protocol (Query in, read by the same
//!   deserializer in SNS's dialect; XML out), actions (each naming the resource it acts on
//!   and the access rule it is checked by, `sns::actions::access`), engine, declarations,
//!   error table and its meeting with the fault rules (`sns::faults`). It delivers into
//!   queues only through the SQS engine's own send, as the `sns.amazonaws.com` service
//!   principal the queue's Policy must allow (`sns::engine::queue_access`), and POSTs http/s
//!   subscribers through `http::client` under the outbound rule (retries wait in its outbox;
//!   the ticker starts them when due).
//! - `triggers`: Lambda-style event source mappings: the model (`mapping`, `registry`,
//!   `functions`), one poller per enabled mapping (receiving through the SQS engine's
//!   `receive_pass`, as its mapping's account when callers are verified), the invoker (URL,
//!   Lambda Invoke API or command, whose descendants end with it: `triggers::sweep`) with
//!   Lambda's event, and `triggers::api`, Lambda's REST-JSON mapping operations.
//! - `sts`: AWS STS's GetCallerIdentity, AssumeRole and GetSessionToken (Query in, XML out):
//!   its engine holds the declared `[[roles]]` (trust policies read by the SQS engine's policy
//!   evaluator) and the temporary keys it issues, which the root hands to the auth floor as
//!   its `http::auth::TemporaryKeys`, so every service accepts them without importing STS.
//! - `s3`: Amazon S3's buckets and objects, in memory or, with `--data-dir`, as files. Its
//!   REST protocol is the `s3s` adapter's (routing into typed inputs generated from S3's
//!   model, XML, error documents); `s3::ops` implements the adapter's operations on
//!   `s3::engine` (buckets, objects, multipart uploads, listing, conditions, tags; objects'
//!   buffers shared, not copied, and counted against `--s3-max-bytes`, or files in the data
//!   directory, `s3::engine::disk`, shared likewise; every change reported to an
//!   `s3::engine::S3Journal` as an `S3Record`; nothing of HTTP), `s3::actions` is its action list, whose gate
//!   checks each operation's row before its input is read (`s3::ops`'s DeleteObjects asks it
//!   per key), `s3::wire` hands requests to the adapter unsigned with their bodies streaming
//!   through its checks (a declared SHA-256, `aws-chunked` chunk signatures and trailers) and
//!   answers back, `s3::host` says where a request names its bucket (path or virtual host),
//!   `s3::notify` sends a bucket's events into SQS queues (the SQS engine's own send), SNS
//!   topics (SNS's publish for a service) and declared functions (the triggers' invoke), as
//!   the `s3.amazonaws.com` service principal a queue's or topic's Policy must allow, and
//!   keeps the recent deliveries for the dashboard; `s3::error` is S3's error table.
//!
//! A request takes these hops:
//!
//! 1. `http::server` accepts connections (hyper 1.x, keep-alive, header and idle timeouts, a
//!    connection cap, graceful shutdown) and hands each request to its `Handler`, the
//!    router in `service`, which first asks `http::guard` whether the caller may reach it
//!    (browser origins, the admin API's Host and token). `/_sqslite/...`, the dashboard and
//!    `/metrics` go to `admin`, as does the user guide the dashboard links to: `docs/src`,
//!    compiled in and rendered by `admin::ui::guide`.
//! 2. The router is the one front door of every service, and one path for all of them: it
//!    reads the signature once (`http::auth`) and the body within its bounds
//!    (`http::request_body`), picks the service from one table (`service::claim`: a signed
//!    request is the service its scope names, an unsigned one the first whose rule it meets,
//!    Lambda's path, S3's bucket in the Host or the path, SNS's or STS's `Version`, else SQS;
//!    another service's is refused in its SDK's shape, `sqs::protocol::foreign`); a service
//!    whose bodies stream (S3's, gigabytes) is claimed by the head before any of the body is
//!    read and handed the body unread (`http::service::Streamed`), boxed off SQS's path. It
//!    verifies the signature for that service's signing name (with a declared key or one STS
//!    issued; S3's canonical path and a streamed body's declared hash included), builds the request's `http::Context` (region, account, principal, request id, URL
//!    base), runs the service inside the durable log's scope and writes one log line and the
//!    request metrics. Every service implements `http::service::Service` (SQS's is
//!    `sqs::service`); a refusal made before a service runs (a browser origin, a body over
//!    the bound, the connection cap) is answered in the words of the service the request
//!    names. The auth floor's refusals (`http::auth::AuthError`) are mapped by each
//!    service's error table.
//! 3. The service decodes its typed action, checks the fault rules (`faults`, which know a
//!    service only by its action names and error codes), authorizes the action by its
//!    list's access column and applies it. Every SQS operation but ReceiveMessage answers
//!    within the service's `handle` itself (`http::service::Handled::Now`, `Action::now`);
//!    a receive, which may park, and a call a fault rule may delay run in one boxed future
//!    (`Action::apply`), as does a request with a data directory, so the future of a
//!    request that never waits stays small (`service::future_size_tests` pins its size).
//! 4. The result (or the error) is encoded in the service's protocol.
//!
//! Observers read the services through narrow views: `observe::metrics` (exposition),
//! `observe::alarms` (DLQ depth, stalls, message age) and `observe::advisor` read queues
//! through the SQS `Registry`, SNS through `sns::engine::view`, the mappings through
//! `triggers::Triggers::observe`; the dashboard through the admin API.
//!
//! ## Layers
//!
//! Imports point down only, as the layers are named: no top-level module imports one above
//! it, so there is no import circle. `layers_tests.rs` holds the ladder and checks every
//! `crate::` path against it in `cargo test` (the shared `module-circles src` prints 0).
//!
//! - **Root**: `app` builds the `app::App` and hands each part only what it needs;
//!   `service` (the router) and `admin` serve it, `support` lends it to the package's tests.
//!   Only these name `App`. [`drill`] sits beside them: it runs the game-day drills against
//!   any endpoint through `http::client`, and its `trigger` drill starts a whole [`Server`]
//!   from a [`Config`], as the binary does; `drill::file` is the engine of drills written as
//!   files (a file's check, its start and the wait for its consumer's first poll, its looks
//!   at the server, the expectations' tracking, a failure's explanation with the advisor's
//!   findings, the JUnit verdict and the HTML report, which embeds the dashboard's `chart.js`
//!   from `admin::ui`).
//! - **Settings**: [`config`] reads flags, `sqslite.toml` and ElasticMQ files into one
//!   [`Config`]; each setting's type lives in its own module and nothing below imports
//!   `config`; they get a view (`http::context::Defaults`, `sqs::declare::Plan`,
//!   `http::guard::Exposure`). It also lists once the services fault rules may aim at.
//! - **Observers and the log**: `observe` (metrics, alarms, the advisor and `series`, the
//!   chart's recorder: samples on the server clock while the dashboard is open, marks for
//!   alarms, faults and mappings, fed by the services through the narrow traits they define,
//!   `faults::inject::Marks` and `triggers::Tally`); `durable`, which keeps queues, messages,
//!   topics, mappings and S3's buckets across restarts (`--data-dir`: the engines report every
//!   change as a record, from the only places that can make one, a queue's `Ledger`, its
//!   settings' edit, the move tasks' book, a bucket's methods; a log writer appends them and
//!   removes the object files S3 let go of once the records before are stored, recovery
//!   replays the snapshot and the log and has S3 check its files against the records; it
//!   imports the engines' states and records, never a service's protocol or actions, and no
//!   service imports it).
//! - **Services**: `triggers`, `sns` and `sts` above `sqs` (they reach it through its
//!   operations); `s3` above those (its bucket notifications reach SQS, SNS and the triggers
//!   through their operations).
//! - **Floors**: `faults` (the rules and what a hit does); `policy`, the IAM policy
//!   evaluator SQS, SNS and STS share; `http` (the accept loop, the context and "who is this
//!   caller", SigV4, the body reader, the guard, the outbound client and its rule, the
//!   response body, form decoding and the AWS Query deserializer, AWS Query's XML answers,
//!   request ids, byte splitting); `patterns`, the SNS filter-policy and Lambda event-pattern
//!   matcher; `endpoint` (a running sqslite seen from outside), `ticker` (the one background
//!   task, sleeping on the server's clock until the next deadline of its jobs), `health`
//!   (the container probe), `clock`, `owner_only` (files and folders only the server's user
//!   may read, for the log and S3's object files), and `quota`, the one rule for the counts a caller can
//!   grow (a server-wide total and each declared account's share of it), which SQS's
//!   queues, SNS's subscriptions and the event source mappings keep.
//!
//! A new service is a folder beside `sns` with its own protocol, actions and engine, a
//! service type built in `app`, an `http::service::Service` implementation and one row in
//! the router's table (`service::claim`) with its arm; STS was added so. Every module with
//! children is a folder with a `mod.rs`.
//!
//! ## The sealed engine
//!
//! The SQS engine is sealed by construction: a queue's messages, FIFO windows and counters live
//! in its `Ledger` (`sqs::engine::queue::Ledger`), whose fields are private and whose every
//! mutator reports its change as a `Mutation` to the journal under the queue's lock; the
//! queue's settings change only inside `Queue::edit`, which records them whole; the move tasks
//! only through the `Book` (`sqs::engine::task_book`). Code that changes state without its
//! record does not compile, and `seal_tests` rebuilds a registry from the records of a live one
//! after every kind of change and compares the two. Metrics and alarms read queues through
//! `Queue::observe` and `Queue::read_processing`, copies taken under one short lock.
//!
//! ## Visibility
//!
//! Every module above is `pub(crate)` but `config`, `drill` and `support`, which belong to
//! the facade: the other crates of the package (the binary, the bench, the integration
//! tests, the examples) see only this facade, each item documented (`#![warn(missing_docs)]`):
//!
//! - the embedding API at the root: [`Server`], [`Config`] and the declarations
//!   ([`QueueDecl`], [`TopicDecl`], ...), the clocks ([`ManualClock`], [`SharedClock`], ...),
//!   the errors ([`SqsError`], [`ErrorKind`]);
//! - [`config`]: `Config` with every settings type it holds, re-exported from the module that
//!   owns it ([`config::Credential`], [`config::FsyncPolicy`], [`config::Function`], ...);
//!   [`config::settings`] is the one table of every `[server]` and `[outbound]` key with its
//!   flag, variable and help, from which the file reader, `--print-config`, the command line
//!   and the guide's settings table (docs/src/configuration.md) are all made;
//! - what the binary runs besides the server: [`drill`] (each drill's options and `run`),
//!   [`doctor`] and [`probe`];
//! - [`support`], for the package's own tests, bench and examples: the decoders as the router
//!   runs them and a [`support::Queues`] fixture below HTTP.
//!
//! A test that drives engine internals lives beside them as a unit test
//! (`src/sqs/engine/tests/`) rather than widening the facade.
//!
//! ## Tests
//!
//! Unit tests sit beside the code they test, in one style:
//!
//! - a file's tests are its `#[cfg(test)] mod tests { ... }`, at its end, while the file stays
//!   under 400 lines; past that they move beside it into `x_tests.rs`, which `x.rs` declares
//!   as `#[cfg(test)] #[path = "x_tests.rs"] mod tests;`;
//! - a folder's own tests (of its `mod.rs`, or of several of its files together) are its
//!   `mod.rs`'s `#[cfg(test)] mod tests;`: `tests.rs`, or a `tests/` folder once they outgrow
//!   one file (`sqs::engine`, `patterns`);
//! - a second set with a theme of its own is named for it, `<theme>_tests` (`seal_tests`,
//!   `future_size_tests`, `wire_format_tests`), in the same places.
//!
//! The integration tests (`tests/it/`) are arranged like this tree: one folder per service,
//! floor and observer, each saying in its `mod.rs` what it holds. The SQS semantics users rely
//! on run over both protocols, AWS JSON 1.0 and AWS Query (`tests/it/sqs/scenarios/`).
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
//!   order its head became available (`sqs/engine/groups.rs`).
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
pub(crate) mod owner_only;
pub(crate) mod patterns;
pub(crate) mod policy;
pub(crate) mod quota;
pub(crate) mod s3;
pub(crate) mod server;
pub(crate) mod service;
pub(crate) mod sns;
pub(crate) mod sqs;
pub(crate) mod sts;
pub mod support;
pub(crate) mod ticker;
pub(crate) mod triggers;

#[cfg(test)]
#[path = "layers_tests.rs"]
mod layers_tests;

pub use clock::{
    Clock, ManualClock, Millis, OutOfRange, SharedClock, SleepFuture, SystemClock, LATEST,
};
pub use config::{
    ClockKind, Config, ConfigError, DeadLetter, Loaded, QueueDecl, QueueTemplate, UrlStyle,
};
pub use health::probe;
pub use observe::advisor::doctor;
pub use server::Server;
pub use sns::declare::{SubscriptionDecl, TopicDecl};
pub use sqs::error::{ErrorKind, Fault, SqsError, SqsResult};

/// The guide's Rust examples, which `cargo test` compiles as doctests and runs where they
/// start their own server: a renamed type or method fails here, not in a reader's project.
#[cfg(doctest)]
mod guide_examples {
    #[doc = include_str!("../docs/src/getting-started/rust.md")]
    struct GettingStarted;
    #[doc = include_str!("../docs/src/testing-packages.md")]
    struct TestingPackages;
}
