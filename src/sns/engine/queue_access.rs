//! Whether a queue's Policy lets SNS deliver a topic's messages into it, as AWS decides: the
//! caller is the `sns.amazonaws.com` service acting for the topic. Deliveries ask it at the
//! server's time; observers (the advisor) through [`policy_admits`].

use crate::clock::Millis;
use crate::policy;
use crate::sqs::engine::queue::Queue;

/// Whether the queue's Policy lets SNS send this topic's messages as AWS decides it, for
/// observers without a clock (the advisor): time conditions are read at the epoch.
pub fn policy_admits(queue: &Queue, topic_arn: &str) -> bool {
    sns_may_send_at(queue, topic_arn, 0)
}

/// [`policy_admits`] at `now`: the caller is the `sns.amazonaws.com` service acting for the
/// topic, which a statement must name even in the queue's own account.
pub fn sns_may_send_at(queue: &Queue, topic_arn: &str, now: Millis) -> bool {
    let topic_account = super::topic_account(topic_arn);
    let caller = policy::Caller {
        account: topic_account,
        arn: topic_arn,
    };
    let request = policy::Request::direct(caller, "SendMessage", now)
        .by_service("sns.amazonaws.com")
        .on_behalf_of(topic_arn, topic_account);
    queue.admits(&request) == policy::Decision::Allow
}
