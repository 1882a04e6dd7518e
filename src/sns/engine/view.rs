//! The SNS engine's read interface for observers (metrics, the advisor, the dashboard):
//! every topic with its subscriptions and their counts, copied out under the lock, so no
//! observer holds or names the engine's internals.

use std::collections::HashSet;

use super::counts::{SubscriptionCounts, TopicCounts};
use super::{parse_topic_arn, Sns};
use crate::patterns::{FilterPolicy, Scope};

/// One topic as observers see it.
#[derive(Debug, Clone)]
pub struct TopicView {
    /// The topic's ARN.
    pub arn: String,
    /// Its region.
    pub region: String,
    /// Its account.
    pub account: String,
    /// Its name.
    pub name: String,
    /// Whether it is a FIFO topic.
    pub fifo: bool,
    /// Its CloudWatch counts.
    pub counts: TopicCounts,
    /// In ARN order.
    pub subscriptions: Vec<SubscriptionView>,
}

/// One subscription as observers see it.
#[derive(Debug, Clone)]
pub struct SubscriptionView {
    /// The subscription's ARN.
    pub arn: String,
    /// Its protocol.
    pub protocol: String,
    /// For `sqs`, the queue's ARN.
    pub endpoint: String,
    /// RawMessageDelivery.
    pub raw: bool,
    /// The parsed policy, to test sample messages against.
    pub filter: Option<FilterPolicy>,
    /// The FilterPolicy attribute as it was set.
    pub filter_policy: Option<String>,
    /// FilterPolicyScope: attributes or body.
    pub scope: Scope,
    /// The RedrivePolicy's dead-letter queue ARN.
    pub dead_letter_arn: Option<String>,
    /// Its CloudWatch counts.
    pub counts: SubscriptionCounts,
    /// The latest notification it could not deliver, and why.
    pub last_failure: Option<super::counts::LastFailure>,
}

impl Sns {
    /// Every topic of the server in ARN order (region, account, name), with its
    /// subscriptions and counts. The counts of topics and subscriptions deleted since are
    /// forgotten here, so deleting needs no hook.
    pub fn view(&self) -> Vec<TopicView> {
        let state = self.lock();
        // Taken in publish's order (state, then counts); both are held only for the copy.
        let mut counts = self.counts();
        let live: HashSet<&str> = state
            .topics
            .keys()
            .chain(state.subscriptions.keys())
            .map(String::as_str)
            .collect();
        counts.retain(|arn| live.contains(arn));
        state
            .topics
            .values()
            .map(|t| {
                let (region, account, _) = parse_topic_arn(&t.arn, "TopicArn").unwrap_or_default();
                TopicView {
                    arn: t.arn.clone(),
                    region: region.to_owned(),
                    account: account.to_owned(),
                    name: t.name.clone(),
                    fifo: t.fifo,
                    counts: counts.topic(&t.arn),
                    subscriptions: state
                        .subscriptions_of(&t.arn)
                        .map(|s| SubscriptionView {
                            arn: s.arn.clone(),
                            protocol: s.protocol.clone(),
                            endpoint: s.endpoint.clone(),
                            raw: s.raw,
                            filter: s.filter.clone(),
                            filter_policy: s.attributes().remove("FilterPolicy"),
                            scope: s.scope,
                            dead_letter_arn: s.dead_letter_arn.clone(),
                            counts: counts.subscription(&s.arn),
                            last_failure: counts.last_failure(&s.arn),
                        })
                        .collect(),
                }
            })
            .collect()
    }
}
