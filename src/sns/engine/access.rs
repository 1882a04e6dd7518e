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
    /// Policy: the one set, or SNS's default for the owner.
    pub fn policy(&self) -> String {
        self.set
            .get("Policy")
            .cloned()
            .unwrap_or_else(|| default_policy(&self.arn, &self.owner))
    }

    /// Parses the Policy again after it changed (set, removed, edited, recovered): the one
    /// place a topic's policy text is read, so a decision never parses it.
    pub(super) fn reparse_policy(&mut self) {
        self.parsed_policy = Policy::parse_with(&self.policy(), &Quotas::SNS)
            .ok()
            .map(std::sync::Arc::new);
    }

    /// Whether the topic's Policy (its default one unless set) lets the caller do the
    /// operation: its own account always, unless a Deny names it; another only when a
    /// statement allows it.
    pub fn admits(&self, who: &Access<'_>) -> bool {
        let Some(parsed) = self.parsed_policy.as_deref() else {
            return who.account == self.owner;
        };
        let caller = Caller {
            account: who.account,
            arn: who.arn,
        };
        let request = policy::Request::direct(caller, who.operation, who.now).for_service("sns");
        policy::evaluate(Some(parsed), &self.arn, &self.owner, &request) == Decision::Allow
    }
}

impl Topic {
    /// Whether the topic's Policy lets the AWS service `principal` publish for the resource
    /// `source` (its ARN and owner's account). SNS's default policy does not: S3 refuses a
    /// topic that has only it ("Unable to validate…", as users of new topics meet it), so
    /// only a Policy set on the topic is read.
    pub fn admits_service(&self, principal: &str, source: (&str, &str), now: Millis) -> bool {
        let Some(parsed) = self
            .parsed_policy
            .as_deref()
            .filter(|_| self.has_own_policy())
        else {
            return false;
        };
        let caller = Caller {
            account: source.1,
            arn: source.0,
        };
        let request = policy::Request::direct(caller, "Publish", now)
            .for_service("sns")
            .by_service(principal)
            .on_behalf_of(source.0, source.1);
        policy::evaluate(Some(parsed), &self.arn, &self.owner, &request) == Decision::Allow
    }

    /// Whether a Policy was set on the topic (else it has SNS's default one).
    pub fn has_own_policy(&self) -> bool {
        self.set.contains_key("Policy")
    }
}

/// The policy a topic has until one is set: the owner's account may do the topic's
/// actions (the document AWS returns for a new topic).
fn default_policy(arn: &str, owner: &str) -> String {
    format!(
        r#"{{"Version":"2008-10-17","Id":"__default_policy_ID","Statement":[{{"Sid":"__default_statement_ID","Effect":"Allow","Principal":{{"AWS":"*"}},"Action":["SNS:GetTopicAttributes","SNS:SetTopicAttributes","SNS:AddPermission","SNS:RemovePermission","SNS:DeleteTopic","SNS:Subscribe","SNS:ListSubscriptionsByTopic","SNS:Publish"],"Resource":"{arn}","Condition":{{"StringEquals":{{"AWS:SourceOwner":"{owner}"}}}}}}]}}"#
    )
}
