//! The checks of a drill file's parts: each probe, steady state, step, expectation and the
//! timing budget against the chosen clock, every error at its file, line and column.

use std::collections::BTreeSet;
use std::ops::Range;

use super::check::{listed, rule, Checked, FileError, Place, ACTIONS, PROBES};
use super::spec::{Expectation, Probe, Step};

/// One probe: known, on a declared queue, with what its kind needs.
pub(super) fn check_probe(
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
    if kind == "alarm" {
        return alarm_named(place, p, at);
    }
    tolerance_given(place, p, kind, at)
}

/// An `alarm` probe names an alarm sqslite raises and a state it can be in: a misspelt one
/// would never hold, and the drill would blame the system for the typo.
fn alarm_named(place: &Place<'_>, p: &Probe, at: Range<usize>) -> Result<(), FileError> {
    let kinds = crate::observe::alarms::Kind::ALL.map(crate::observe::alarms::Kind::as_str);
    let list = kinds.join(", ");
    let (Some(alarm), Some(state)) = (&p.alarm, &p.state) else {
        return Err(place.error(
            Some(at),
            format!("probe `alarm` needs `alarm` ({list}) and `state` (ALARM or OK)"),
        ));
    };
    if !kinds.contains(&alarm.as_str()) {
        return Err(place.error(
            Some(at),
            format!("unknown alarm `{alarm}`; sqslite's alarms are {list}"),
        ));
    }
    if !["ALARM", "OK"].contains(&state.as_str()) {
        return Err(place.error(
            Some(at),
            format!("an alarm's `state` is ALARM or OK; got `{state}`"),
        ));
    }
    Ok(())
}

/// A counting probe's tolerance is there.
pub(super) fn tolerance_given(
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
pub(super) fn check_steady(
    place: &Place<'_>,
    spanned: &toml::Spanned<Probe>,
    queue: &dyn Fn(&toml::Spanned<String>) -> Result<(), FileError>,
) -> Result<(), FileError> {
    let p = spanned.get_ref();
    let at = Some(spanned.span());
    let expectation_only = [
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
pub(super) fn check_step(
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
        "publish" => check_topic(place, c, step.topic.as_ref().ok_or_else(|| need("topic"))?)?,
        "upload" => super::buckets::check_upload(place, c, step)?,
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
        "delivery" => check_delivery(place, step, queue)?,
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

/// A `publish` step's topic, declared or required.
fn check_topic(
    place: &Place<'_>,
    c: &Checked,
    topic: &toml::Spanned<String>,
) -> Result<(), FileError> {
    if c.topics.contains(topic.get_ref()) {
        return Ok(());
    }
    Err(place.error(
        Some(topic.span()),
        format!(
            "the drill declares no topic `{}`; it has {}",
            topic.get_ref(),
            listed(&c.topics)
        ),
    ))
}

/// A `delivery` step: a known mode, known rates from 0 to 1, and at-least-once only on a
/// standard queue (FIFO keeps exactly-once and order, as on AWS).
fn check_delivery(
    place: &Place<'_>,
    step: &Step,
    queue: &dyn Fn(&toml::Spanned<String>) -> Result<(), FileError>,
) -> Result<(), FileError> {
    use crate::sqs::engine::at_least_once::{rate, Mode, Rates};
    let at = Some(step.action.span());
    let mode = step
        .mode
        .as_ref()
        .ok_or_else(|| place.error(at, "step `delivery` needs `mode` (exact or at-least-once)"))?;
    let word = Mode::parse(mode.get_ref())
        .map_err(|e| place.error(Some(mode.span()), format!("`mode` {e}")))?;
    if let Some(q) = &step.queue {
        queue(q)?;
        if word == Mode::AtLeastOnce && q.get_ref().strip_suffix(".fifo").is_some() {
            return Err(place.error(
                Some(q.span()),
                format!("`{}` is a FIFO queue, which delivers exactly once and in order (as on AWS): at-least-once delivery is for standard queues", q.get_ref()),
            ));
        }
    }
    for (name, value) in step.rates.iter().flat_map(toml::Spanned::get_ref) {
        let span = step.rates.as_ref().map(toml::Spanned::span);
        if Rates::default().get(name).is_none() {
            let known = Rates::NAMES.join(", ");
            return Err(place.error(
                span,
                format!("unknown rate `{name}`; the rates are {known}"),
            ));
        }
        rate(*value).map_err(|e| place.error(span, format!("rate `{name}` {e}")))?;
    }
    Ok(())
}

/// One expectation: one thing to hold, a known step to count from, a budget the clock can meet.
pub(super) fn check_expectation(
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
pub(super) fn check_timing(
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
