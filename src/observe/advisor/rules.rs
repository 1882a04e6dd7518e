//! The advisor's rules, one function each: a queue and what it is wired to in, findings out.
//! Sources for each rule are listed in the guide (docs/src/advisor.md).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use super::dlq::{dlq_alarm, dlq_retention, dlq_target};
use super::{Finding, Fix, QueueView, Severity, Snapshot, Thresholds};
use crate::sqs::engine::limits;

/// The maxReceiveCount a fix proposes: the common default of the dead-letter pattern.
const SUGGESTED_MAX_RECEIVES: u32 = 5;

/// The queues around the one being checked.
pub(super) struct Wiring<'a> {
    pub(super) by_arn: HashMap<&'a str, &'a QueueView>,
    pub(super) sources: HashMap<&'a str, Vec<&'a QueueView>>,
}

pub fn check_all(snap: &Snapshot, limits: &Thresholds) -> Vec<Finding> {
    let mut wiring = Wiring {
        by_arn: snap.queues.iter().map(|q| (q.arn.as_str(), q)).collect(),
        sources: HashMap::new(),
    };
    for q in &snap.queues {
        if let Some(r) = &q.redrive {
            wiring.sources.entry(&r.target_arn).or_default().push(q);
        }
    }
    let mut out = Vec::new();
    for q in &snap.queues {
        let sources = wiring.sources.get(q.arn.as_str());
        if let Some(sources) = sources {
            out.extend(dlq_retention(snap, q, sources, limits));
            out.extend(dlq_alarm(snap, q, limits));
        } else {
            out.extend(redrive_policy_missing(snap, q));
        }
        out.extend(max_receive_count(snap, q, limits));
        out.extend(dlq_target(snap, q, &wiring));
        out.extend(visibility_timeout(snap, q, limits));
        out.extend(fifo_head_of_line(snap, q, limits));
    }
    out
}

pub(super) fn finding(rule: &str, severity: Severity, q: &QueueView, message: String) -> Finding {
    Finding {
        rule: rule.to_owned(),
        severity,
        queue: q.name.clone(),
        topic: None,
        subscription: None,
        message,
        figures: BTreeMap::new(),
        fix: Fix::default(),
    }
}

pub(super) fn figures(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
}

/// A SetQueueAttributes fix as an AWS CLI line.
pub fn set_attributes(
    snap: &Snapshot,
    q: &QueueView,
    summary: String,
    attrs: &[(&str, String)],
) -> Fix {
    let attributes: BTreeMap<String, String> = attrs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    let json = serde_json::to_string(&attributes).unwrap_or_default();
    Fix {
        summary,
        queue: Some(q.name.clone()),
        commands: vec![format!(
            "aws sqs set-queue-attributes --endpoint-url {} --queue-url {} --attributes '{json}'",
            snap.endpoint, q.url
        )],
        attributes,
    }
}

fn redrive_json(target_arn: &str, max_receive_count: u32) -> String {
    serde_json::json!({
        "deadLetterTargetArn": target_arn,
        "maxReceiveCount": max_receive_count.to_string(),
    })
    .to_string()
}

/// A queue its consumers read with no RedrivePolicy: a message that always fails loops forever.
fn redrive_policy_missing(snap: &Snapshot, q: &QueueView) -> Option<Finding> {
    if q.redrive.is_some() || q.received == 0 {
        return None;
    }
    let dlq = match q.name.strip_suffix(".fifo") {
        Some(base) => format!("{base}-dlq.fifo"),
        None => format!("{}-dlq", q.name),
    };
    let dlq_arn = format!("{}:{dlq}", q.arn.rsplit_once(':').map_or("", |(p, _)| p));
    let mut f = finding(
        "redrive_policy_missing",
        Severity::Error,
        q,
        format!(
            "{} message(s) received and no RedrivePolicy: a message that always fails is \
             received again forever",
            q.received
        ),
    );
    f.figures = figures(&[("received", q.received)]);
    let mut fix = set_attributes(
        snap,
        q,
        format!("create {dlq} and dead-letter after {SUGGESTED_MAX_RECEIVES} receives"),
        &[(
            "RedrivePolicy",
            redrive_json(&dlq_arn, SUGGESTED_MAX_RECEIVES),
        )],
    );
    let fifo = if q.fifo { r#","FifoQueue":"true""# } else { "" };
    fix.commands.insert(
        0,
        format!(
            "aws sqs create-queue --endpoint-url {} --queue-name {dlq} --attributes \
             '{{\"MessageRetentionPeriod\":\"1209600\"{fifo}}}'",
            snap.endpoint
        ),
    );
    f.fix = fix;
    Some(f)
}

/// maxReceiveCount outside the sane range: 1 dead-letters good work after one hiccup; many
/// retries keep poison (and, on FIFO, its whole group) going for a long time.
fn max_receive_count(snap: &Snapshot, q: &QueueView, limits: &Thresholds) -> Option<Finding> {
    let r = q.redrive.as_ref()?;
    let n = r.max_receive_count;
    let message = if n < limits.min_max_receive_count {
        format!(
            "maxReceiveCount {n} (below {}): one failed or timed-out receive dead-letters a \
             good message",
            limits.min_max_receive_count
        )
    } else if n > limits.max_max_receive_count {
        format!(
            "maxReceiveCount {n} (above {}): poison is retried {n} times before it is set \
             aside, {} s at this VisibilityTimeout",
            limits.max_max_receive_count,
            u64::from(n) * u64::from(q.visibility_timeout)
        )
    } else {
        return None;
    };
    let suggested =
        SUGGESTED_MAX_RECEIVES.clamp(limits.min_max_receive_count, limits.max_max_receive_count);
    let mut f = finding("max_receive_count", Severity::Warn, q, message);
    f.figures = figures(&[
        ("max_receive_count", u64::from(n)),
        ("min", u64::from(limits.min_max_receive_count)),
        ("max", u64::from(limits.max_max_receive_count)),
        ("suggested", u64::from(suggested)),
    ]);
    f.fix = set_attributes(
        snap,
        q,
        format!("set maxReceiveCount to {suggested}"),
        &[("RedrivePolicy", redrive_json(&r.target_arn, suggested))],
    );
    Some(f)
}

/// VisibilityTimeout below `visibility_factor` x p99 processing time, or messages deleted only
/// after a redelivery: good work comes back and counts toward maxReceiveCount.
fn visibility_timeout(snap: &Snapshot, q: &QueueView, limits: &Thresholds) -> Option<Finding> {
    let p = q.processing?;
    let vt = u64::from(q.visibility_timeout);
    let trusted = p.samples >= limits.min_samples && q.extended == 0;
    let short = trusted && vt * 1000 < limits.visibility_factor * p.p99_ms;
    if !short && q.redelivered_then_deleted == 0 {
        return None;
    }
    // With redeliveries seen, the slowest recent message is the better guide than the p99.
    let basis = if q.redelivered_then_deleted > 0 {
        p.max_ms.max(p.p99_ms)
    } else {
        p.p99_ms
    };
    let mut suggested = (limits.visibility_factor * basis).div_ceil(1000).max(1);
    if suggested <= vt {
        // Not in AWS's guidance: the window no longer shows the slow messages, so double.
        suggested = vt * 2;
    }
    let suggested = suggested.min(u64::from(*limits::VISIBILITY_TIMEOUT.end()));
    let mut message = format!(
        "VisibilityTimeout {vt} s; processing p50 {} ms, p99 {} ms, max {} ms over {} message(s)",
        p.p50_ms, p.p99_ms, p.max_ms, p.samples
    );
    if short {
        let _ = write!(
            message,
            "; below {} x p99 = {} s",
            limits.visibility_factor,
            (limits.visibility_factor * p.p99_ms).div_ceil(1000)
        );
    }
    if q.redelivered_then_deleted > 0 {
        let _ = write!(
            message,
            "; {} message(s) were deleted only after a redelivery (false poison risk)",
            q.redelivered_then_deleted
        );
    }
    let mut f = finding("visibility_timeout", Severity::Warn, q, message);
    f.figures = figures(&[
        ("visibility_timeout_seconds", vt),
        ("p50_ms", p.p50_ms),
        ("p99_ms", p.p99_ms),
        ("max_ms", p.max_ms),
        ("samples", p.samples),
        ("redelivered_then_deleted", q.redelivered_then_deleted),
        ("suggested_seconds", suggested),
    ]);
    f.fix = set_attributes(
        snap,
        q,
        format!("raise VisibilityTimeout to {suggested} s (or extend it with ChangeMessageVisibility while working)"),
        &[("VisibilityTimeout", suggested.to_string())],
    );
    Some(f)
}

/// A FIFO queue blocks a message group while its head is retried: the worst stall is
/// maxReceiveCount x VisibilityTimeout. Stated always, flagged above the threshold.
fn fifo_head_of_line(snap: &Snapshot, q: &QueueView, limits: &Thresholds) -> Option<Finding> {
    let r = q.redrive.as_ref().filter(|_| q.fifo)?;
    let n = u64::from(r.max_receive_count);
    let vt = u64::from(q.visibility_timeout);
    let stall = n * vt;
    let over = stall > limits.fifo_stall_seconds;
    let mut f = finding(
        "fifo_head_of_line",
        if over { Severity::Warn } else { Severity::Info },
        q,
        format!(
            "a poison message blocks its group for up to {n} x {vt} s = {stall} s{}",
            if over {
                format!(" (above {} s)", limits.fifo_stall_seconds)
            } else {
                String::new()
            }
        ),
    );
    f.figures = figures(&[
        ("max_receive_count", n),
        ("visibility_timeout_seconds", vt),
        ("stall_seconds", stall),
        ("threshold_seconds", limits.fifo_stall_seconds),
    ]);
    if !over {
        f.fix.summary = "nothing to change".into();
        return Some(f);
    }
    let needed = q
        .processing
        .map_or(0, |p| (limits.visibility_factor * p.p99_ms).div_ceil(1000));
    let vt_fit = (limits.fifo_stall_seconds / n).max(1);
    f.fix = if vt_fit >= needed {
        set_attributes(
            snap,
            q,
            format!("lower VisibilityTimeout to {vt_fit} s"),
            &[("VisibilityTimeout", vt_fit.to_string())],
        )
    } else {
        let fit = (limits.fifo_stall_seconds / vt.max(1)).clamp(1, n) as u32;
        set_attributes(
            snap,
            q,
            format!("lower maxReceiveCount to {fit}"),
            &[("RedrivePolicy", redrive_json(&r.target_arn, fit))],
        )
    };
    Some(f)
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
