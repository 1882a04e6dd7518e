//! The triggered poison drill (`sqslite drill trigger`): the poison scenario against a
//! Lambda-style handler, run twice side by side on one manual clock, once with whole-batch
//! failures and once with `ReportBatchItemFailures`, and the difference printed.
//!
//! It needs nothing installed and no server of yours: it starts an in-process sqslite on an
//! ephemeral port with a manual clock, two queue pairs with a RedrivePolicy, and the
//! in-process `Handler` as the `url` function of both mappings; the drill drives the clock.

use std::io::Write;

use super::file::bounds::{LOOK_MS, MAX_SECONDS};
use super::handler::{Handler, Tally};
use super::{messages, queue_url, secs, send_batch, Endpoint, Report};
use crate::config::{ClockKind, Config, QueueDecl};
use crate::triggers::{Function, MappingDecl, Target};

/// The trigger drill's options (`sqslite drill trigger`).
#[derive(Debug, Clone, clap::Args)]
pub struct TriggerOptions {
    /// How many valid messages to send to each queue, after one poison message (1 to 100000).
    #[arg(long, default_value_t = 19, value_parser = super::count())]
    pub batch: usize,
    /// The queues' RedrivePolicy maxReceiveCount.
    #[arg(long, default_value_t = 3)]
    pub max_receive_count: u32,
    /// The queues' VisibilityTimeout, in seconds.
    #[arg(long, default_value_t = 30)]
    pub visibility_seconds: u64,
    /// Server-clock seconds to advance per look (at least 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_SECONDS))]
    pub step_seconds: u64,
    /// Wall time between looks, so the pollers can invoke the handler (10 to 60000 ms).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(LOOK_MS))]
    pub poll_ms: u64,
    /// Give up after this much server-clock time, in seconds (at most 30 days).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=MAX_SECONDS))]
    pub give_up_seconds: u64,
}

/// The two runs: (label, queue, handler path, ReportBatchItemFailures).
const RUNS: [(&str, &str, &str, bool); 2] = [
    ("whole-batch failures", "drill-whole", "/whole", false),
    ("ReportBatchItemFailures", "drill-partial", "/partial", true),
];

/// One run's figures.
#[derive(Debug, Clone, Default)]
pub(crate) struct Figures {
    /// Invocations of the handler.
    pub invocations: u64,
    /// Deliveries beyond each message's first.
    pub redelivered: u64,
    /// Messages in the dead-letter queue at the end.
    pub dead_lettered: usize,
    /// Server-clock seconds until the source queue held none of the drill's messages.
    pub drained_after: Option<f64>,
}

fn config(opts: &TriggerOptions, base: &str) -> Config {
    let mut config = Config::ephemeral();
    config.clock = ClockKind::Manual;
    for (_, queue, path, partial) in RUNS {
        let dlq = format!("{queue}-dlq");
        config.queues.push(QueueDecl::new(&dlq));
        config.queues.push(
            QueueDecl::new(queue)
                .attribute("VisibilityTimeout", opts.visibility_seconds)
                .dead_letter(dlq, opts.max_receive_count),
        );
        let name = format!("{queue}-handler");
        let function = Function::new(&name, Target::Url(format!("{base}{path}")));
        config.triggers.functions.push(function);
        let mut mapping = MappingDecl::new(name, queue);
        if partial {
            mapping.function_response_types = vec!["ReportBatchItemFailures".into()];
        }
        config.triggers.mappings.push(mapping);
    }
    config
}

/// Runs the drill, writing the figures and checks to `out`.
pub async fn run(opts: &TriggerOptions, out: &mut dyn Write) -> Result<Report, String> {
    let handler = Handler::start().await?;
    let server = crate::Server::start(config(opts, &handler.base))
        .await
        .map_err(|e| format!("cannot start the drill's server: {e}"))?;
    let ep = Endpoint::new(&server.endpoint());
    let (t0, _) = ep.clock().await?;
    let _ = writeln!(
        out,
        "trigger drill: 1 poison + {} valid messages per queue, maxReceiveCount {}, \
         VisibilityTimeout {} s, manual clock driven by the drill",
        opts.batch, opts.max_receive_count, opts.visibility_seconds
    );
    let mut bodies = vec![("{\"drill\":\"trigger\",<<malformed".to_owned(), "poison")];
    bodies.extend(
        (0..opts.batch).map(|i| (format!("{{\"drill\":\"trigger\",\"seq\":{i}}}"), "valid")),
    );
    for (_, queue, _, _) in RUNS {
        let (url, fifo) = queue_url(&ep, queue).await?;
        send_batch(&ep, &url, fifo, "trigger", &bodies).await?;
    }
    let drained = watch(&ep, opts, t0).await?;
    let mut figures = Vec::new();
    for ((_, queue, path, _), drained_after) in RUNS.iter().zip(drained) {
        let tally: Tally = handler.tally(path);
        figures.push(Figures {
            invocations: tally.invocations,
            redelivered: tally.redelivered(),
            dead_lettered: messages(&ep, &format!("{queue}-dlq")).await?.len(),
            drained_after,
        });
    }
    print_table(out, &figures);
    Ok(checks(out, &figures))
}

/// Advances the clock until both source queues are empty; the drain instant of each.
async fn watch(ep: &Endpoint, opts: &TriggerOptions, t0: u64) -> Result<[Option<f64>; 2], String> {
    let mut drained = [None, None];
    let mut now = t0;
    loop {
        for (i, (_, queue, _, _)) in RUNS.iter().enumerate() {
            if drained[i].is_none() && messages(ep, queue).await?.is_empty() {
                drained[i] = Some(secs(t0, now));
            }
        }
        let give_up = t0.saturating_add(opts.give_up_seconds.saturating_mul(1000));
        if drained.iter().all(Option::is_some) || now >= give_up {
            return Ok(drained);
        }
        tokio::time::sleep(std::time::Duration::from_millis(opts.poll_ms)).await;
        now = ep.advance(opts.step_seconds).await?;
    }
}

fn print_table(out: &mut dyn Write, figures: &[Figures]) {
    let _ = writeln!(
        out,
        "\n  {:<26} {:>11} {:>11} {:>6} {:>14}",
        "", "invocations", "redelivered", "in DLQ", "time to drain"
    );
    for ((label, ..), f) in RUNS.iter().zip(figures) {
        let drain = f
            .drained_after
            .map_or_else(|| "not drained".to_owned(), |t| format!("{t:.0} s"));
        let _ = writeln!(
            out,
            "  {label:<26} {:>11} {:>11} {:>6} {drain:>14}",
            f.invocations, f.redelivered, f.dead_lettered
        );
    }
    let _ = writeln!(out);
}

fn checks(out: &mut dyn Write, f: &[Figures]) -> Report {
    let (whole, partial) = (&f[0], &f[1]);
    let mut report = Report::default();
    report.check(
        out,
        "both queues drained",
        whole.drained_after.is_some() && partial.drained_after.is_some(),
        "every message was deleted or dead-lettered".into(),
    );
    report.check(
        out,
        "partial batch responses redeliver less",
        partial.redelivered < whole.redelivered,
        format!(
            "{} redeliveries with ReportBatchItemFailures, {} without",
            partial.redelivered, whole.redelivered
        ),
    );
    report.check(
        out,
        "only the poison dead-lettered with ReportBatchItemFailures",
        partial.dead_lettered == 1,
        format!(
            "{} in the DLQ with it; {} without it, the poison's batch-mates dead-lettered beside it",
            partial.dead_lettered, whole.dead_lettered
        ),
    );
    report.finish(out);
    report
}
