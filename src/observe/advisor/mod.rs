//! The dead-letter advisor: checks every queue against the dead-letter pattern with the traffic
//! sqslite observed, and every SNS subscription into a queue against what AWS would do with
//! it (`fanout`), and says which rule is broken, with the figures and the fix.
//!
//! [`advise`] is a pure function from a [`Snapshot`] (queue attributes, wiring, observed
//! processing times, alarm delivery) and the [`Thresholds`] to [`Finding`]s; the rules are in
//! [`rules`]. [`snapshot`] reads a running server into a `Snapshot`, and [`render`] turns
//! findings into the text of `sqslite doctor`.

mod dlq;
pub mod doctor;
mod fanout;
pub mod render;
pub mod rules;
pub mod snapshot;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::sqs::engine::processing::Summary;
use crate::sqs::engine::redrive::RedriveAllowPolicy;

/// `[advisor]` in sqslite.toml: where each rule draws its line.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    /// VisibilityTimeout should be at least this many times the observed p99 processing time.
    pub visibility_factor: u64,
    /// Processing samples a queue needs before its p99 is trusted.
    pub min_samples: u64,
    /// maxReceiveCount below this is a hair trigger.
    pub min_max_receive_count: u32,
    /// maxReceiveCount above this retries poison too long (and stalls ordered queues).
    pub max_max_receive_count: u32,
    /// A dead-letter queue should keep messages at least this long (14 days, SQS's maximum).
    pub dlq_min_retention_seconds: u32,
    /// A FIFO queue's worst head-of-line stall (maxReceiveCount x VisibilityTimeout) above
    /// this is flagged; below it, the stall is only stated.
    pub fifo_stall_seconds: u64,
    /// The first dead letter should page someone within this long.
    pub page_within_seconds: u64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            visibility_factor: 6,
            min_samples: 10,
            min_max_receive_count: 2,
            max_max_receive_count: 10,
            // The longest retention SQS allows: a DLQ should outlive its sources' messages.
            dlq_min_retention_seconds: *crate::sqs::engine::limits::MESSAGE_RETENTION_PERIOD.end(),
            fifo_stall_seconds: 300,
            page_within_seconds: 300,
        }
    }
}

/// Everything the rules look at, read at one instant.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// The endpoint the fix commands name (`--endpoint-url`).
    pub endpoint: String,
    pub queues: Vec<QueueView>,
    pub alarms: AlarmView,
    /// SNS subscriptions whose endpoint is a queue.
    pub subscriptions: Vec<SubscriptionView>,
}

/// One SNS `sqs` subscription as the rules see it.
#[derive(Debug, Clone, Default)]
pub struct SubscriptionView {
    pub arn: String,
    pub topic: String,
    pub topic_arn: String,
    pub fifo_topic: bool,
    /// The endpoint queue's ARN.
    pub queue_arn: String,
    pub raw: bool,
    /// The RedrivePolicy's dead-letter queue ARN.
    pub dead_letter_arn: Option<String>,
    /// Whether the queue's Policy lets the topic send on AWS; `None` when the queue is gone.
    pub queue_admits: Option<bool>,
    /// The same for the dead-letter queue.
    pub dead_letter_admits: Option<bool>,
    /// The queue's Policy text, which a fix extends rather than replaces.
    pub queue_policy: Option<String>,
    pub dead_letter_policy: Option<String>,
}

/// One queue as the rules see it.
#[derive(Debug, Clone, Default)]
pub struct QueueView {
    pub name: String,
    pub arn: String,
    pub url: String,
    pub fifo: bool,
    pub visibility_timeout: u32,
    pub retention_seconds: u32,
    pub redrive: Option<Redrive>,
    pub redrive_allow: Option<RedriveAllowPolicy>,
    /// Messages stored now (visible, in flight and delayed).
    pub messages: u64,
    /// Messages ever handed to a consumer: a queue with receives has consumers.
    pub received: u64,
    /// Receive-to-delete over the latest samples.
    pub processing: Option<Summary>,
    /// ChangeMessageVisibility extensions seen (consumers that heartbeat).
    pub extended: u64,
    pub redelivered_then_deleted: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redrive {
    pub target_arn: String,
    pub max_receive_count: u32,
}

/// How alarms reach a person.
#[derive(Debug, Clone, Default)]
pub struct AlarmView {
    /// A webhook receives alarm changes; without it they are only logged.
    pub webhook: bool,
    /// Worst case from a dead letter to the webhook's last delivery attempt, in seconds.
    pub page_delay_seconds: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A fact worth knowing (an ordered queue's stall budget within bounds).
    Info,
    Warn,
    Error,
}

/// One broken rule on one queue (or on one SNS subscription into it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The rule's id, as listed in the guide (docs/src/advisor.md).
    pub rule: String,
    pub severity: Severity,
    pub queue: String,
    /// For a subscription's finding: the topic's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// For a subscription's finding: its ARN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription: Option<String>,
    /// What is wrong, with the numbers.
    pub message: String,
    /// The numbers the rule used, by name.
    pub figures: BTreeMap<String, u64>,
    pub fix: Fix,
}

/// What to change: attributes of one queue (or of the finding's subscription), as a command
/// to paste.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Fix {
    pub summary: String,
    /// The queue whose attributes change (not always the finding's queue).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    /// AWS CLI lines, in order.
    pub commands: Vec<String>,
}

/// Every finding for every queue, worst first, then by queue and rule.
pub fn advise(snapshot: &Snapshot, thresholds: &Thresholds) -> Vec<Finding> {
    let mut findings = rules::check_all(snapshot, thresholds);
    findings.extend(fanout::check_all(snapshot));
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.queue.cmp(&b.queue))
            .then_with(|| a.rule.cmp(&b.rule))
    });
    findings
}

/// The severity `--fail-on` names, for exit statuses.
pub fn worst(findings: &[Finding]) -> Option<Severity> {
    findings.iter().map(|f| f.severity).max()
}
