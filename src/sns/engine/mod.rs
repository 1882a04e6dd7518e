//! The SNS engine: topics, their subscriptions and what one publish delivers, behind one
//! short-held mutex. It knows nothing of HTTP or of SQS: a publish returns plain
//! [`Delivery`] values that the action layer hands to the SQS engine's own send, POSTs
//! to HTTP/S endpoints ([`outbox`]), or records.
//! Every operation that depends on time receives `now`.
// The state a journal records and observers read: every field says what it holds.
#![warn(clippy::missing_docs_in_private_items)]

pub mod access;
pub mod confirm;
pub mod counts;
mod delivery;
pub mod delivery_policy;
pub mod endpoints;
pub mod envelope;
pub mod fanout;
pub mod outbox;
pub mod paging;
pub mod publish;
mod publish_checks;
pub mod queue_access;
pub mod signing;
pub mod state;
#[cfg(test)]
mod state_tests;
mod subscription_attributes;
pub mod subscriptions;
#[cfg(test)]
mod tests;
mod topic_attributes;
mod topic_tags;
pub mod topics;
pub mod view;

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use crate::sns::error::{SnsError, SnsResult};
pub use publish::{Delivery, Publication, Published};
pub use subscriptions::Subscription;
pub use topics::Topic;

/// Who asks and where: topics belong to a region and an account, as queues do.
#[derive(Debug, Clone, Copy)]
pub struct Owner<'a> {
    /// The region of the request (its credential scope, or the server's).
    pub region: &'a str,
    /// The account the request acts as.
    pub account: &'a str,
}

impl Owner<'_> {
    /// The ARN of this owner's topic `name`.
    pub fn topic_arn(&self, name: &str) -> String {
        format!("arn:aws:sns:{}:{}:{name}", self.region, self.account)
    }

    /// What every ARN of this region and account starts with.
    fn arn_prefix(&self) -> String {
        format!("arn:aws:sns:{}:{}:", self.region, self.account)
    }
}

/// Topics, subscriptions and pending confirmations, behind the one lock of [`Sns`].
#[derive(Debug, Default)]
pub(crate) struct State {
    /// By topic ARN, so a region and account's topics are one ordered range.
    topics: BTreeMap<String, Topic>,
    /// By subscription ARN (`<topic ARN>:<uuid>`), so a topic's are one range too.
    subscriptions: BTreeMap<String, Subscription>,
}

/// All topics and subscriptions of the server.
#[derive(Debug, Default)]
pub struct Sns {
    /// Held briefly per operation, never across an await.
    state: Mutex<State>,
    /// Where every change is reported (the data directory's log); `None` in memory only.
    journal: Option<std::sync::Arc<dyn state::SnsJournal>>,
    /// HTTP/S POSTs awaiting an attempt and the records of deliveries sqslite cannot make.
    pub outbox: outbox::Outbox,
    /// What each topic and subscription did, for observers ([`view`]).
    counts: Mutex<counts::Counts>,
    /// How many topics and subscriptions may exist.
    pub limits: Limits,
    /// The declared accounts that share `limits.subscriptions` (0 is one: no declared keys).
    pub accounts: usize,
    /// Subscription records recovery skipped for want of their topic.
    orphans: std::sync::atomic::AtomicUsize,
}

/// SNS's quotas on counts (AWS General Reference, "Amazon SNS endpoints and quotas"), as
/// defaults: an account's standard and FIFO topics, a topic's subscriptions; and sqslite's
/// own bound on subscriptions in all.
///
/// Topics need no server-wide total: SNS's quotas already are per account, and on a shared
/// instance the accounts are the declared ones, so the server holds at most `topics` (and
/// `fifo_topics`) times their number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Standard topics per account: 100,000.
    pub topics: usize,
    /// FIFO topics per account: 1,000.
    pub fifo_topics: usize,
    /// Subscriptions per topic: 12,500,000.
    pub subscriptions_per_topic: usize,
    /// Subscriptions of all topics, shared among the declared accounts: 100,000.
    pub subscriptions: usize,
    /// The bounds on HTTP/S deliveries waiting and under way.
    pub http: outbox::Caps,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            topics: 100_000,
            fifo_topics: 1_000,
            subscriptions_per_topic: 12_500_000,
            // SNS documents no account-wide quota, only the per-topic one above, which alone
            // would let one caller grow the server without end (each subscription holds its
            // attributes and filter policy in memory). 100,000 is sqslite's bound, as
            // `max_queues`: far more than a test suite makes, few enough for a laptop.
            subscriptions: 100_000,
            http: outbox::Caps::default(),
        }
    }
}

impl Sns {
    /// No topics, in memory only.
    pub fn new() -> Self {
        Sns::default()
    }

    /// The state, also after a panic elsewhere.
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data behind: keep serving it.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Forgets every topic and subscription (the admin reset).
    pub fn reset(&self) {
        *self.lock() = State::default();
        self.outbox.clear();
        *self.counts() = counts::Counts::default();
        self.log_cleared();
    }
}

impl State {
    /// The topic `arn`, or NotFound.
    fn topic(&self, arn: &str) -> SnsResult<&Topic> {
        self.topics.get(arn).ok_or_else(SnsError::topic_not_found)
    }

    /// The topic `arn`, to change, or NotFound.
    fn topic_mut(&mut self, arn: &str) -> SnsResult<&mut Topic> {
        self.topics
            .get_mut(arn)
            .ok_or_else(SnsError::topic_not_found)
    }
}

/// A topic ARN's parts `(region, account, name)`, or SNS's refusal of the parameter: fewer
/// than six `:`-separated elements are counted in the message, as AWS counts them (recorded:
/// "Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not 1").
pub fn parse_topic_arn<'a>(
    arn: &'a str,
    parameter: &str,
) -> SnsResult<(&'a str, &'a str, &'a str)> {
    check_elements(arn, parameter)?;
    let mut parts = arn.splitn(6, ':');
    let fields: [Option<&str>; 6] = std::array::from_fn(|_| parts.next());
    match fields {
        [Some("arn"), Some("aws"), Some("sns"), Some(region), Some(account), Some(name)]
            if !region.is_empty() && !account.is_empty() && topics::valid_name(name) =>
        {
            Ok((region, account, name))
        }
        _ => Err(SnsError::invalid(parameter)),
    }
}

/// At least the six `:`-separated elements every ARN has, or AWS's count of them.
pub fn check_elements(arn: &str, parameter: &str) -> SnsResult<()> {
    let elements = arn.split(':').count();
    if elements < 6 {
        return Err(SnsError::invalid(format_args!(
            "{parameter} Reason: An ARN must have at least 6 elements, not {elements}"
        )));
    }
    Ok(())
}

/// The account a topic ARN names (empty for one that is not a topic ARN): its owner.
pub fn topic_account(arn: &str) -> &str {
    parse_topic_arn(arn, "TopicArn").map_or("", |(_, account, _)| account)
}
