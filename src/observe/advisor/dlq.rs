//! The advisor's rules about dead-letter queues themselves: the target exists, has the
//! source's type and allows it, keeps messages long enough, and someone hears of its messages.

use std::fmt::Write;

use super::rules::{figures, finding, set_attributes, Wiring};
use super::{Finding, Fix, QueueView, Severity, Snapshot, Thresholds};

/// SQS's default MessageRetentionPeriod (4 days), proposed for a source that keeps as long as
/// its dead-letter queue can.
const DEFAULT_RETENTION: u32 = crate::sqs::engine::limits::DEFAULT_MESSAGE_RETENTION_PERIOD;

/// The RedrivePolicy names a queue that is gone, of the other type, or that does not allow it.
pub(super) fn dlq_target(snap: &Snapshot, q: &QueueView, w: &Wiring) -> Option<Finding> {
    let r = q.redrive.as_ref()?;
    let target = r.target_arn.rsplit(':').next().unwrap_or_default();
    let Some(dlq) = w.by_arn.get(r.target_arn.as_str()) else {
        let mut f = finding(
            "dlq_missing",
            Severity::Error,
            q,
            format!("the dead-letter queue {target} does not exist: poison is never set aside"),
        );
        f.fix.summary = format!("create {target} again, or point the RedrivePolicy elsewhere");
        return Some(f);
    };
    if dlq.fifo != q.fifo {
        let kind = |fifo| if fifo { "FIFO" } else { "standard" };
        let mut f = finding(
            "dlq_type",
            Severity::Error,
            q,
            format!(
                "{} queue dead-letters into {} queue {target}; SQS requires the same type",
                kind(q.fifo),
                kind(dlq.fifo)
            ),
        );
        f.fix.summary = format!("use a {} dead-letter queue", kind(q.fifo));
        return Some(f);
    }
    if dlq
        .redrive_allow
        .as_ref()
        .is_some_and(|p| !p.allows(&q.arn))
    {
        let mut allowed: Vec<&str> = w
            .sources
            .get(r.target_arn.as_str())
            .into_iter()
            .flatten()
            .map(|s| s.arn.as_str())
            .collect();
        allowed.sort_unstable();
        allowed.truncate(10);
        let policy =
            serde_json::json!({"redrivePermission": "byQueue", "sourceQueueArns": allowed});
        let mut f = finding(
            "dlq_not_allowed",
            Severity::Error,
            q,
            format!("the RedriveAllowPolicy of {target} does not allow this queue as a source"),
        );
        f.fix = set_attributes(
            snap,
            dlq,
            format!("allow the queues that use {target}"),
            &[("RedriveAllowPolicy", policy.to_string())],
        );
        return Some(f);
    }
    None
}

/// A dead-letter queue should keep messages long (14 days), and longer than a standard source:
/// a dead-lettered standard message keeps its original enqueue time.
pub(super) fn dlq_retention(
    snap: &Snapshot,
    q: &QueueView,
    sources: &[&QueueView],
    limits: &Thresholds,
) -> Option<Finding> {
    let longest_source = sources
        .iter()
        .filter(|src| !src.fifo)
        .max_by_key(|src| src.retention_seconds);
    let short = q.retention_seconds < limits.dlq_min_retention_seconds;
    let outlived = longest_source.filter(|src| src.retention_seconds >= q.retention_seconds);
    if !short && outlived.is_none() {
        return None;
    }
    let mut message = format!("MessageRetentionPeriod {} s", q.retention_seconds);
    if short {
        let _ = write!(message, " is below {} s", limits.dlq_min_retention_seconds);
    }
    if let Some(src) = outlived {
        let _ = write!(
            message,
            "; not longer than source {}'s {} s, so dead letters expire early",
            src.name, src.retention_seconds
        );
    }
    let mut f = finding("dlq_retention", Severity::Warn, q, message);
    f.figures = figures(&[
        ("retention_seconds", u64::from(q.retention_seconds)),
        ("min_seconds", u64::from(limits.dlq_min_retention_seconds)),
        (
            "source_retention_seconds",
            longest_source.map_or(0, |s| u64::from(s.retention_seconds)),
        ),
    ]);
    let target = limits.dlq_min_retention_seconds.max(q.retention_seconds);
    let mut fix = Fix::default();
    if short {
        fix = set_attributes(
            snap,
            q,
            format!("keep dead letters {target} s"),
            &[("MessageRetentionPeriod", target.to_string())],
        );
    }
    if let Some(src) = outlived.filter(|src| src.retention_seconds >= target) {
        let lower = DEFAULT_RETENTION.min(target - 60);
        let source_fix = set_attributes(
            snap,
            src,
            format!("keep messages in {} {lower} s, less than its DLQ", src.name),
            &[("MessageRetentionPeriod", lower.to_string())],
        );
        if fix.commands.is_empty() {
            fix = source_fix;
        } else {
            fix.summary = format!("{}; {}", fix.summary, source_fix.summary);
            fix.commands.extend(source_fix.commands);
        }
    }
    f.fix = fix;
    Some(f)
}

/// Dead letters nobody hears about: no webhook while the DLQ holds messages, or a delivery
/// budget (timeouts and retries) longer than the paging threshold.
pub(super) fn dlq_alarm(snap: &Snapshot, q: &QueueView, limits: &Thresholds) -> Option<Finding> {
    let alarms = &snap.alarms;
    let cloudwatch = format!(
        "aws cloudwatch put-metric-alarm --alarm-name {0}-not-empty --namespace AWS/SQS \
         --metric-name ApproximateNumberOfMessagesVisible --dimensions Name=QueueName,Value={0} \
         --statistic Maximum --period 60 --evaluation-periods 1 --threshold 0 \
         --comparison-operator GreaterThanThreshold --alarm-actions <your SNS topic ARN>",
        q.name
    );
    let (message, summary) = if !alarms.webhook && q.messages > 0 {
        (
            format!(
                "{} dead letter(s) and no alarm reaches anyone ([alarms] webhook is not set)",
                q.messages
            ),
            "set [alarms] webhook in sqslite.toml; in AWS, alarm on the DLQ's visible messages"
                .to_owned(),
        )
    } else if alarms.webhook && alarms.page_delay_seconds > limits.page_within_seconds {
        (
            format!(
                "the alarm webhook may take up to {} s to deliver (timeouts x retries), above {} s",
                alarms.page_delay_seconds, limits.page_within_seconds
            ),
            "lower [alarms] webhook_timeout_ms or webhook_retries in sqslite.toml".to_owned(),
        )
    } else {
        return None;
    };
    let mut f = finding("dlq_alarm", Severity::Warn, q, message);
    f.figures = figures(&[
        ("messages", q.messages),
        ("page_delay_seconds", alarms.page_delay_seconds),
        ("page_within_seconds", limits.page_within_seconds),
    ]);
    f.fix = Fix {
        summary,
        queue: Some(q.name.clone()),
        commands: vec![cloudwatch],
        ..Fix::default()
    };
    Some(f)
}
