//! Topic policies: the Policy attribute validated as SNS validates it, and whether a caller
//! may do an operation on the topic, read by the one policy evaluator the queues use
//! ([`crate::policy`]) with `sns:` actions; `crate::sns::actions::access` applies it
//! to every operation.

use crate::clock::Millis;
use crate::policy::{self, Caller, Decision, Policy, Quotas};
use crate::sns::error::{SnsError, SnsResult};

use super::Topic;

/// The Policy attribute against SNS's rules: at most 30 KB (SNS's wording), a policy
/// document the evaluator can read ("Policy Error: null", SNS's answer to a document it
/// cannot parse, as reported from SetTopicAttributes) [the finer reasons SNS gives are not
/// reproduced].
pub fn check_policy(text: &str) -> SnsResult<Policy> {
    if text.len() > Quotas::SNS.bytes {
        return Err(SnsError::invalid(
            "Policy exceeds the maximum size of 30 KB.",
        ));
    }
    Policy::parse_with(text, &Quotas::SNS).map_err(|_| SnsError::invalid("Policy Error: null"))
}

/// Who calls, as a topic policy sees them.
#[derive(Debug, Clone, Copy)]
pub struct Access<'a> {
    /// The caller's 12-digit account (the credential's, or the server's unsigned).
    pub account: &'a str,
    /// The caller's principal ARN (root or IAM user), as a policy's `Principal` names it.
    pub arn: &'a str,
    /// `Publish`, `Subscribe`…
    pub operation: &'a str,
    /// When the call is made, for the policy's date conditions.
    pub now: Millis,
}

impl Topic {
    /// Whether the topic's Policy (its default one unless set) lets the caller do the
    /// operation: its own account always, unless a Deny names it; another only when a
    /// statement allows it.
    pub fn admits(&self, who: &Access<'_>) -> bool {
        let Ok(parsed) = Policy::parse_with(&self.policy(), &Quotas::SNS) else {
            return who.account == self.owner;
        };
        let caller = Caller {
            account: who.account,
            arn: who.arn,
        };
        let request = policy::Request::direct(caller, who.operation, who.now).for_service("sns");
        policy::evaluate(Some(&parsed), &self.arn, &self.owner, &request) == Decision::Allow
    }
}
