//! The sample consumer (`sqslite drill consumer`, or `--sample-consumer` on a drill) and the
//! cleanup a failed drill does: both talk plain SQS, as an application would.
//!
//! The sample consumer's rule is the drills' message format: a body that parses as JSON is
//! processed and deleted; any other body "crashes the handler", so the message is left to come
//! back after its visibility timeout until the queue's RedrivePolicy dead-letters it.

use std::time::Duration;

use serde_json::{json, Value};

use super::{Endpoint, RUN_ATTRIBUTE};

/// `sqslite drill consumer`: the sample consumer on its own, until interrupted.
#[derive(Debug, Clone, clap::Args)]
pub struct ConsumerOptions {
    /// The sqslite endpoint, e.g. http://localhost:9324.
    #[arg(long, default_value = "http://127.0.0.1:9324")]
    pub endpoint: String,
    /// The queue to consume.
    #[arg(long)]
    pub queue: String,
    /// Wall time to wait after an empty receive (10 to 60000 ms).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(super::file::bounds::LOOK_MS))]
    pub poll_ms: u64,
}

/// Runs the sample consumer in the foreground, printing its tally as it changes.
pub async fn run(opts: &ConsumerOptions) -> Result<(), String> {
    let ep = Endpoint::new(&opts.endpoint);
    let (url, _) = super::queue_url(&ep, &opts.queue).await?;
    println!(
        "sample consumer on {}: deletes JSON bodies, leaves any other body to be retried \
         (Ctrl-C stops)",
        opts.queue
    );
    let pause = Duration::from_millis(opts.poll_ms);
    consume(&ep, &url, pause, |t| {
        println!("  deleted {}, failed {}", t.deleted, t.failed);
    })
    .await;
    Ok(())
}

/// What the sample consumer did so far.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Tally {
    pub deleted: u64,
    pub failed: u64,
}

/// What the sample consumer does with a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rule {
    /// Deletes JSON bodies; any other body "crashes the handler" (the drills' format).
    Json,
    /// Deletes every message (the consumer once its bug is fixed).
    All,
    /// Fails every message: its downstream is out.
    None,
    /// Receives and never deletes: looks busy, moves nothing.
    NeverDelete,
}

impl Rule {
    /// The rule a drill file names.
    pub(crate) fn named(name: &str) -> Option<Rule> {
        match name {
            "json" => Some(Rule::Json),
            "all" => Some(Rule::All),
            "none" => Some(Rule::None),
            "never-delete" => Some(Rule::NeverDelete),
            _ => None,
        }
    }

    /// Whether the handler succeeds on `body`; `None` when it neither succeeds nor fails.
    fn handles(self, body: &str) -> Option<bool> {
        match self {
            Rule::Json => Some(serde_json::from_str::<Value>(body).is_ok()),
            Rule::All => Some(true),
            Rule::None => Some(false),
            Rule::NeverDelete => None,
        }
    }
}

/// The sample consumer's behaviour, changeable while it runs (a drill's "fix" step).
#[derive(Debug, Clone)]
pub(crate) struct Behaviour {
    /// What it does with a message.
    pub rule: Rule,
    /// On a failure: re-send the message to this queue URL with this DelaySeconds and delete
    /// it, instead of leaving it to come back (a retry queue with backoff).
    pub retry: Option<(String, u64)>,
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour {
            rule: Rule::Json,
            retry: None,
        }
    }
}

/// The behaviour, shared between the consumer and whoever changes it.
pub(crate) type Shared = std::sync::Arc<std::sync::Mutex<Behaviour>>;

/// Receives from `url` until the task is dropped, deleting JSON bodies and leaving the rest.
/// Short polls with a pause between empty ones: it works on a manual clock too, where a long
/// poll would wait for someone to advance time.
pub(crate) async fn consume(
    ep: &Endpoint,
    url: &str,
    pause: Duration,
    on_batch: impl FnMut(Tally),
) {
    let shared = Shared::default();
    consume_with(ep, &[url.to_owned()], pause, &shared, on_batch).await;
}

/// Receives from each of `urls` in turn until the task is dropped, doing with each message
/// what the shared behaviour says at the time.
pub(crate) async fn consume_with(
    ep: &Endpoint,
    urls: &[String],
    pause: Duration,
    shared: &Shared,
    mut on_batch: impl FnMut(Tally),
) {
    let mut tally = Tally::default();
    loop {
        let mut any = false;
        for url in urls {
            let input = json!({
                "QueueUrl": url,
                "MaxNumberOfMessages": 10,
                "WaitTimeSeconds": 0,
                "MessageAttributeNames": ["All"],
                "AttributeNames": ["MessageGroupId"],
            });
            let messages = match ep.sqs("ReceiveMessage", &input).await {
                Ok(out) => out["Messages"].as_array().cloned().unwrap_or_default(),
                // An outage drill answers errors for a while: keep trying, as a consumer should.
                Err(_) => Vec::new(),
            };
            any |= !messages.is_empty();
            let behaviour = shared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone();
            // A FIFO group stops at its first failure: the rest of the group in this batch is
            // left to come back after it, in order, as AWS advises FIFO consumers.
            let mut stopped: Vec<String> = Vec::new();
            for m in &messages {
                let group = m["Attributes"]["MessageGroupId"]
                    .as_str()
                    .map(str::to_owned);
                if group.as_ref().is_some_and(|g| stopped.contains(g)) {
                    continue;
                }
                if !handle(ep, url, m, &behaviour, &mut tally).await {
                    stopped.extend(group);
                }
            }
        }
        if any {
            on_batch(tally);
        } else {
            tokio::time::sleep(pause).await;
        }
    }
}

/// One received message, as `behaviour` says; false when the handler failed on it.
async fn handle(
    ep: &Endpoint,
    url: &str,
    m: &Value,
    behaviour: &Behaviour,
    tally: &mut Tally,
) -> bool {
    let body = m["Body"].as_str().unwrap_or_default();
    let handle = m["ReceiptHandle"].as_str().unwrap_or_default();
    let delete = json!({"QueueUrl": url, "ReceiptHandle": handle});
    match behaviour.rule.handles(body) {
        Some(true) => {
            if ep.sqs("DeleteMessage", &delete).await.is_ok() {
                tally.deleted += 1;
            }
            true
        }
        Some(false) => {
            tally.failed += 1;
            if let Some((retry_url, delay)) = &behaviour.retry {
                let mut resend = json!({
                    "QueueUrl": retry_url,
                    "MessageBody": body,
                    "DelaySeconds": delay,
                });
                if m["MessageAttributes"].is_object() {
                    resend["MessageAttributes"] = m["MessageAttributes"].clone();
                }
                if ep.sqs("SendMessage", &resend).await.is_ok() {
                    let _ = ep.sqs("DeleteMessage", &delete).await;
                }
            }
            false
        }
        None => true,
    }
}

/// Deletes this run's messages from `queue` by receiving them (there is no other SQS way);
/// other messages received on the way are made visible again at once. Returns how many of
/// this run's messages it deleted; messages in flight with a consumer cannot be reached.
pub(crate) async fn remove_run(ep: &Endpoint, queue: &str, run: &str) -> Result<usize, String> {
    let (url, _) = super::queue_url(ep, queue).await?;
    let mut removed = 0;
    // Bounded: each pass takes up to ten messages; a queue of strangers cannot keep us here.
    for _ in 0..200 {
        if super::count_of_run(&super::messages(ep, queue).await?, run) == 0 {
            break;
        }
        let input = json!({
            "QueueUrl": url,
            "MaxNumberOfMessages": 10,
            "WaitTimeSeconds": 0,
            "MessageAttributeNames": [RUN_ATTRIBUTE],
        });
        let out = ep.sqs("ReceiveMessage", &input).await?;
        let messages = out["Messages"].as_array().cloned().unwrap_or_default();
        if messages.is_empty() {
            break;
        }
        let before = removed;
        for m in &messages {
            let handle = m["ReceiptHandle"].as_str().unwrap_or_default();
            let ours = super::run_of(&m["MessageAttributes"], &m["Body"]).as_deref() == Some(run);
            if ours {
                let input = json!({"QueueUrl": url, "ReceiptHandle": handle});
                ep.sqs("DeleteMessage", &input).await?;
                removed += 1;
            } else {
                let input =
                    json!({"QueueUrl": url, "ReceiptHandle": handle, "VisibilityTimeout": 0});
                ep.sqs("ChangeMessageVisibility", &input).await?;
            }
        }
        if removed == before {
            break; // only strangers at the head; ours are in flight elsewhere
        }
    }
    Ok(removed)
}

/// A spawned task that stops when this is dropped, whichever way the drill ends.
pub(crate) struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl AbortOnDrop {
    /// Stops `task` when this drops.
    pub(crate) fn new(task: tokio::task::JoinHandle<()>) -> Self {
        AbortOnDrop(task)
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
