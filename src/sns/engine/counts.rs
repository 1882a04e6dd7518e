//! What happened to the messages of each topic and subscription, counted as it happens and
//! named after CloudWatch's SNS metrics: the figures `/metrics`, the advisor and the
//! dashboard read through [`super::view`]. Kept beside the topics, not in them, behind their
//! own short-held lock, so counting never widens the engine's lock and a count survives a
//! SetSubscriptionAttributes.

use std::collections::HashMap;
use std::sync::MutexGuard;

use super::publish::Publication;
use super::{Sns, Subscription};
use crate::patterns::Scope;

/// A topic's publishes (CloudWatch `NumberOfMessagesPublished`, `PublishSize`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TopicCounts {
    /// `NumberOfMessagesPublished`: messages the topic accepted.
    pub published: u64,
    /// Sum of the published messages' sizes (message plus attributes, as SNS's limit
    /// counts them), for the average `PublishSize`.
    pub published_bytes: u64,
}

/// One subscription's notifications, one field per CloudWatch SNS metric.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SubscriptionCounts {
    /// `NumberOfNotificationsDelivered`: accepted by the endpoint.
    pub delivered: u64,
    /// `NumberOfNotificationsFailed`: the endpoint refused or is gone.
    pub failed: u64,
    /// `NumberOfNotificationsFilteredOut`: every message the filter policy rejected.
    pub filtered_out: u64,
    /// `NumberOfNotificationsFilteredOut-NoMessageAttributes`: rejected by an attribute
    /// policy because the message had no attributes.
    pub filtered_out_no_message_attributes: u64,
    /// `NumberOfNotificationsFilteredOut-InvalidAttributes`: rejected because the attributes
    /// are malformed (sqslite's Publish refuses those, so this stays 0).
    pub filtered_out_invalid_attributes: u64,
    /// `NumberOfNotificationsFilteredOut-InvalidMessageBody`: rejected by a body policy
    /// because the body is not JSON.
    pub filtered_out_invalid_message_body: u64,
    /// `NumberOfNotificationsRedrivenToDlq`: a failed notification moved to the
    /// subscription's dead-letter queue.
    pub redriven_to_dlq: u64,
    /// `NumberOfNotificationsFailedToRedriveToDlq`: the dead-letter queue refused it too.
    pub failed_to_redrive_to_dlq: u64,
    /// Notifications that could not be delivered, by why ([`Undeliverable`]) and by where
    /// they went: `[why][0]` dead-lettered, `[why][1]` dropped (no dead-letter queue, or it
    /// refused them too). sqslite's own, beside CloudWatch's.
    pub undeliverable: [[u64; 2]; Undeliverable::ALL.len()],
}

impl SubscriptionCounts {
    /// Notifications lost for good: undeliverable and in no dead-letter queue.
    pub fn dropped(&self) -> u64 {
        self.undeliverable.iter().map(|[_, dropped]| dropped).sum()
    }
}

/// Why a notification could not be delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undeliverable {
    /// An HTTP/S endpoint failed every attempt the delivery policy allows.
    RetriesSpent,
    /// The outbox already held as many bytes as sqslite keeps waiting.
    OutboxFull,
    /// The queue refused it: gone, its Policy, a fault rule, or SQS's own checks.
    QueueRefused,
}

impl Undeliverable {
    /// Every reason, in the order of [`SubscriptionCounts::undeliverable`].
    pub const ALL: [Undeliverable; 3] = [
        Undeliverable::RetriesSpent,
        Undeliverable::OutboxFull,
        Undeliverable::QueueRefused,
    ];

    /// The reason as `/metrics` and the admin API name it.
    pub fn name(self) -> &'static str {
        match self {
            Undeliverable::RetriesSpent => "retries_spent",
            Undeliverable::OutboxFull => "outbox_full",
            Undeliverable::QueueRefused => "queue_refused",
        }
    }
}

/// The latest notification a subscription could not deliver, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastFailure {
    /// Why, as a class.
    pub why: Undeliverable,
    /// What the endpoint or queue said, as logged.
    pub reason: String,
    /// When, on the server's clock.
    pub at: crate::clock::Millis,
    /// Whether it reached the subscription's dead-letter queue.
    pub dead_lettered: bool,
}

/// Why a filter policy rejected a message, as the CloudWatch metrics tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilteredOut {
    /// The message was read and did not match.
    Unmatched,
    /// The policy filters on attributes and the message had none.
    NoMessageAttributes,
    /// The policy filters on the body and it is not a JSON object.
    InvalidMessageBody,
}

/// What became of one notification that passed the filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// `NumberOfNotificationsDelivered`: the endpoint took it.
    Delivered,
    /// `NumberOfNotificationsFailed`: retries spent (or none allowed).
    Failed,
    /// `NumberOfNotificationsRedrivenToDlq`: failed, then sent to the dead-letter queue.
    RedrivenToDlq,
    /// `NumberOfNotificationsFailedToRedriveToDlq`: the dead-letter queue refused it too.
    FailedToRedriveToDlq,
}

/// Every topic's and subscription's counts, behind one lock of their own.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    /// By topic ARN.
    topics: HashMap<String, TopicCounts>,
    /// By subscription ARN.
    subscriptions: HashMap<String, SubscriptionCounts>,
    /// The latest failure, by subscription ARN.
    last_failures: HashMap<String, LastFailure>,
}

impl FilteredOut {
    /// Why `p` does not reach `s` (whose policy rejected it).
    pub(super) fn of(p: &Publication, s: &Subscription, message: &str) -> FilteredOut {
        match s.scope {
            Scope::MessageAttributes if p.attributes.is_empty() => FilteredOut::NoMessageAttributes,
            Scope::MessageBody if !crate::patterns::is_json_body(message) => {
                FilteredOut::InvalidMessageBody
            }
            _ => FilteredOut::Unmatched,
        }
    }
}

impl Sns {
    /// The counts, locked apart from the topics so counting never waits on a publish.
    pub(super) fn counts(&self) -> MutexGuard<'_, Counts> {
        // Plain numbers: a panic elsewhere leaves nothing half-written worth refusing.
        self.counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts one accepted publish of `bytes` to the topic.
    pub(super) fn count_published(&self, topic_arn: &str, bytes: usize) {
        let mut counts = self.counts();
        let t = counts.topics.entry(topic_arn.to_owned()).or_default();
        t.published += 1;
        t.published_bytes += bytes as u64;
    }

    /// Counts one message a subscription's filter policy rejected.
    pub(super) fn count_filtered_out(&self, subscription_arn: &str, why: FilteredOut) {
        let mut counts = self.counts();
        let s = counts
            .subscriptions
            .entry(subscription_arn.to_owned())
            .or_default();
        s.filtered_out += 1;
        match why {
            FilteredOut::Unmatched => {}
            FilteredOut::NoMessageAttributes => s.filtered_out_no_message_attributes += 1,
            FilteredOut::InvalidMessageBody => s.filtered_out_invalid_message_body += 1,
        }
    }

    /// Counts what became of one notification (the delivery layer's hook).
    pub fn count_notification(&self, subscription_arn: &str, outcome: Outcome) {
        let mut counts = self.counts();
        let s = counts
            .subscriptions
            .entry(subscription_arn.to_owned())
            .or_default();
        match outcome {
            Outcome::Delivered => s.delivered += 1,
            Outcome::Failed => s.failed += 1,
            Outcome::RedrivenToDlq => s.redriven_to_dlq += 1,
            Outcome::FailedToRedriveToDlq => s.failed_to_redrive_to_dlq += 1,
        }
    }

    /// Counts one notification that could not be delivered, why and where it went, and keeps
    /// it as the subscription's latest failure.
    pub fn count_undeliverable(&self, subscription_arn: &str, failure: LastFailure) {
        let mut counts = self.counts();
        let s = counts
            .subscriptions
            .entry(subscription_arn.to_owned())
            .or_default();
        let why = Undeliverable::ALL
            .iter()
            .position(|w| *w == failure.why)
            .unwrap_or_default();
        s.undeliverable[why][usize::from(!failure.dead_lettered)] += 1;
        counts
            .last_failures
            .insert(subscription_arn.to_owned(), failure);
    }
}

impl Counts {
    /// The topic's counts so far, zero for one never counted.
    pub(super) fn topic(&self, arn: &str) -> TopicCounts {
        self.topics.get(arn).copied().unwrap_or_default()
    }

    /// The subscription's counts so far, zero for one never counted.
    pub(super) fn subscription(&self, arn: &str) -> SubscriptionCounts {
        self.subscriptions.get(arn).copied().unwrap_or_default()
    }

    /// The subscription's latest failure, if it had one.
    pub(super) fn last_failure(&self, arn: &str) -> Option<LastFailure> {
        self.last_failures.get(arn).cloned()
    }

    /// Forgets the counts of topics and subscriptions that no longer exist.
    pub(super) fn retain(&mut self, live: impl Fn(&str) -> bool) {
        self.topics.retain(|arn, _| live(arn));
        self.subscriptions.retain(|arn, _| live(arn));
        self.last_failures.retain(|arn, _| live(arn));
    }
}
