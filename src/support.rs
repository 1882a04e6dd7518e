//! The facade for the package's own tests, bench and examples: what they reach below the server.
//!
//! Everything else of the crate is `pub(crate)`; this module lends out only what a test or a
//! measurement needs and cannot see through HTTP: the decoders as the router runs them, an
//! engine's queues without a server (in memory or in a data directory), and a few figures.

use std::collections::BTreeMap;
use std::io;
use std::mem::size_of;
use std::path::Path;
use std::sync::Arc;

use hyper::header::{HeaderMap, HeaderValue, CONTENT_TYPE};
use hyper::Method;

use crate::app::App;
use crate::clock::{Clock, ManualClock, SystemClock};
use crate::sqs::actions::Action;
use crate::sqs::engine::arn::QueueKey;
use crate::sqs::engine::message::NewMessage;
use crate::sqs::error::SqsError;
use crate::sqs::protocol::{self, Input};

pub use crate::http::guard::exposure_warning;
pub use crate::http::request_body::MAX_BODY_BYTES;
pub use crate::http::server::lane_size;
pub use crate::sqs::engine::md5::of_body as md5_of_body;

/// Every SQS operation name the decoders know, as `X-Amz-Target` and `Action=` spell them.
pub const ACTION_NAMES: &[&str] = Action::NAMES;

/// Each SQS operation with what its row of the action list says it acts on: `Url`, `Named`,
/// `Source`, `Redrive`, `Task` (a queue, whose Policy decides) or `Create`, `Account` (the
/// caller's own account).
pub const SQS_ACCESS: &[(&str, &str)] = Action::ACCESS;

/// The SQS operations no queue Policy grants another account.
pub const SQS_OWNER_ONLY: &[&str] = crate::sqs::engine::permissions::OWNER_ONLY;

/// Each SNS operation with its access rule (`Own`, `Topic`, `Subscription`…) and IAM action.
pub const SNS_ACCESS: &[(&str, &str, &str)] = crate::sns::actions::Action::ACCESS;

/// The IAM actions a topic Policy may grant another account.
pub const SNS_GRANTABLE: &[&str] = crate::sns::actions::permissions::GRANTABLE;

/// Every STS operation name, as `Action=` spells it.
pub const STS_ACTION_NAMES: &[&str] = crate::sts::actions::Action::NAMES;

/// Every SNS operation name, as `Action=` spells it.
pub const SNS_ACTION_NAMES: &[&str] = crate::sns::actions::Action::NAMES;

/// Each S3 operation with its access rule (`Own`, `Bucket`, `Object`, `Owner`, `Keys`,
/// `Copy`) and IAM action (`s3:<action>`).
pub const S3_ACCESS: &[(&str, &str, &str)] = crate::s3::actions::TABLE;

/// Every operation of the Lambda API sqslite serves.
pub const LAMBDA_OPERATION_NAMES: &[&str] = crate::triggers::api::route::Operation::NAMES;

/// Decodes a Query form body as the router does; errors are fine, a panic is a bug.
pub fn decode_query(body: &[u8]) {
    let mut headers = HeaderMap::new();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-www-form-urlencoded"),
    );
    let Ok(params) = protocol::query_params(None, &headers, body) else {
        return;
    };
    let (_, action) = protocol::detect(&Method::POST, &headers, &params);
    if let Ok(name) = action {
        let input = Input::Query {
            params: &params,
            action: &name,
            path_queue: Some("/000000000000/q"),
        };
        let _ = Action::decode(&name, input);
    }
}

/// Decodes a JSON 1.0 body for the operation `name`; errors are fine, a panic is a bug.
pub fn decode_json(name: &str, body: &[u8]) {
    let _ = Action::decode(name, Input::Json(body));
}

/// The in-memory size of an empty queue's parts, largest first as they nest (name, bytes).
pub fn queue_part_sizes() -> Vec<(&'static str, usize)> {
    use crate::sqs::engine::{attributes, fifo, processing, queue, store};
    vec![
        ("Queue", size_of::<queue::Queue>()),
        ("  QueueState", size_of::<queue::QueueState>()),
        ("    Store", size_of::<store::Store>()),
        (
            "    QueueAttributes",
            size_of::<attributes::QueueAttributes>(),
        ),
        ("    Stats", size_of::<queue::Stats>()),
        (
            "    Processing (boxed at first sample)",
            size_of::<processing::Processing>(),
        ),
        ("    Dedup", size_of::<fifo::Dedup>()),
        ("    Attempts", size_of::<fifo::Attempts>()),
        ("  Notify", size_of::<tokio::sync::Notify>()),
        ("  QueueKey", size_of::<QueueKey>()),
    ]
}

/// The queues of one SQS service (with its alarms) and no server, in the default region and
/// account: what the bench and the memory example measure below HTTP.
pub struct Queues {
    /// The whole composition, as a server would build it, minus the port.
    app: App,
}

impl Queues {
    /// Fresh queues in memory, on a manual clock starting now.
    pub fn in_memory() -> Queues {
        let clock = Arc::new(ManualClock::starting_now());
        Queues {
            app: App::new(crate::Config::ephemeral(), clock),
        }
    }

    /// The queues of a data directory, recovered as `--data-dir` does at start (strict
    /// recovery, fsync never), on the system clock; an empty directory starts empty.
    pub fn open(dir: &Path) -> io::Result<Queues> {
        let config = crate::Config::ephemeral();
        let clock: crate::SharedClock = Arc::new(SystemClock);
        let mode = crate::durable::Mode::Strict;
        let policy = crate::durable::FsyncPolicy::Never;
        let opened = crate::durable::mode::open(
            dir,
            policy,
            false,
            mode,
            SystemClock.now(),
            config.s3.max_bytes,
        )
        .map_err(|e| io::Error::other(e.to_string()))?;
        let stores = (
            opened.registry,
            opened.sns,
            opened.mappings,
            Some(opened.s3),
        );
        Ok(Queues {
            app: App::with_registry(config, clock, stores, Some(opened.durable)),
        })
    }

    /// Creates the queue `name` with CreateQueue's `attributes` (by SQS's names).
    pub fn create(&self, name: &str, attributes: &[(&str, &str)]) -> Result<(), SqsError> {
        let key = QueueKey::new("us-east-1", &self.app.config.account_id, name);
        let attributes: BTreeMap<String, String> = attributes
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let registry = &self.app.sqs.registry;
        registry.create(key, &attributes, BTreeMap::new(), self.app.now())?;
        Ok(())
    }

    /// Sends `n` copies of `body` to the queue `name`, all at one instant.
    pub fn fill(&self, name: &str, n: usize, body: &str) -> Result<(), SqsError> {
        let key = QueueKey::new("us-east-1", &self.app.config.account_id, name);
        let queue = self.app.sqs.registry.get(&key)?;
        let sender: Arc<str> = Arc::from("bench");
        let now = self.app.now();
        for _ in 0..n {
            let message = NewMessage {
                body: body.to_owned(),
                sender_id: sender.clone(),
                ..NewMessage::default()
            };
            queue.send(message, now)?;
        }
        Ok(())
    }

    /// Messages held in every queue: visible, in flight and delayed.
    pub fn queued(&self) -> usize {
        let now = self.app.now();
        let all = self.app.sqs.registry.all();
        all.iter()
            .map(|q| {
                let d = q.depth(now);
                d.visible + d.in_flight + d.delayed
            })
            .sum()
    }

    /// Writes a snapshot of the data directory and starts a new log (no-op in memory).
    pub fn compact(&self) -> io::Result<()> {
        if let Some(durable) = &self.app.durable {
            durable.compact(self.app.stores(), self.app.now())?;
        }
        Ok(())
    }

    /// Runs one round of the alarms over every queue; returns how many fire.
    pub fn evaluate_alarms(&self) -> usize {
        let registry = &self.app.sqs.registry;
        self.app.alarms.evaluate(registry, self.app.now()).len()
    }
}
