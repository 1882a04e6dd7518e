//! The poison-message drill: one malformed message ahead of a valid batch, then watch the
//! consumer under test. Passes when the batch drains, the poison reaches the dead-letter
//! queue within maxReceiveCount x VisibilityTimeout, and the DLQ alarm fires.

use std::io::Write;

use serde_json::Value;

use super::consumer::{remove_run, spawn_sample};
use super::{
    count_of, messages, polls, queue_url, secs, send_batch, step, Common, Endpoint, Report,
};
use crate::clock::Stopwatch;

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
    /// Receives and empty receives on the queue before the drill: no change, no consumer.
    polls_before: u64,
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
        polls_before: polls(ep, queue).await?,
    })
}

/// Instants (server clock, ms) at which each outcome was first seen.
#[derive(Default)]
struct Seen {
    drained: Option<u64>,
    dead_lettered: Option<u64>,
    alarm: Option<u64>,
    poison_receives: u64,
    /// Nobody called ReceiveMessage on the queue since the drill began.
    unpolled: bool,
}

/// Runs the drill, writing progress and the report to `out`.
pub async fn run(opts: &PoisonOptions, out: &mut dyn Write) -> Result<Report, String> {
    let c = &opts.common;
    let ep = Endpoint::new(&c.endpoint);
    let s = setup(&ep, &c.queue).await?;
    let budget = s.max_receive_count * s.visibility;
    let (url, fifo) = queue_url(&ep, &c.queue).await?;
    let (t0, manual) = ep.clock().await?;
    let run = uuid::Uuid::new_v4().simple().to_string();
    let _consumer = spawn_sample(c, &url);
    let _ = writeln!(
        out,
        "poison drill on {} (run {run}): dead-letter queue {}, retry budget {} x {} s = {budget} s{}",
        c.queue,
        s.dlq,
        s.max_receive_count,
        s.visibility,
        if manual { "; manual clock, the drill advances it" } else { "" }
    );
    let ids = send_batch(&ep, &url, fifo, &run, &bodies(&run, c.batch)).await?;
    let poison_id = ids.first().cloned().unwrap_or_default();
    let _ = writeln!(
        out,
        "sent 1 poison message ({poison_id}) and {} valid messages",
        c.batch
    );
    let wall = Stopwatch::start();
    let seen = watch(&ep, opts, &s, &run, &poison_id, (t0, manual), &wall).await?;
    let mut report = Report::default();
    check_drained(&mut report, out, &seen, t0, c.batch);
    let within = budget + opts.grace_seconds;
    let dl = seen.dead_lettered.map(|t| secs(t0, t));
    report.check(
        out,
        "poison dead-lettered within budget",
        dl.is_some_and(|t| t <= within as f64),
        match dl {
            Some(t) => format!(
                "in {} after {t:.1} s (budget {budget} s + {} s grace), received {} times first",
                s.dlq, opts.grace_seconds, seen.poison_receives
            ),
            None => format!(
                "not in {} after {:.1} s (budget {budget} s)",
                s.dlq,
                secs(t0, ep.clock().await?.0)
            ),
        },
    );
    check_alarm(&mut report, out, &seen, t0, &s.dlq);
    let _ = writeln!(out, "wall time {:.1} s", wall.elapsed().as_secs_f64());
    report.finish(out);
    if !report.passed() {
        after_failure(&ep, out, &c.queue, &s.dlq, &run, seen.unpolled).await?;
    }
    advice(&c.endpoint, &[c.queue.clone(), s.dlq.clone()], out).await;
    Ok(report)
}

/// One malformed message ahead of `batch` valid ones, all marked with the run.
fn bodies(run: &str, batch: usize) -> Vec<(String, &'static str)> {
    let mut bodies = vec![(
        format!("{{\"drill\":\"poison\",\"run\":\"{run}\",<<malformed"),
        "poison",
    )];
    bodies.extend((0..batch).map(|i| {
        (
            format!("{{\"drill\":\"poison\",\"run\":\"{run}\",\"seq\":{i}}}"),
            "valid",
        )
    }));
    bodies
}

fn check_drained(report: &mut Report, out: &mut dyn Write, seen: &Seen, t0: u64, batch: usize) {
    let drained = seen.drained.map(|t| secs(t0, t));
    report.check(
        out,
        "valid batch drained",
        drained.is_some(),
        match drained {
            Some(t) => format!("all {batch} valid messages deleted after {t:.1} s"),
            None => "valid messages still in the queue when the drill gave up".into(),
        },
    );
}

fn check_alarm(report: &mut Report, out: &mut dyn Write, seen: &Seen, t0: u64, dlq: &str) {
    let alarm = seen.alarm.map(|t| secs(t0, t));
    report.check(
        out,
        "DLQ alarm fired",
        alarm.is_some(),
        match alarm {
            Some(t) => format!("dlq_depth alarm on {dlq} in ALARM after {t:.1} s"),
            None => format!("no dlq_depth alarm fired on {dlq}"),
        },
    );
}

/// Says why when nobody consumed, and takes this run's messages back out of both queues so
/// that a failed drill leaves nothing behind for the next run or the real consumer.
async fn after_failure(
    ep: &Endpoint,
    out: &mut dyn Write,
    queue: &str,
    dlq: &str,
    run: &str,
    unpolled: bool,
) -> Result<(), String> {
    if unpolled {
        let _ = writeln!(
            out,
            "no consumer polled {queue} during the drill: start yours on it first, or add \
             --sample-consumer to run sqslite's sample consumer in this process"
        );
    }
    let from_queue = remove_run(ep, queue, run).await?;
    let from_dlq = remove_run(ep, dlq, run).await?;
    let _ = writeln!(
        out,
        "cleaned up: removed {from_queue} of this run's messages from {queue} and {from_dlq} from {dlq}"
    );
    Ok(())
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

async fn watch(
    ep: &Endpoint,
    opts: &PoisonOptions,
    s: &Setup,
    run: &str,
    poison_id: &str,
    (t0, manual): (u64, bool),
    wall: &Stopwatch,
) -> Result<Seen, String> {
    let c = &opts.common;
    let mut seen = Seen::default();
    let give_up = t0 + (s.max_receive_count * s.visibility * 2 + opts.grace_seconds + 60) * 1000;
    let mut now = t0;
    loop {
        let source = messages(ep, &c.queue).await?;
        if seen.drained.is_none() && count_of(&source, run, "valid") == 0 {
            seen.drained = Some(now);
        }
        if let Some(p) = source.iter().find(|m| m["message_id"] == poison_id) {
            seen.poison_receives = p["receive_count"].as_u64().unwrap_or(0);
        }
        if seen.dead_lettered.is_none()
            && messages(ep, &s.dlq)
                .await?
                .iter()
                .any(|m| m["message_id"] == poison_id)
        {
            seen.dead_lettered = Some(now);
        }
        if seen.alarm.is_none() && dlq_alarm(ep, &s.dlq, t0).await? {
            seen.alarm = Some(now);
        }
        // Nobody polled within one visibility timeout (plus grace): waiting longer cannot help.
        if now.saturating_sub(t0) >= (s.visibility + opts.grace_seconds) * 1000
            && polls(ep, &c.queue).await? == s.polls_before
        {
            seen.unpolled = true;
            return Ok(seen);
        }
        let done = seen.drained.is_some() && seen.dead_lettered.is_some() && seen.alarm.is_some();
        if done || now >= give_up || wall.elapsed().as_secs() >= c.timeout_seconds {
            return Ok(seen);
        }
        now = step(ep, c, manual).await?;
    }
}

/// Whether the DLQ's depth alarm is firing, or fired since the drill began.
async fn dlq_alarm(ep: &Endpoint, dlq: &str, t0: u64) -> Result<bool, String> {
    let alarms = ep.get("/_sqslite/alarms").await?;
    Ok(alarms["alarms"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|a: &Value| {
            a["kind"] == "dlq_depth"
                && a["queue"] == dlq
                && (a["state"] == "ALARM" || a["last_fired_at"].as_u64().is_some_and(|t| t >= t0))
        }))
}
