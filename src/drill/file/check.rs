//! A drill file read and checked before anything is sent: its syntax and keys (serde), then
//! what serde cannot see: steps that name no declared queue, rules and probes sqslite does
//! not know, budgets the chosen clock cannot meet. Every error names the file, line and column.

use std::collections::BTreeSet;
use std::fmt;
use std::ops::Range;

use super::spec::{DrillFile, Expectation, Probe, Step, DRILL_KEYS};

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
];
/// The steps a method may take.
pub const ACTIONS: &[&str] = &[
    "send",
    "publish",
    "fault",
    "clear_faults",
    "advance",
    "wait",
    "redrive",
    "consumer",
];
/// The sample consumer's rules.
pub const RULES: &[&str] = &["json", "all", "none", "never-delete"];

/// Where problems in one file are reported.
struct Place<'a> {
    file: &'a str,
    text: &'a str,
}

impl Place<'_> {
    fn error(&self, span: Option<Range<usize>>, message: impl Into<String>) -> FileError {
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
    }
    for probe in &c.file.steady_state {
        check_steady(place, probe, &queue)?;
    }
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

/// A step's name: given, or its action and 1-based position.
pub fn step_name(step: &Step, index: usize) -> String {
    step.name
        .clone()
        .unwrap_or_else(|| format!("{} #{}", step.action.get_ref(), index + 1))
}

/// `a`, `b` and `c`, or "none".
fn listed(names: &BTreeSet<String>) -> String {
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
fn rule(place: &Place<'_>, name: &toml::Spanned<String>) -> Result<(), FileError> {
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

/// One probe: known, on a declared queue, with what its kind needs.
fn check_probe(
    place: &Place<'_>,
    p: &Probe,
    entry: Range<usize>,
    queue: &dyn Fn(&toml::Spanned<String>) -> Result<(), FileError>,
) -> Result<(), FileError> {
    let kind = p.measure();
    let at = p.measure.as_ref().map_or(entry, toml::Spanned::span);
    if !PROBES.contains(&kind) {
        return Err(place.error(
            Some(at.clone()),
            format!(
                "unknown probe `{kind}`; expected one of {}",
                PROBES.join(", ")
            ),
        ));
    }
    if kind == "fault_hits" {
        if let Some(q) = &p.queue {
            queue(q)?;
        }
        return tolerance_given(place, p, kind, at);
    }
    let Some(q) = &p.queue else {
        return Err(place.error(Some(at.clone()), format!("probe `{kind}` needs a `queue`")));
    };
    queue(q)?;
    if kind == "alarm" && (p.alarm.is_none() || p.state.is_none()) {
        return Err(place.error(
            Some(at.clone()),
            "probe `alarm` needs `alarm` (dlq_depth, stall, oldest_message_age) and `state` (ALARM or OK)",
        ));
    }
    if kind == "alarm" {
        return Ok(());
    }
    tolerance_given(place, p, kind, at)
}

/// A counting probe's tolerance is there.
fn tolerance_given(
    place: &Place<'_>,
    p: &Probe,
    kind: &str,
    at: Range<usize>,
) -> Result<(), FileError> {
    if p.min.is_none() && p.max.is_none() && p.equals.is_none() {
        return Err(place.error(
            Some(at),
            format!("probe `{kind}` needs a tolerance: `min`, `max` or `equals`"),
        ));
    }
    Ok(())
}

/// One steady-state entry: a probe and its tolerance, nothing an expectation alone takes.
fn check_steady(
    place: &Place<'_>,
    spanned: &toml::Spanned<Probe>,
    queue: &dyn Fn(&toml::Spanned<String>) -> Result<(), FileError>,
) -> Result<(), FileError> {
    let p = spanned.get_ref();
    let at = Some(spanned.span());
    let expectation_only = [
        ("name", p.name.is_some()),
        ("dead_lettered", p.dead_lettered.is_some()),
        ("deleted", p.deleted.is_some()),
        ("receives", p.receives.is_some()),
        ("for_seconds", p.for_seconds.is_some()),
        ("always", p.always),
        ("after", p.after.is_some()),
    ];
    if let Some((key, _)) = expectation_only.iter().find(|(_, given)| *given) {
        return Err(place.error(
            at,
            format!(
                "`{key}` belongs in [[expect]]; [[steady_state]] takes a probe and its tolerance"
            ),
        ));
    }
    if p.measure.is_none() {
        return Err(place.error(at, "a [[steady_state]] entry needs a `probe`"));
    }
    check_probe(place, p, spanned.span(), queue)
}

/// One step: a known action with what it needs.
fn check_step(
    place: &Place<'_>,
    c: &Checked,
    spanned: &toml::Spanned<Step>,
    queue: &dyn Fn(&toml::Spanned<String>) -> Result<(), FileError>,
) -> Result<(), FileError> {
    let step = spanned.get_ref();
    let action = step.action.get_ref().as_str();
    let at = Some(step.action.span());
    let need = |what: &str| place.error(at.clone(), format!("step `{action}` needs `{what}`"));
    match action {
        "send" | "redrive" => queue(step.queue.as_ref().ok_or_else(|| need("queue"))?)?,
        "publish" => {
            let topic = step.topic.as_ref().ok_or_else(|| need("topic"))?;
            if !c.topics.contains(topic.get_ref()) {
                return Err(place.error(
                    Some(topic.span()),
                    format!(
                        "the drill declares no topic `{}`; it has {}",
                        topic.get_ref(),
                        listed(&c.topics)
                    ),
                ));
            }
        }
        "fault" if step.rule.is_none() => return Err(need("rule")),
        "advance"
            if c.file
                .drill
                .clock
                .as_ref()
                .is_some_and(|k| k.get_ref() == "system") =>
        {
            return Err(place.error(
                at,
                "step `advance` moves a manual clock; this drill asks for clock = \"system\"",
            ));
        }
        "advance" | "wait" if step.seconds.is_none() => return Err(need("seconds")),
        "consumer" => {
            let rule_name = step
                .consumer_rule
                .as_ref()
                .ok_or_else(|| need("consumer_rule"))?;
            rule(place, rule_name)?;
            let sample = c.file.consumer.as_ref().and_then(|c| c.sample.as_ref());
            if sample.is_none() {
                return Err(place.error(at, "step `consumer` changes the sample consumer's rule: [consumer] sample is not set"));
            }
        }
        "fault" | "advance" | "wait" | "clear_faults" => {}
        _ => {
            return Err(place.error(
                at,
                format!(
                    "unknown step `{action}`; expected one of {}",
                    ACTIONS.join(", ")
                ),
            ))
        }
    }
    if let Some(destination) = &step.destination {
        queue(destination)?;
    }
    Ok(())
}

/// One expectation: one thing to hold, a known step to count from, a budget the clock can meet.
fn check_expectation(
    place: &Place<'_>,
    c: &Checked,
    spanned: &toml::Spanned<Expectation>,
    steps: &BTreeSet<String>,
    queue: &dyn Fn(&toml::Spanned<String>) -> Result<(), FileError>,
) -> Result<(), FileError> {
    let e = spanned.get_ref();
    let at = Some(spanned.span());
    let name = e
        .name
        .as_deref()
        .ok_or_else(|| place.error(at.clone(), "an expectation needs a `name`"))?;
    let what = [
        e.measure.is_some(),
        e.dead_lettered.is_some(),
        e.deleted.is_some(),
    ];
    if what.iter().filter(|w| **w).count() != 1 {
        return Err(place.error(
            at,
            format!(
                "expectation `{name}` needs exactly one of `probe`, `dead_lettered` or `deleted`"
            ),
        ));
    }
    if e.measure.is_some() {
        check_probe(place, e, spanned.span(), queue)?;
    } else if e.dead_lettered.is_some() {
        let q = e.queue.as_ref().ok_or_else(|| {
            place.error(
                at.clone(),
                format!("expectation `{name}`: `dead_lettered` needs the `queue` it reaches"),
            )
        })?;
        queue(q)?;
    }
    check_timing(place, c, spanned, steps)
}

/// An expectation's timing: one kind at most, a step that exists, a budget the clock can meet.
fn check_timing(
    place: &Place<'_>,
    c: &Checked,
    spanned: &toml::Spanned<Expectation>,
    steps: &BTreeSet<String>,
) -> Result<(), FileError> {
    let e = spanned.get_ref();
    let name = e.name.as_deref().unwrap_or_default();
    let at = Some(spanned.span());
    let timings = [
        e.within_seconds.is_some(),
        e.for_seconds.is_some(),
        e.always,
    ];
    if timings.iter().filter(|t| **t).count() > 1 {
        return Err(place.error(
            at.clone(),
            format!(
                "expectation `{name}`: give at most one of `within_seconds`, `for_seconds`, `always`"
            ),
        ));
    }
    if let Some(after) = &e.after {
        if !steps.contains(after.get_ref()) {
            return Err(place.error(
                Some(after.span()),
                format!(
                    "no step is named `{}`; the steps are {}",
                    after.get_ref(),
                    listed(steps)
                ),
            ));
        }
    }
    let system = c.file.drill.system_clock();
    let budget = e.within_seconds.or(e.for_seconds).unwrap_or(0);
    if system && budget > c.file.drill.timeout_seconds {
        return Err(place.error(
            at,
            format!(
                "expectation `{}`: a budget of {budget} s on the system clock cannot be met within the drill's timeout_seconds ({})",
                name, c.file.drill.timeout_seconds
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
