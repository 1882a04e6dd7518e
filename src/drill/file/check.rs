//! A drill file read and checked before anything is sent: its syntax and keys (serde), then
//! what serde cannot see: steps that name no declared queue, rules and probes sqslite does
//! not know, budgets the chosen clock cannot meet. Every error names the file, line and column.

use std::collections::BTreeSet;
use std::fmt;
use std::ops::Range;

use super::check_parts::{check_expectation, check_steady, check_step};
use super::spec::{DrillFile, Step, DRILL_KEYS};

/// A drill file that cannot run: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file as given.
    pub file: String,
    /// 1-based line and column, when the problem has a place.
    pub at: Option<(usize, usize)>,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, col)) => write!(f, "{}:{line}:{col}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// A checked drill: the file, the server configuration its tables declare, and the names
/// of every queue and topic it may use.
#[derive(Debug)]
pub struct Checked {
    /// The file's drill tables.
    pub file: DrillFile,
    /// Its `sqslite.toml` tables as a configuration (for `--serve`, and the queues to create).
    pub config: crate::Config,
    /// Queues declared or required.
    pub queues: BTreeSet<String>,
    /// Topics declared or required.
    pub topics: BTreeSet<String>,
}

/// The probes a drill may measure.
pub const PROBES: &[&str] = &[
    "depth",
    "visible",
    "in_flight",
    "oldest_age",
    "deletes",
    "alarm",
    "fault_hits",
    "processed_more_than_once",
];
/// The steps a method may take.
pub const ACTIONS: &[&str] = &[
    "send",
    "publish",
    "upload",
    "fault",
    "clear_faults",
    "advance",
    "wait",
    "redrive",
    "consumer",
    "delivery",
];
/// The sample consumer's rules.
pub const RULES: &[&str] = &["json", "all", "none", "never-delete"];

/// Where problems in one file are reported.
pub(super) struct Place<'a> {
    file: &'a str,
    text: &'a str,
}

impl Place<'_> {
    pub(super) fn error(
        &self,
        span: Option<Range<usize>>,
        message: impl Into<String>,
    ) -> FileError {
        FileError {
            file: self.file.to_owned(),
            at: span
                .filter(|s| s.end > 0)
                .map(|s| line_col(self.text, s.start)),
            message: message.into(),
        }
    }
}

/// The 1-based line and column of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rfind('\n')
        .map_or(before.len(), |i| before.len() - i - 1)
        + 1;
    (line, col)
}

/// Reads and checks `text` (the file `file`).
pub fn read(file: &str, text: &str) -> Result<Checked, FileError> {
    let place = Place { file, text };
    let drill: DrillFile = toml::from_str(text).map_err(|e| {
        let message = e.message().trim().replace('\n', " ");
        place.error(e.span(), message)
    })?;
    let config = crate::Config::from_text_beside(file, text, DRILL_KEYS)
        .map_err(|e| FileError {
            file: file.to_owned(),
            at: e.line.map(|l| (l, 1)),
            message: e.message,
        })?
        .config;
    let mut queues: BTreeSet<String> = config.queues.iter().map(|q| q.name.clone()).collect();
    queues.extend(drill.requires.queues.iter().map(|q| q.get_ref().clone()));
    let mut topics: BTreeSet<String> = config.topics.iter().map(|t| t.name.clone()).collect();
    topics.extend(drill.requires.topics.iter().map(|t| t.get_ref().clone()));
    let checked = Checked {
        file: drill,
        config,
        queues,
        topics,
    };
    check(&place, &checked)?;
    Ok(checked)
}

/// Everything serde could not see.
fn check(place: &Place<'_>, c: &Checked) -> Result<(), FileError> {
    let meta = &c.file.drill;
    if let Some(clock) = &meta.clock {
        if !["manual", "system"].contains(&clock.get_ref().as_str()) {
            return Err(place.error(
                Some(clock.span()),
                "`clock` must be \"manual\" or \"system\"",
            ));
        }
    }
    let queue = |name: &toml::Spanned<String>| -> Result<(), FileError> {
        if c.queues.contains(name.get_ref()) {
            Ok(())
        } else {
            Err(place.error(
                Some(name.span()),
                format!(
                    "the drill declares no queue `{}` ([[queues]] or [requires] queues); it has {}",
                    name.get_ref(),
                    listed(&c.queues)
                ),
            ))
        }
    };
    if let Some(consumer) = &c.file.consumer {
        if let Some(sample) = &consumer.sample {
            sample.queues.iter().try_for_each(&queue)?;
            if let Some(retry) = &sample.retry_queue {
                queue(retry)?;
            }
            rule(place, &sample.rule)?;
        }
        if let Some(q) = &consumer.must_poll {
            queue(q)?;
        }
        if let Some(when) = &consumer.if_no_first_poll {
            if !["stop", "start"].contains(&when.get_ref().as_str()) {
                return Err(place.error(
                    Some(when.span()),
                    "`if_no_first_poll` must be \"stop\" or \"start\"",
                ));
            }
        }
    }
    super::buckets::check(place, c)?;
    steady_state(place, c, &queue)?;
    let mut names = BTreeSet::new();
    for (i, step) in c.file.method.iter().enumerate() {
        check_step(place, c, step, &queue)?;
        names.insert(step_name(step.get_ref(), i));
    }
    for expectation in &c.file.expect {
        check_expectation(place, c, expectation, &names, &queue)?;
    }
    Ok(())
}

/// Each steady-state probe, and no two of one name: each is a check of its own.
fn steady_state(
    place: &Place<'_>,
    c: &Checked,
    queue: &dyn Fn(&toml::Spanned<String>) -> Result<(), FileError>,
) -> Result<(), FileError> {
    let mut names = BTreeSet::new();
    for probe in &c.file.steady_state {
        check_steady(place, probe, queue)?;
        if let Some(name) = &probe.get_ref().name {
            if !names.insert(name) {
                return Err(place.error(
                    Some(probe.span()),
                    format!("two [[steady_state]] probes are called `{name}`: each is a check of its own"),
                ));
            }
        }
    }
    Ok(())
}

/// A step's name: given, or its action and 1-based position.
pub fn step_name(step: &Step, index: usize) -> String {
    step.name
        .clone()
        .unwrap_or_else(|| format!("{} #{}", step.action.get_ref(), index + 1))
}

/// `a`, `b` and `c`, or "none".
pub(super) fn listed(names: &BTreeSet<String>) -> String {
    if names.is_empty() {
        return "none".into();
    }
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A sample consumer rule sqslite knows.
pub(super) fn rule(place: &Place<'_>, name: &toml::Spanned<String>) -> Result<(), FileError> {
    if RULES.contains(&name.get_ref().as_str()) {
        return Ok(());
    }
    Err(place.error(
        Some(name.span()),
        format!(
            "unknown consumer rule `{}`; expected one of {}",
            name.get_ref(),
            RULES.join(", ")
        ),
    ))
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
