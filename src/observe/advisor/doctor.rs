//! `sqslite doctor`: asks a running server for its advice over HTTP and prints it for a human
//! (or as JSON), with an exit status for CI.

use std::io::Write;

use super::render::{text, FailOn};
use super::Finding;
use crate::endpoint::Endpoint;

/// `sqslite doctor`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct DoctorOptions {
    /// The sqslite endpoint, e.g. http://localhost:9324 (admin API enabled).
    #[arg(long, default_value = "http://127.0.0.1:9324")]
    pub endpoint: String,
    /// Print the server's JSON answer instead of text.
    #[arg(long)]
    pub json: bool,
    /// Exit 1 when a finding of this severity or worse exists.
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// Only these queues (repeatable); all queues when absent.
    #[arg(long = "queue")]
    pub queues: Vec<String>,
}

/// The server's findings, kept to the named queues when there are any.
pub(crate) async fn fetch(
    endpoint: &str,
    queues: &[String],
) -> Result<(Vec<Finding>, serde_json::Value), String> {
    let mut answer = Endpoint::new(endpoint).get("/_sqslite/advice").await?;
    let mut findings: Vec<Finding> = serde_json::from_value(answer["findings"].take())
        .map_err(|e| format!("unexpected answer from {endpoint}/_sqslite/advice: {e}"))?;
    if !queues.is_empty() {
        findings.retain(|f| queues.contains(&f.queue));
    }
    answer["findings"] = serde_json::to_value(&findings).unwrap_or_default();
    Ok((findings, answer))
}

/// Prints the advice; `Ok(true)` when `--fail-on` is met.
pub async fn run(opts: &DoctorOptions, out: &mut dyn Write) -> Result<bool, String> {
    let (findings, answer) = fetch(&opts.endpoint, &opts.queues).await?;
    let printed = if opts.json {
        serde_json::to_string_pretty(&answer).unwrap_or_default() + "\n"
    } else {
        let queues = if opts.queues.is_empty() {
            answer["queues"].as_u64().unwrap_or(0) as usize
        } else {
            opts.queues.len()
        };
        text(&findings, queues)
    };
    out.write_all(printed.as_bytes())
        .map_err(|e| e.to_string())?;
    Ok(opts.fail_on.fails(&findings))
}
