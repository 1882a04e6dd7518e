//! Findings as the human text of `sqslite doctor` and the drills, and the `--fail-on` check.

use std::fmt::Write;

use super::{Finding, Severity};

/// The report: a count line, then each finding with its message and fix.
pub fn text(findings: &[Finding], queues: usize) -> String {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let mut out = format!(
        "{} finding(s) on {queues} queue(s): {} error, {} warn, {} info\n",
        findings.len(),
        count(Severity::Error),
        count(Severity::Warn),
        count(Severity::Info),
    );
    if findings.is_empty() {
        out.push_str("every queue follows the dead-letter rules\n");
    }
    for f in findings {
        let label = match f.severity {
            Severity::Error => "ERROR",
            Severity::Warn => "WARN",
            Severity::Info => "INFO",
        };
        let subject = match &f.topic {
            Some(topic) => format!("{topic} → {}", f.queue),
            None => f.queue.clone(),
        };
        let _ = writeln!(out, "\n{label:<5}  {subject}  [{}]", f.rule);
        let _ = writeln!(out, "       {}", f.message);
        let _ = writeln!(out, "       fix: {}", f.fix.summary);
        for command in &f.fix.commands {
            let _ = writeln!(out, "         {command}");
        }
    }
    out
}

/// `--fail-on warn|error`: which severities fail a CI run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Warn,
    Error,
}

impl FailOn {
    pub fn fails(self, findings: &[Finding]) -> bool {
        let floor = match self {
            FailOn::Warn => Severity::Warn,
            FailOn::Error => Severity::Error,
        };
        super::worst(findings).is_some_and(|w| w >= floor)
    }
}
