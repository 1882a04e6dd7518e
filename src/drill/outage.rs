//! The outage drill: ServiceUnavailable on ReceiveMessage for a window on the server's
//! clock, with a backlog waiting. Passes when the consumer kept trying through the outage
//! and drained the backlog within the drain budget once the window closed.

use std::io::Write;

use serde_json::json;

use super::{count_of, messages, queue_url, secs, send_batch, step, Common, Endpoint, Report};
use crate::clock::Stopwatch;

/// The outage drill's options (`sqslite drill outage`).
#[derive(Debug, Clone, clap::Args)]
pub struct OutageOptions {
    /// The knobs every drill shares.
    #[command(flatten)]
    pub common: Common,
    /// How long ReceiveMessage answers ServiceUnavailable (server clock).
    #[arg(long, default_value_t = 30)]
    pub outage_seconds: u64,
    /// The backlog must be gone this long after the outage ends.
    #[arg(long, default_value_t = 60)]
    pub drain_seconds: u64,
}

struct Seen {
    rejected: u64,
    ended: Option<u64>,
    drained: Option<u64>,
}

/// Runs the outage drill against `opts.common.endpoint`, printing each check to `out`.
pub async fn run(opts: &OutageOptions, out: &mut dyn Write) -> Result<Report, String> {
    let c = &opts.common;
    let ep = Endpoint::new(&c.endpoint);
    let (url, fifo) = queue_url(&ep, &c.queue).await?;
    let _consumer = super::consumer::spawn_sample(c, &url);
    let (t0, manual) = ep.clock().await?;
    let run = uuid::Uuid::new_v4().simple().to_string();
    let rule = ep
        .post(
            "/_sqslite/faults",
            &json!({
                "action": "ReceiveMessage",
                "queue": c.queue,
                "error": "ServiceUnavailable",
                "message": "sqslite outage drill",
                "for_seconds": opts.outage_seconds,
            }),
        )
        .await?;
    let rule_id = rule["id"].as_u64().unwrap_or(0);
    let _ = writeln!(
        out,
        "outage drill on {} (run {run}): ReceiveMessage answers ServiceUnavailable for {} s, then the backlog must drain within {} s",
        c.queue, opts.outage_seconds, opts.drain_seconds
    );
    let bodies: Vec<(String, &str)> = (0..c.batch)
        .map(|i| {
            (
                format!("{{\"drill\":\"outage\",\"run\":\"{run}\",\"seq\":{i}}}"),
                "valid",
            )
        })
        .collect();
    let sent = send_batch(&ep, &url, fifo, &run, &bodies).await;
    let wall = Stopwatch::start();
    let seen = match sent {
        Ok(_) => watch(&ep, opts, &run, rule_id, (t0, manual), &wall).await,
        Err(e) => Err(e),
    };
    // The rule retires by itself when its window closes; this covers an early exit.
    let _ = ep.delete(&format!("/_sqslite/faults/{rule_id}")).await;
    let seen = seen?;
    let report = judge(out, opts, &seen, t0);
    let _ = writeln!(out, "wall time {:.1} s", wall.elapsed().as_secs_f64());
    report.finish(out);
    Ok(report)
}

/// The drill's two checks: the consumer kept polling through the outage, and the backlog
/// drained in time after it.
fn judge(out: &mut dyn Write, opts: &OutageOptions, seen: &Seen, t0: u64) -> Report {
    let c = &opts.common;
    let mut report = Report::default();
    report.check(
        out,
        "consumer kept polling during the outage",
        seen.rejected > 0,
        format!(
            "{} ReceiveMessage calls answered ServiceUnavailable",
            seen.rejected
        ),
    );
    let end = t0 + opts.outage_seconds * 1000;
    let drained = seen.drained.map(|t| secs(end, t.max(end)));
    report.check(
        out,
        "backlog drained after the outage",
        drained.is_some_and(|d| d <= opts.drain_seconds as f64),
        match drained {
            Some(d) => format!(
                "all {} messages deleted {d:.1} s after the outage ended",
                c.batch
            ),
            None => format!(
                "messages still waiting {} s after the outage ended",
                opts.drain_seconds
            ),
        },
    );
    if let Some(ended) = seen.ended {
        let _ = writeln!(out, "outage window closed at +{:.1} s", secs(t0, ended));
    }
    report
}

async fn watch(
    ep: &Endpoint,
    opts: &OutageOptions,
    run: &str,
    rule_id: u64,
    (t0, manual): (u64, bool),
    wall: &Stopwatch,
) -> Result<Seen, String> {
    let c = &opts.common;
    let end = t0 + opts.outage_seconds * 1000;
    let give_up = end + opts.drain_seconds * 1000;
    let mut seen = Seen {
        rejected: 0,
        ended: None,
        drained: None,
    };
    let mut now = t0;
    loop {
        let faults = ep.get("/_sqslite/faults").await?;
        let live = faults["faults"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["id"] == rule_id);
        match live {
            Some(r) => seen.rejected = r["hits"].as_u64().unwrap_or(seen.rejected),
            None if seen.ended.is_none() => seen.ended = Some(now),
            None => {}
        }
        if count_of(&messages(ep, &c.queue).await?, run, "valid") == 0 {
            seen.drained = Some(now);
            return Ok(seen);
        }
        if now >= give_up || wall.elapsed().as_secs() >= c.timeout_seconds {
            return Ok(seen);
        }
        now = step(ep, c, manual).await?;
    }
}
