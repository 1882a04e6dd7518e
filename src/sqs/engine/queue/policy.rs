//! Who may act on a queue: its Policy, read by the policy floor, and SQS's own rule on top.

use std::sync::{Arc, PoisonError};

use super::Queue;
use crate::policy::Policy;

impl Queue {
    /// The Policy attribute, read without settling the messages (authorization needs no more).
    pub fn policy(&self) -> Option<Arc<Policy>> {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.attributes.policy.clone()
    }

    /// The one decision on this queue, whoever asks: its Policy on `request` (a client's call,
    /// a move task's send, SNS delivering for a topic, a mapping's poller), and SQS's own rule
    /// that no Policy grants another account an owner-only operation.
    pub fn admits(&self, request: &crate::policy::Request<'_>) -> crate::policy::Decision {
        let owner = &self.key.account;
        let policy = self.policy();
        let decision = crate::policy::evaluate(policy.as_deref(), &self.arn(), owner, request);
        let by_owner = request.service_principal.is_none() && request.caller.account == *owner;
        let owner_only = crate::sqs::engine::permissions::OWNER_ONLY.contains(&request.operation);
        match decision {
            crate::policy::Decision::Allow if owner_only && !by_owner => {
                crate::policy::Decision::NotAllowed
            }
            other => other,
        }
    }
}
