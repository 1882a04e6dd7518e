//! The registry's dead-letter wiring: which queues a RedrivePolicy may name, which queues name
//! a dead-letter queue, and a move task's one move, each kept inside one account and region
//! unless the receiving queue's Policy allows it.
//!
//! A dead-letter queue must be "created using the same AWS account and region as the source
//! queue" (AWS SDK for Java 1.x and C++ developer guides, "Using Dead Letter Queues in Amazon
//! SQS"); RedriveAllowPolicy's default `allowAll` admits "any source queues in this AWS account
//! in the same Region" (SQS API Reference, SetQueueAttributes). The current developer guide
//! calls the same account and Region a best practice; sqslite keeps to the rule, since a
//! cross-account dead-letter queue would take messages its owner's Policy never allowed.

use std::sync::Arc;

use super::arn;
use super::move_task::Mover;
use super::queue::Queue;
use super::redrive::RedrivePolicy;
use super::{lock_pair, Registry};
use crate::clock::Millis;
use crate::policy::{self, Decision};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

/// Whether two queue ARNs are in one account and region.
fn same_home(a: &str, b: &str) -> bool {
    match (arn::parse_ref(a), arn::parse_ref(b)) {
        (Some(a), Some(b)) => a.region == b.region && a.account == b.account,
        _ => false,
    }
}

impl Registry {
    /// Queues whose RedrivePolicy targets `dlq_arn`, by name: only the dead-letter queue's
    /// own account and region can name it.
    pub fn dead_letter_sources(&self, dlq_arn: &str, now: Millis) -> Vec<Arc<Queue>> {
        let Some(dlq) = arn::parse_ref(dlq_arn) else {
            return Vec::new();
        };
        let mut found: Vec<Arc<Queue>> = self
            .all()
            .into_iter()
            .filter(|q| q.key.region == dlq.region && q.key.account == dlq.account)
            .filter(|q| {
                q.lock_settled_mut(now)
                    .attributes()
                    .redrive_policy
                    .as_ref()
                    .is_some_and(|p| p.dead_letter_target_arn == dlq_arn)
            })
            .collect();
        found.sort_by(|a, b| a.key.name.cmp(&b.key.name));
        found
    }

    /// A RedrivePolicy may only name an existing queue of the same type, account and region
    /// that allows the source.
    pub fn check_redrive(
        &self,
        source_arn: &str,
        fifo: bool,
        policy: &RedrivePolicy,
        now: Millis,
    ) -> SqsResult<()> {
        let invalid =
            |reason: &str| SqsError::invalid_value(policy.render(), "RedrivePolicy", reason);
        // Asked before the lookup, so another account's queue names are not probed this way.
        // The wording is sqslite's: SQS's own for this case is unrecorded.
        if !same_home(source_arn, &policy.dead_letter_target_arn) {
            return Err(invalid(
                "Dead-letter queue must be in the same account and region as the source.",
            ));
        }
        let Some(target) = self.get_by_arn(&policy.dead_letter_target_arn) else {
            return Err(invalid("Dead letter target does not exist."));
        };
        if target.fifo != fifo {
            return Err(invalid(
                "Dead-letter queue must be same type of queue as the source.",
            ));
        }
        let allowed = target
            .lock_settled_mut(now)
            .attributes()
            .redrive_allow_policy
            .as_ref()
            .is_none_or(|p| p.allows(source_arn));
        if !allowed {
            return Err(invalid(&format!(
                "Queue {source_arn} is not allowed to use {} as a dead-letter queue by its RedriveAllowPolicy.",
                policy.dead_letter_target_arn
            )));
        }
        Ok(())
    }

    /// The dead-letter queue `source`'s RedrivePolicy sends its messages to, if it has one
    /// that names a queue which takes them. The ARN is copied under the source's lock and
    /// resolved after it (the registry has locks too).
    pub fn dead_letter_queue_of(&self, source: &Queue, now: Millis) -> Option<Arc<Queue>> {
        let arn = source
            .lock_settled_mut(now)
            .attributes()
            .redrive_policy
            .as_ref()?
            .dead_letter_target_arn
            .clone();
        self.dead_letter_target(source, &arn)
    }

    /// The dead-letter queue a source's messages go to: a RedrivePolicy stored before the
    /// account-and-region rule (a data directory) may name another account's queue, which
    /// then takes nothing.
    pub(super) fn dead_letter_target(
        &self,
        source: &Queue,
        target_arn: &str,
    ) -> Option<Arc<Queue>> {
        self.get_by_arn(target_arn)
            .filter(|d| d.uid != source.uid)
            .filter(|d| d.key.account == source.key.account && d.key.region == source.key.region)
    }

    /// Moves the oldest message of `source` to `destination`, or back to the queue it was
    /// dead-lettered from. `Ok(false)` when `source` is empty; `Err` is a task failure reason.
    /// With a `mover`, the target's Policy must allow them SendMessage from `source`.
    pub fn redrive_oldest(
        &self,
        source: &Queue,
        destination: Option<&str>,
        mover: Option<&Mover>,
        now: Millis,
    ) -> Result<bool, String> {
        loop {
            let (seq, origin) = {
                let state = source.lock_settled_mut(now);
                let Some((seq, msg)) = state.store().iter().next() else {
                    return Ok(false);
                };
                (seq, msg.dead_letter_source_arn().map(str::to_owned))
            };
            let target_arn = destination.map(str::to_owned).or(origin).ok_or_else(|| {
                "A message has no DeadLetterQueueSourceArn to return to; give a DestinationArn."
                    .to_owned()
            })?;
            let target = self
                .get_by_arn(&target_arn)
                .filter(|t| t.uid != source.uid)
                .ok_or_else(|| ErrorKind::QueueDoesNotExist.query_code().to_owned())?;
            if let Some(mover) = mover {
                may_send(mover, source, &target, now)?;
            }
            {
                let (mut from, mut to) = lock_pair(source, &target, now);
                // Another caller may have taken the message between the two locks; look again.
                if from.store().iter().next().map(|(s, _)| s) != Some(seq) {
                    continue;
                }
                let Some(msg) = from.ledger().remove(seq) else {
                    continue;
                };
                to.accept_redriven(&target, msg, now);
            }
            target.wake_one();
            return Ok(true);
        }
    }
}

/// A move task's send into `target`, judged by the target's Policy as SQS acting for the
/// task's starter from `source` (aws:SourceArn, aws:SourceAccount); a refusal fails the task.
fn may_send(mover: &Mover, source: &Queue, target: &Queue, now: Millis) -> Result<(), String> {
    let caller = policy::Caller {
        account: &mover.account,
        arn: &mover.arn,
    };
    let source_arn = source.arn();
    let request = policy::Request::direct(caller, "SendMessage", now)
        .on_behalf_of(&source_arn, &source.key.account);
    match target.admits(&request) {
        Decision::Allow => Ok(()),
        Decision::NotAllowed | Decision::ExplicitDeny => {
            Err(ErrorKind::AccessDenied.query_code().to_owned())
        }
    }
}
