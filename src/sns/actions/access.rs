//! Who may run each SNS operation, declared beside it in the one action list
//! ([`super::Action`]) and checked before it runs, so no operation can be added without its
//! check. Checks apply to a verified caller (`[[credentials]]` configured), as the queues'
//! do; its own account owns what it creates and lists. Another account gets what SNS grants:
//! - on a topic, what the topic's Policy allows it (read by the queues' evaluator with `sns:`
//!   actions; the default policy allows the owner's account only);
//! - on a subscription, Get/SetSubscriptionAttributes only as the subscription's or the
//!   topic's owner (SNS API reference: "only the topic owner or the subscription owner");
//! - Unsubscribe of an AuthenticateOnUnsubscribe subscription only as one of those two;
//!   others are removed by whoever holds their ARN, as an UnsubscribeURL is;
//! - a platform endpoint (Publish's TargetArn) only to its own account: it has no Policy;
//! - ConfirmSubscription needs no identity: the token is the proof.

use super::Service;
use crate::http::Context;
use crate::sns::engine::access::Access as Caller;
use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};

/// The rule an operation is checked by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Acts in the caller's own account only (CreateTopic, the List operations but one).
    Own,
    /// On the topic its input names: the topic's Policy decides.
    Topic,
    /// On the subscription its input names: its owner or its topic's owner.
    Subscription,
    /// Unsubscribe: as [`Access::Subscription`] when the subscription demands it, else anyone.
    Unsubscribe,
    /// ConfirmSubscription: the token is the proof.
    Token,
}

/// The ARN an operation's input acts on (a topic's or a subscription's), if any.
pub trait Resource {
    /// That ARN.
    fn resource(&self) -> Option<&str>;
}

/// Whether the verified caller may run `operation` (its IAM name, `Publish` for PublishBatch)
/// on `resource` by `rule`; an unverified caller is not checked, and a resource that does not
/// exist is left to the operation's own NotFound.
pub fn check(
    app: &Service,
    ctx: &Context,
    (rule, operation): (Access, &'static str),
    resource: Option<&str>,
) -> SnsResult<()> {
    let (Some(principal), Some(arn)) = (&ctx.principal, resource) else {
        return Ok(());
    };
    let caller = Caller {
        account: &principal.account,
        arn: &principal.arn,
        operation,
        now: app.now(),
    };
    let allowed = match rule {
        Access::Own | Access::Token => true,
        Access::Topic if is_platform_endpoint(arn) => arn.split(':').nth(4) == Some(caller.account),
        Access::Topic => app.topics.topic(arn).map_or(true, |t| t.admits(&caller)),
        Access::Subscription => owns_subscription(app, arn, caller.account).unwrap_or(true),
        Access::Unsubscribe => match app.topics.subscription(arn) {
            Ok(s) if s.confirmation.authenticate_on_unsubscribe => {
                owns_subscription(app, arn, caller.account).unwrap_or(true)
            }
            _ => true,
        },
    };
    if allowed {
        return Ok(());
    }
    Err(SnsError::new(
        SnsErrorKind::AuthorizationError,
        format!(
            "User: {} is not authorized to perform: SNS:{operation} on resource: {arn}",
            principal.arn
        ),
    ))
}

/// `arn:aws:sns:<region>:<account>:endpoint/<platform>/<app>/<id>`.
fn is_platform_endpoint(arn: &str) -> bool {
    arn.split(':')
        .nth(5)
        .is_some_and(|r| r.starts_with("endpoint/"))
}

/// Whether `account` owns the subscription or its topic; `None` when there is none.
fn owns_subscription(app: &Service, arn: &str, account: &str) -> Option<bool> {
    let sub = app.topics.subscription(arn).ok()?;
    let topic_owner = crate::sns::engine::topic_account(&sub.topic_arn);
    Some(sub.owner == account || topic_owner == account)
}
