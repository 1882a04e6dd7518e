//! The outage drill: ServiceUnavailable on ReceiveMessage for a window on the server's
//! clock, with a backlog waiting. Passes when the consumer kept trying through the outage
//! and drained the backlog within the drain budget once the window closed.

use std::io::Write;

use super::{Common, Report};

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

/// The scenario's drill file, its blanks filled in from the flags.
const TEMPLATE: &str = include_str!("outage.toml");

/// Runs the outage drill against `opts.common.endpoint`, printing each check to `out`: the
/// scenario as a drill file run by the drill-file engine. The backlog is sent first, then
/// ReceiveMessage answers ServiceUnavailable for the window; the consumer must keep polling
/// through it and drain the backlog within the drain budget once it closes.
pub async fn run(opts: &OutageOptions, out: &mut dyn Write) -> Result<Report, String> {
    let c = &opts.common;
    let _ = writeln!(
        out,
        "outage drill on {}: ReceiveMessage answers ServiceUnavailable for {} s, then the backlog must drain within {} s",
        c.queue, opts.outage_seconds, opts.drain_seconds
    );
    let queue = toml::Value::String(c.queue.clone()).to_string();
    let sample = if c.sample_consumer {
        format!("sample = {{ queues = [{queue}] }}\n")
    } else {
        String::new()
    };
    let text = [
        ("@TIMEOUT@", c.timeout_seconds.to_string()),
        ("@LOOK@", c.poll_ms.to_string()),
        ("@STEP@", c.step_seconds.to_string()),
        ("@BATCH@", c.batch.to_string()),
        ("@OUTAGE@", opts.outage_seconds.to_string()),
        (
            "@DRAIN_BUDGET@",
            opts.outage_seconds
                .saturating_add(opts.drain_seconds)
                .to_string(),
        ),
        ("@SAMPLE@", sample),
        ("@QUEUE@", queue),
    ]
    .iter()
    .fold(TEMPLATE.to_owned(), |text, (key, value)| {
        text.replace(key, value)
    });
    let run = super::file::RunOptions::against(&c.endpoint);
    let verdict = super::file::run_text("the outage drill", &text, &run, out)
        .await
        .map_err(|e| e.0)?;
    Ok(super::file::report_of(verdict))
}
