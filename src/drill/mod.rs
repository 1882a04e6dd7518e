//! Game-day drills run against a live server and its real consumers: `sqslite drill <name>`
//! sends the scenario's messages, watches through the admin API and reports timed checks.

pub mod consumer;
pub mod file;
pub(crate) mod handler;
pub mod outage;
pub mod poison;
pub mod triggered;

use std::fmt::Write as _;
use std::io::Write;

use serde_json::{json, Value};

pub(crate) use crate::endpoint::Endpoint;
use file::bounds::{LOOK_MS, MAX_COUNT, MAX_SECONDS};

/// Every drill, for `sqslite drill` with no name.
pub(crate) const DRILLS: &[(&str, &str)] = &[
    (
        "poison",
        "one malformed message ahead of a valid batch: does the batch drain, does the poison \
         reach the DLQ within maxReceiveCount x VisibilityTimeout, does the DLQ alarm fire",
    ),
    (
        "outage",
        "ServiceUnavailable on ReceiveMessage for a window: does the consumer ride it out and \
         drain the backlog afterwards",
    ),
    (
        "trigger",
        "the poison scenario against a triggered handler in a server of the drill's own, \
         with and without ReportBatchItemFailures: invocations, redeliveries, DLQ, drain time",
    ),
    (
        "consumer",
        "a sample consumer to drill against (deletes JSON bodies, fails on others); or give \
         a drill --sample-consumer to run it in the same process",
    ),
];

/// The listing `sqslite drill` prints.
pub fn listing() -> String {
    let mut out = String::from("drills (run `sqslite drill <name> --help` for options):\n");
    for (name, about) in DRILLS {
        let _ = writeln!(out, "  {name:<8} {about}");
    }
    out.push_str(
        "\ndrill files: `sqslite drill run FILE [--serve | --endpoint URL]`; shipped ones to start \
         from: `sqslite drill show [NAME]` (",
    );
    out.push_str(&file::builtin::names());
    out.push_str(")\n");
    out
}

/// Message attributes that mark a drill's messages, so watching counts only its own.
pub(crate) const RUN_ATTRIBUTE: &str = "sqslite-drill-run";
pub(crate) const KIND_ATTRIBUTE: &str = "sqslite-drill";

/// One timed check of a drill.
#[derive(Debug, Clone)]
pub struct Check {
    /// What was checked, e.g. `poison reached the DLQ`.
    pub name: String,
    /// Whether it held.
    pub passed: bool,
    /// What was seen, with the times.
    pub detail: String,
}

/// What a drill found: its checks in the order they ran.
#[derive(Debug, Default)]
pub struct Report {
    /// The checks, as printed.
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether every check held.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }

    pub(crate) fn check(&mut self, out: &mut dyn Write, name: &str, passed: bool, detail: String) {
        let mark = if passed { "PASS" } else { "FAIL" };
        let _ = writeln!(out, "  [{mark}] {name}: {detail}");
        self.checks.push(Check {
            name: name.to_owned(),
            passed,
            detail,
        });
    }

    pub(crate) fn finish(&self, out: &mut dyn Write) {
        let failed = self.checks.iter().filter(|c| !c.passed).count();
        if failed == 0 {
            let _ = writeln!(out, "drill passed ({} checks)", self.checks.len());
        } else {
            let _ = writeln!(
                out,
                "drill FAILED ({failed} of {} checks)",
                self.checks.len()
            );
        }
    }
}

/// Knobs every drill shares.
#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    /// The sqslite endpoint, e.g. http://localhost:9324 (admin API enabled).
    #[arg(long, default_value = "http://127.0.0.1:9324")]
    pub endpoint: String,
    /// The queue the consumer under test reads.
    #[arg(long)]
    pub queue: String,
    /// How many valid messages to send (1 to 100000).
    #[arg(long, default_value_t = 50, value_parser = count())]
    pub batch: usize,
    /// Give up after this much wall time, in seconds (at most 30 days).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=MAX_SECONDS))]
    pub timeout_seconds: u64,
    /// Wall time between looks at the server (10 to 60000 ms).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(LOOK_MS))]
    pub poll_ms: u64,
    /// On a manual clock, seconds to advance it per look (the drill drives time; at least 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_SECONDS))]
    pub step_seconds: u64,
    /// Run the sample consumer (see `sqslite drill consumer`) beside the drill, in this
    /// process: the drill then needs no application of yours.
    #[arg(long)]
    pub sample_consumer: bool,
}

/// A flag's count of messages, within what one step of a drill file sends.
pub(crate) fn count() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=MAX_COUNT)
}

/// The queue's URL and whether it is FIFO.
pub(crate) async fn queue_url(ep: &Endpoint, name: &str) -> Result<(String, bool), String> {
    let out = ep.sqs("GetQueueUrl", &json!({ "QueueName": name })).await?;
    let url = out["QueueUrl"]
        .as_str()
        .ok_or("GetQueueUrl gave no QueueUrl")?;
    Ok((url.to_owned(), name.strip_suffix(".fifo").is_some()))
}

/// Sends drill messages in batches of ten, tagged with the run id; returns their ids.
pub(crate) async fn send_batch(
    ep: &Endpoint,
    url: &str,
    fifo: bool,
    run: &str,
    bodies: &[(String, &str)],
) -> Result<Vec<String>, String> {
    let mut ids = Vec::new();
    for (chunk_no, chunk) in bodies.chunks(10).enumerate() {
        let entries: Vec<Value> = chunk
            .iter()
            .enumerate()
            .map(|(i, (body, kind))| {
                let mut e = json!({
                    "Id": format!("m{i}"),
                    "MessageBody": body,
                    "MessageAttributes": {
                        RUN_ATTRIBUTE: {"DataType": "String", "StringValue": run},
                        KIND_ATTRIBUTE: {"DataType": "String", "StringValue": kind},
                    },
                });
                if fifo {
                    e["MessageGroupId"] = json!("sqslite-drill");
                    e["MessageDeduplicationId"] = json!(format!("{run}-{chunk_no}-{i}"));
                }
                e
            })
            .collect();
        let out = ep
            .sqs(
                "SendMessageBatch",
                &json!({"QueueUrl": url, "Entries": entries}),
            )
            .await?;
        if let Some(failed) = out["Failed"].as_array().filter(|f| !f.is_empty()) {
            return Err(format!("SendMessageBatch refused entries: {failed:?}"));
        }
        for ok in out["Successful"].as_array().into_iter().flatten() {
            ids.push(ok["MessageId"].as_str().unwrap_or_default().to_owned());
        }
    }
    Ok(ids)
}

/// A queue's messages as the admin API lists them (no side effects).
pub(crate) async fn messages(ep: &Endpoint, queue: &str) -> Result<Vec<Value>, String> {
    let list = ep
        .get(&format!("/_sqslite/queues/{queue}/messages"))
        .await?;
    Ok(list["messages"].as_array().cloned().unwrap_or_default())
}

/// How many of this run's messages, of any kind, are in the list.
pub(crate) fn count_of_run(list: &[Value], run: &str) -> usize {
    list.iter()
        .filter(|m| run_of(&m["message_attributes"], &m["body"]).as_deref() == Some(run))
        .count()
}

/// The drill run a message belongs to (see [`attribute_of`]).
pub(crate) fn run_of(attributes: &Value, body: &Value) -> Option<String> {
    attribute_of(attributes, body, RUN_ATTRIBUTE)
}

/// A string message attribute of a drill's message, from its message attributes or, for a
/// notification that came through a topic without raw delivery, from SNS's envelope in its
/// body; for an upload's S3 event (sent straight to the queue, or through a topic), from
/// the object's key.
pub(crate) fn attribute_of(attributes: &Value, body: &Value, name: &str) -> Option<String> {
    if let Some(value) = attributes[name]["StringValue"].as_str() {
        return Some(value.to_owned());
    }
    let envelope: Value = serde_json::from_str(body.as_str()?).ok()?;
    if let Some(value) = envelope["MessageAttributes"][name]["Value"].as_str() {
        return Some(value.to_owned());
    }
    let event = match envelope["Message"].as_str() {
        Some(message) => serde_json::from_str(message).ok()?,
        None => envelope,
    };
    uploaded(&event, name)
}

/// The run or kind an upload step's key names (`…{run}/{kind}/{seq}…`), from the S3 event
/// of its upload, whose key S3 writes URL-encoded with `+` for a space.
fn uploaded(event: &Value, name: &str) -> Option<String> {
    let record = &event["Records"][0];
    if record["eventSource"] != "aws:s3" {
        return None;
    }
    let key = record["s3"]["object"]["key"].as_str()?.replace('+', " ");
    let key = percent_encoding::percent_decode_str(&key)
        .decode_utf8()
        .ok()?;
    let mut segments = key.rsplit('/').skip(1);
    let kind = segments.next()?;
    let run = segments.next()?;
    match name {
        RUN_ATTRIBUTE => Some(run.to_owned()),
        KIND_ATTRIBUTE => Some(kind.to_owned()),
        _ => None,
    }
}

/// Server-clock seconds between two instants, for reports.
pub(crate) fn secs(from: u64, to: u64) -> f64 {
    to.saturating_sub(from) as f64 / 1000.0
}
