//! The poison-message drill: one malformed message ahead of a valid batch, then watch the
//! consumer under test. Passes when the batch drains, the poison reaches the dead-letter
//! queue within maxReceiveCount x VisibilityTimeout, and the DLQ alarm fires. The scenario is
//! a drill file built from the flags and run by the drill-file engine ([`super::file`]).

use std::io::Write;

use super::consumer::remove_run;
use super::{Common, Endpoint, Report};

/// The scenario's drill file, its blanks filled in by [`drill_text`].
const TEMPLATE: &str = include_str!("poison.toml");

/// The poison drill's options (`sqslite drill poison`).
#[derive(Debug, Clone, clap::Args)]
pub struct PoisonOptions {
    /// The knobs every drill shares.
    #[command(flatten)]
    pub common: Common,
    /// Seconds of slack past the retry budget before the DLQ check fails.
    #[arg(long, default_value_t = 5)]
    pub grace_seconds: u64,
}

/// What the drill needs to know about the queue before it starts.
struct Setup {
    dlq: String,
    max_receive_count: u64,
    visibility: u64,
}

async fn setup(ep: &Endpoint, queue: &str) -> Result<Setup, String> {
    let info = ep.get(&format!("/_sqslite/queues/{queue}")).await?;
    let target = &info["dead_letter_target"];
    let dlq = target["queue"].as_str().ok_or_else(|| {
        format!("queue `{queue}` has no RedrivePolicy; the poison drill needs a dead-letter queue")
    })?;
    let visibility = info["attributes"]["VisibilityTimeout"]
        .as_str()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    Ok(Setup {
        dlq: dlq.to_owned(),
        max_receive_count: target["max_receive_count"].as_u64().unwrap_or(1),
        visibility,
    })
}

/// Runs the drill, writing progress and the report to `out`: the scenario as a drill file
/// (`drill_text`) run by the drill-file engine, then the advisor's findings.
pub async fn run(opts: &PoisonOptions, out: &mut dyn Write) -> Result<Report, String> {
    let c = &opts.common;
    let ep = Endpoint::new(&c.endpoint);
    let s = setup(&ep, &c.queue).await?;
    let budget = s.max_receive_count.saturating_mul(s.visibility);
    let _ = writeln!(
        out,
        "poison drill on {}: dead-letter queue {}, retry budget {} x {} s = {budget} s",
        c.queue, s.dlq, s.max_receive_count, s.visibility,
    );
    let run = super::file::RunOptions::against(&c.endpoint);
    let verdict = super::file::run_text("the poison drill", &drill_text(opts, &s), &run, out)
        .await
        .map_err(|e| e.0)?;
    if !verdict.passed() {
        // A passing drill leaves its poison in the DLQ to look at; a failed one takes its
        // messages back so nothing is left for the next run or the real consumer.
        let from_queue = remove_run(&ep, &c.queue, &verdict.run).await?;
        let from_dlq = remove_run(&ep, &s.dlq, &verdict.run).await?;
        let _ = writeln!(
            out,
            "cleaned up: removed {from_queue} of this run's messages from {} and {from_dlq} from {}",
            c.queue, s.dlq
        );
    }
    advice(&c.endpoint, &[c.queue.clone(), s.dlq.clone()], out).await;
    Ok(super::file::report_of(verdict))
}

/// The scenario as a drill file: one malformed message ahead of `batch` valid ones; the batch
/// must drain, the poison reach the DLQ within maxReceiveCount x VisibilityTimeout plus the
/// grace, the DLQ alarm fire; a consumer must poll within one visibility timeout (plus grace),
/// or the drill stops, since waiting longer cannot help.
fn drill_text(opts: &PoisonOptions, s: &Setup) -> String {
    let c = &opts.common;
    let q = |name: &str| toml::Value::String(name.to_owned()).to_string();
    let (queue, dlq) = (q(&c.queue), q(&s.dlq));
    // The server's numbers and the flags are not trusted to be small: a budget past the drill
    // file's bounds is refused by its check, never wrapped.
    let retries = s.max_receive_count.saturating_mul(s.visibility);
    let budget = retries.saturating_add(opts.grace_seconds);
    let give_up = retries
        .saturating_mul(2)
        .saturating_add(opts.grace_seconds)
        .saturating_add(60);
    let sample = if c.sample_consumer {
        format!("sample = {{ queues = [{queue}] }}\n")
    } else {
        String::new()
    };
    [
        ("@TIMEOUT@", c.timeout_seconds.to_string()),
        ("@LOOK@", c.poll_ms.to_string()),
        ("@STEP@", c.step_seconds.to_string()),
        (
            "@POLL_WITHIN@",
            s.visibility.saturating_add(opts.grace_seconds).to_string(),
        ),
        ("@BATCH@", c.batch.to_string()),
        ("@QUEUE@", queue),
        ("@DLQ@", dlq),
        ("@BUDGET@", budget.to_string()),
        ("@GIVE_UP@", give_up.to_string()),
        ("@SAMPLE@", sample),
    ]
    .iter()
    .fold(TEMPLATE.to_owned(), |text, (key, value)| {
        text.replace(key, value)
    })
}

/// The advisor's findings for the drilled queues: what to change so the next poison message
/// costs less. Advice that cannot be fetched is reported, not a failed drill.
async fn advice(endpoint: &str, queues: &[String], out: &mut dyn Write) {
    let _ = writeln!(out, "\nadvisor ({}):", queues.join(", "));
    let text = match crate::observe::advisor::doctor::fetch(endpoint, queues).await {
        Ok((findings, _)) => crate::observe::advisor::render::text(&findings, queues.len()),
        Err(e) => format!("no advice: {e}\n"),
    };
    let _ = out.write_all(text.as_bytes());
}
