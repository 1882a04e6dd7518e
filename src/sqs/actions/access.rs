//! Who may run an SQS action, decided before it runs from its row of the action list: the
//! row names what the action acts on (a queue by URL or by name, a dead-letter queue by ARN, a
//! move task by handle, or the caller's own account) and the dispatch resolves it here and
//! checks the queue's Policy, so an action receives only a queue it may act on and cannot run
//! unchecked. The same decision serves the other services' calls into SQS ([`admits`]).

use std::sync::Arc;

use crate::policy;
use crate::sqs::engine::arn::{self, QueueKey};
use crate::sqs::engine::queue::Queue;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::{Context, QueueUrls};

use super::Sqs;

/// How an action names its queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    /// A QueueUrl, in any URL style sqslite accepts.
    Url(&'a str),
    /// CreateQueue's and GetQueueUrl's QueueName, in the caller's region and in `owner`'s
    /// account (GetQueueUrl's QueueOwnerAWSAccountId) or else the caller's.
    Name {
        /// The QueueName.
        name: &'a str,
        /// The QueueOwnerAWSAccountId, when given and not empty.
        owner: Option<&'a str>,
    },
    /// A move task's SourceArn.
    Arn(&'a str),
}

impl Target<'_> {
    /// The queue named, `None` when the name cannot be one (a malformed URL or ARN).
    pub fn key(self, ctx: &Context) -> Option<QueueKey> {
        match self {
            Target::Url(url) => ctx.parse_queue_url(url),
            Target::Name { name, owner } => {
                let mut key = ctx.key(name);
                if let Some(owner) = owner {
                    owner.clone_into(&mut key.account);
                }
                Some(key)
            }
            Target::Arn(text) => arn::parse(text),
        }
    }
}

/// What an action that acts in the caller's own account receives: nothing to authorize, as
/// on SQS, where CreateQueue and ListQueues have no resource Policy to meet.
#[derive(Debug, Clone, Copy)]
pub struct InAccount;

/// The queue a QueueUrl or QueueName names, if `operation` may be done on it; a malformed URL
/// or a missing queue is the action's own error (QueueDoesNotExist…).
pub fn queue(
    sqs: &Sqs,
    ctx: &Context,
    target: Target<'_>,
    operation: &str,
) -> SqsResult<Arc<Queue>> {
    let queue = match target {
        Target::Url(url) => sqs.registry.find(&ctx.queue_ref(url)?)?,
        other => sqs
            .registry
            .get(&other.key(ctx).ok_or_else(SqsError::queue_does_not_exist)?)?,
    };
    authorize(sqs, ctx, &queue, operation, None)?;
    Ok(queue)
}

/// The dead-letter queue a move task's SourceArn (or task handle) names, when it exists and
/// `operation` may be done on it; an unknown queue is left to the operation's own not-found
/// error.
pub fn source(
    sqs: &Sqs,
    ctx: &Context,
    arn: Option<&str>,
    operation: &str,
) -> SqsResult<Option<Arc<Queue>>> {
    let Some(queue) = arn.and_then(|a| sqs.registry.get_by_arn(a)) else {
        return Ok(None);
    };
    authorize(sqs, ctx, &queue, operation, None)?;
    Ok(Some(queue))
}

/// StartMessageMoveTask's two checks: the move on its source, and `sqs:SendMessage` on its
/// destination (SQS Developer Guide, "Configuring queue permissions required for dead-letter
/// queue redrive"), checked as the task's sends will be, as SQS acting for the source queue.
/// Without a DestinationArn each move is checked against the queue it returns to.
pub fn redrive(
    sqs: &Sqs,
    ctx: &Context,
    (source_arn, destination_arn): (&str, Option<&str>),
    operation: &str,
) -> SqsResult<Option<Arc<Queue>>> {
    let found = source(sqs, ctx, Some(source_arn), operation)?;
    let destination = destination_arn
        .filter(|d| !d.is_empty())
        .and_then(|d| sqs.registry.get_by_arn(d));
    if let (Some(dest), Some(from)) = (destination, arn::parse_ref(source_arn)) {
        let on_behalf_of = Some((source_arn, from.account));
        authorize(sqs, ctx, &dest, "SendMessage", on_behalf_of)?;
    }
    Ok(found)
}

/// With a verified caller (credentials configured), the queue's Policy decides whether it
/// may do `operation` here, as SQS acting for the queue `(arn, account)` when one is given;
/// without one every call is allowed.
fn authorize(
    sqs: &Sqs,
    ctx: &Context,
    queue: &Queue,
    operation: &str,
    on_behalf_of: Option<(&str, &str)>,
) -> SqsResult<()> {
    let Some(principal) = &ctx.principal else {
        return Ok(());
    };
    admits(sqs, queue, principal, operation, (ctx.peer, on_behalf_of))
}

/// Whether the queue's Policy lets `principal` do `operation` on it, from `source_ip` and, when
/// given, as SQS acting for the queue `(arn, account)`: the one decision every caller of a
/// queue meets, clients and the other services alike (a mapping's poller reads as its
/// account). The error is SQS's AccessDenied.
pub fn admits(
    sqs: &Sqs,
    queue: &Queue,
    principal: &crate::http::auth::Principal,
    operation: &str,
    (source_ip, on_behalf_of): (Option<std::net::IpAddr>, Option<(&str, &str)>),
) -> SqsResult<()> {
    let caller = policy::Caller {
        account: &principal.account,
        arn: &principal.arn,
    };
    admits_caller(sqs, queue, caller, operation, (source_ip, on_behalf_of))
}

/// [`admits`] for an account's root: a service that acts as an account (a mapping's poller
/// reading its queue as a Lambda execution role of the mapping's account would).
pub fn admits_account(sqs: &Sqs, queue: &Queue, account: &str, operation: &str) -> SqsResult<()> {
    let arn = format!("arn:aws:iam::{account}:root");
    let caller = policy::Caller { account, arn: &arn };
    admits_caller(sqs, queue, caller, operation, (None, None))
}

/// The decision for `caller`, and SQS's AccessDenied in its words when it is not Allow.
fn admits_caller(
    sqs: &Sqs,
    queue: &Queue,
    caller: policy::Caller<'_>,
    operation: &str,
    (source_ip, on_behalf_of): (Option<std::net::IpAddr>, Option<(&str, &str)>),
) -> SqsResult<()> {
    let mut request = policy::Request::direct(caller, operation, sqs.now());
    request.source_ip = source_ip;
    if let Some((arn, account)) = on_behalf_of {
        request = request.on_behalf_of(arn, account);
    }
    let decision = queue.admits(&request);
    let action = format!("sqs:{}", policy::iam_action(operation).to_lowercase());
    let why = match decision {
        policy::Decision::Allow => return Ok(()),
        policy::Decision::NotAllowed => {
            format!("because no resource-based policy allows the {action} action")
        }
        policy::Decision::ExplicitDeny => {
            "with an explicit deny in a resource-based policy".to_owned()
        }
    };
    // SQS's IAM wording, action in lower case as SQS writes it (e.g. aws/serverless-
    // application-model#3633, microsoft/aspire#3333).
    Err(SqsError::new(
        ErrorKind::AccessDenied,
        format!(
            "User: {} is not authorized to perform: {action} on resource: {} {why}",
            caller.arn,
            queue.arn()
        ),
    ))
}

#[cfg(test)]
#[path = "access_tests.rs"]
mod tests;
