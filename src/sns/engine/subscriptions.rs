//! Subscriptions: Subscribe (every protocol SNS has; `sqs` and the undeliverable ones but
//! email confirmed at once, the rest pending until confirmed: [`super::confirm`]), their
//! attributes (the rules of the settable ones in `subscription_attributes.rs`), listing,
//! removal.

use std::collections::BTreeMap;

use super::paging::page;
use super::subscription_attributes::asks_otherwise;
pub use super::subscription_attributes::SETTABLE;
use super::topics::is_fifo_name;
use super::{Owner, Sns, State};
use crate::patterns::{FilterPolicy, Scope, SnsVia};
use crate::quota::Quota;
use crate::sns::error::{SnsError, SnsResult};

/// One subscription, its attributes parsed.
#[derive(Debug, Clone)]
pub struct Subscription {
    /// The subscription's ARN.
    pub arn: String,
    /// Its topic.
    pub topic_arn: String,
    /// The subscribing account.
    pub owner: String,
    /// SubscriptionPrincipal: the ARN of the identity that called Subscribe (recorded on
    /// every protocol, pending ones too).
    pub principal: String,
    /// Its protocol.
    pub protocol: String,
    /// Its endpoint.
    pub endpoint: String,
    /// RawMessageDelivery: the bare message instead of the JSON envelope.
    pub raw: bool,
    /// FilterPolicy, parsed.
    pub filter: Option<FilterPolicy>,
    /// FilterPolicyScope: message attributes (the default) or the body.
    pub scope: Scope,
    /// The DLQ's ARN from the RedrivePolicy.
    pub dead_letter_arn: Option<String>,
    /// Every attribute set, as given (FilterPolicy, RedrivePolicy… as text).
    pub(super) set: BTreeMap<String, String>,
    /// Whether and how the endpoint confirmed it.
    pub confirmation: ConfirmationState,
}

/// A subscription's confirmation: pending until its endpoint answers the token.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfirmationState {
    /// Waiting for its endpoint to confirm (http/s, email): it receives nothing until then.
    pub pending: bool,
    /// The confirmation token sent to the endpoint, and when it was issued.
    pub token: Option<(String, crate::clock::Millis)>,
    /// ConfirmationWasAuthenticated: confirmed by a signed ConfirmSubscription (or `sqs`).
    pub authenticated: bool,
    /// AuthenticateOnUnsubscribe: only a signed Unsubscribe may remove it.
    pub authenticate_on_unsubscribe: bool,
}

impl Subscription {
    /// GetSubscriptionAttributes' answer.
    pub fn attributes(&self) -> BTreeMap<String, String> {
        let mut out = self.set.clone();
        for (k, v) in [
            ("SubscriptionArn", self.arn.as_str()),
            ("TopicArn", &self.topic_arn),
            ("Owner", &self.owner),
            ("SubscriptionPrincipal", &self.principal),
            ("Protocol", &self.protocol),
            ("Endpoint", &self.endpoint),
            ("PendingConfirmation", bool_text(self.confirmation.pending)),
            (
                "ConfirmationWasAuthenticated",
                bool_text(self.confirmation.authenticated),
            ),
            (
                "RawMessageDelivery",
                if self.raw { "true" } else { "false" },
            ),
        ] {
            out.insert(k.to_owned(), v.to_owned());
        }
        // The scope shows only beside a policy (recorded: absent after setting it alone).
        out.remove("FilterPolicyScope");
        if self.filter.is_some() {
            let scope = match self.scope {
                Scope::MessageAttributes => "MessageAttributes",
                Scope::MessageBody => "MessageBody",
            };
            out.insert("FilterPolicyScope".into(), scope.into());
        }
        if super::endpoints::reach(&self.protocol) == Some(super::endpoints::Reach::Http) {
            out.insert(
                "EffectiveDeliveryPolicy".into(),
                super::delivery_policy::RetryPolicy::effective(None, self.delivery_policy())
                    .to_json(),
            );
        }
        out
    }

    /// The DeliveryPolicy as set, if any.
    pub fn delivery_policy(&self) -> Option<&str> {
        self.set.get("DeliveryPolicy").map(String::as_str)
    }
}

/// SNS's spelling of a boolean attribute.
fn bool_text(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// A standard topic takes standard queues only; a FIFO topic takes both kinds (since
/// 2023-09, AWS "Amazon SNS FIFO topics now support message delivery to Amazon SQS
/// Standard queues": into a standard queue with best-effort order, at least once).
/// The protocol (lowercased) and, for an SQS endpoint, the queue its ARN names; any other
/// endpoint is checked against its protocol's form.
fn checked_endpoint(
    new: &NewSubscription,
) -> SnsResult<(String, Option<crate::sqs::engine::arn::QueueKey>)> {
    let protocol = new.protocol.to_ascii_lowercase();
    let Some(reach) = super::endpoints::reach(&protocol) else {
        return Err(SnsError::invalid(format_args!(
            "Amazon SNS does not support this protocol string: {}",
            new.protocol
        )));
    };
    if reach == super::endpoints::Reach::Queue {
        let queue = crate::sqs::engine::arn::parse(&new.endpoint)
            .ok_or_else(|| SnsError::invalid("SQS endpoint ARN"))?;
        return Ok((protocol, Some(queue)));
    }
    let role = new
        .attributes
        .get("SubscriptionRoleArn")
        .map(String::as_str);
    super::endpoints::check(&protocol, &new.endpoint, role)?;
    Ok((protocol, None))
}

/// A FIFO queue may only subscribe to a FIFO topic.
fn check_queue_kind(fifo_topic: bool, queue_name: &str) -> SnsResult<()> {
    if fifo_topic || !is_fifo_name(queue_name) {
        return Ok(());
    }
    // Doubled lead as SNS writes it [unverified].
    Err(SnsError::invalid(
        "Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to standard SNS topics",
    ))
}

/// What Subscribe made or found.
#[derive(Debug, Clone)]
pub struct Subscribed {
    /// `SubscriptionArn`.
    pub arn: String,
    /// Whether it waits for confirmation (http/s, email).
    pub pending: bool,
    /// For a pending subscription: what its SubscriptionConfirmation says.
    pub confirmation: Option<super::confirm::Confirmation>,
}

impl Subscribed {
    /// Subscribe's answer for `sub`.
    fn of(sub: &Subscription) -> Self {
        Subscribed {
            arn: sub.arn.clone(),
            pending: sub.confirmation.pending,
            confirmation: super::confirm::Confirmation::of(sub),
        }
    }
}

/// What Subscribe asks for.
#[derive(Debug, Default)]
pub struct NewSubscription {
    /// TopicArn: the topic to subscribe to.
    pub topic_arn: String,
    /// Protocol: `sqs`, `http`, `https`, `email`, `lambda`...
    pub protocol: String,
    /// Endpoint: a queue ARN, a URL, an address...
    pub endpoint: String,
    /// Attributes: RawMessageDelivery, FilterPolicy, RedrivePolicy...
    pub attributes: BTreeMap<String, String>,
    /// The caller's principal ARN; none is the owner's account root (unsigned callers,
    /// declared subscriptions).
    pub principal: Option<String>,
}

impl State {
    /// The subscriptions of topic `arn`, in ARN order.
    pub(super) fn subscriptions_of<'a>(
        &'a self,
        topic_arn: &str,
    ) -> impl Iterator<Item = &'a Subscription> {
        let lead = format!("{topic_arn}:");
        self.subscriptions
            .range(lead.clone()..)
            .take_while(move |(k, _)| k.starts_with(&lead))
            .map(|(_, s)| s)
    }
}

impl Sns {
    /// Subscribe for a caller that needs no confirmation message: the subscription's ARN
    /// (declared subscriptions; a pending one's token is issued at `now`, so it lasts).
    pub fn subscribe(
        &self,
        owner: Owner<'_>,
        new: NewSubscription,
        now: crate::clock::Millis,
    ) -> SnsResult<String> {
        self.subscribe_at(owner, new, now).map(|s| s.arn)
    }

    /// Subscribe: validates, then makes the subscription, or finds the existing one for the
    /// same topic, protocol and endpoint with the same attributes. A pending one comes back
    /// with the confirmation to send its endpoint (again, for a repeated Subscribe).
    pub fn subscribe_at(
        &self,
        owner: Owner<'_>,
        new: NewSubscription,
        now: crate::clock::Millis,
    ) -> SnsResult<Subscribed> {
        let (protocol, queue) = checked_endpoint(&new)?;
        let mut state = self.lock();
        let topic = state.topic(&new.topic_arn)?;
        if let Some(queue) = &queue {
            check_queue_kind(topic.fifo, &queue.name)?;
        }
        // Another account's queue is pending until its owner confirms, as an http endpoint
        // is: its SubscriptionConfirmation is delivered into the queue (SNS developer guide,
        // "Sending Amazon SNS messages to an Amazon SQS queue in a different account").
        let other_account = queue.as_ref().is_some_and(|q| q.account != topic.owner);
        let pending = super::endpoints::needs_confirmation(&protocol) || other_account;
        let mut sub = Subscription {
            arn: format!("{}:{}", topic.arn, uuid::Uuid::new_v4()),
            topic_arn: topic.arn.clone(),
            owner: owner.account.to_owned(),
            principal: new
                .principal
                .unwrap_or_else(|| format!("arn:aws:iam::{}:root", owner.account)),
            protocol,
            endpoint: new.endpoint,
            raw: false,
            filter: None,
            scope: Scope::MessageAttributes,
            dead_letter_arn: None,
            set: BTreeMap::new(),
            confirmation: ConfirmationState {
                pending,
                token: pending.then(|| (super::confirm::new_token(), now)),
                authenticated: !pending,
                authenticate_on_unsubscribe: false,
            },
        };
        // The scope first, so the policy is read under it whatever the order given.
        let mut attributes: Vec<_> = new.attributes.iter().collect();
        attributes.sort_by_key(|(k, _)| *k != "FilterPolicyScope");
        for (name, value) in attributes {
            sub.apply(name, value, SnsVia::Subscribe)?;
        }
        if let Some(existing) = state
            .subscriptions_of(&sub.topic_arn)
            .find(|s| s.protocol == sub.protocol && s.endpoint == sub.endpoint)
        {
            if asks_otherwise(&existing.set, &new.attributes) {
                return Err(SnsError::invalid(
                    "Attributes Reason: Subscription already exists with different attributes",
                ));
            }
            return Ok(Subscribed::of(existing));
        }
        self.check_bounds(&state, &sub.topic_arn, owner.account)?;
        let subscribed = Subscribed::of(&sub);
        let arn = sub.arn.clone();
        state.subscriptions.insert(arn.clone(), sub);
        self.log_subscription(&state, &arn);
        Ok(subscribed)
    }

    /// Whether `account` may add a subscription to `topic_arn`: the topic's quota, then
    /// `max_subscriptions` and the account's share of it. Both refusals are SNS's
    /// SubscriptionLimitExceeded; the messages are sqslite's \[unverified\].
    fn check_bounds(&self, state: &State, topic_arn: &str, account: &str) -> SnsResult<()> {
        let limit = crate::sns::error::SnsErrorKind::SubscriptionLimitExceeded;
        if state.subscriptions_of(topic_arn).count() >= self.limits.subscriptions_per_topic {
            return Err(SnsError::new(limit, "Subscription limit exceeded"));
        }
        let quota = Quota::whole(self.limits.subscriptions).among(self.accounts);
        // The subscriber pays: a subscription counts for the account that made it, whoever
        // owns the topic.
        let mine = || {
            let all = state.subscriptions.values();
            all.filter(|s| s.owner == account).count()
        };
        quota
            .admit(state.subscriptions.len(), mine)
            .map_err(|over| {
                let words = over.message("subscriptions", "max_subscriptions", "unsubscribe");
                SnsError::new(limit, words)
            })
    }

    /// Unsubscribe; the topic counts it as deleted.
    #[cfg(test)]
    pub fn unsubscribe(&self, arn: &str) -> SnsResult<()> {
        self.remove_subscription(arn).map(drop)
    }

    /// Unsubscribe, returning what was removed (its endpoint may be told).
    pub fn remove_subscription(&self, arn: &str) -> SnsResult<Subscription> {
        let mut state = self.lock();
        let sub = state
            .subscriptions
            .remove(arn)
            .ok_or_else(SnsError::subscription_not_found)?;
        if let Some(topic) = state.topics.get_mut(&sub.topic_arn) {
            topic.subscriptions_deleted += 1;
        }
        self.log_subscription(&state, arn);
        self.log_topic(&state, &sub.topic_arn);
        Ok(sub)
    }

    /// Whether a platform application endpoint is known: sqslite serves no
    /// CreatePlatformEndpoint, so an endpoint exists once an `application` subscription names
    /// it \[unverified: sqslite's own notion\]; a Publish to any other is refused as AWS refuses
    /// one to an endpoint that does not exist.
    pub fn knows_endpoint(&self, endpoint_arn: &str) -> bool {
        self.lock()
            .subscriptions
            .values()
            .any(|s| s.protocol == "application" && s.endpoint == endpoint_arn)
    }

    /// A copy of the subscription `arn`, or NotFound.
    pub fn subscription(&self, arn: &str) -> SnsResult<Subscription> {
        self.lock()
            .subscriptions
            .get(arn)
            .cloned()
            .ok_or_else(SnsError::subscription_not_found)
    }

    /// SetSubscriptionAttributes: checks and sets one attribute.
    pub fn set_subscription_attribute(&self, arn: &str, name: &str, value: &str) -> SnsResult<()> {
        let mut state = self.lock();
        let sub = state
            .subscriptions
            .get_mut(arn)
            .ok_or_else(SnsError::subscription_not_found)?;
        // On a copy: a refused value leaves the subscription as it was.
        let mut changed = sub.clone();
        changed.apply(name, value, SnsVia::SetSubscriptionAttributes)?;
        *sub = changed;
        self.log_subscription(&state, arn);
        Ok(())
    }

    /// ListSubscriptions (the owner's, any topic) or ListSubscriptionsByTopic.
    pub fn list_subscriptions(
        &self,
        owner: Owner<'_>,
        topic_arn: Option<&str>,
        next_token: Option<&str>,
    ) -> SnsResult<(Vec<Subscription>, Option<String>)> {
        let state = self.lock();
        let lead = match topic_arn {
            Some(arn) => {
                state.topic(arn)?;
                format!("{arn}:")
            }
            None => owner.arn_prefix(),
        };
        let range = state
            .subscriptions
            .range(lead.clone()..)
            .take_while(|(k, _)| k.starts_with(&lead));
        let (subs, next) = page(range, &lead, next_token)?;
        Ok((subs.into_iter().cloned().collect(), next))
    }
}
