//! Subscriptions: Subscribe (protocol `sqs`, confirmed at once), their attributes with SNS's
//! rules (RawMessageDelivery, FilterPolicy and its scope, RedrivePolicy), listing, removal.

use std::collections::BTreeMap;

use super::topics::is_fifo_name;
use super::{page, Owner, Sns, State};
use crate::patterns::{FilterPolicy, Scope, SnsVia};
use crate::sns::error::{SnsError, SnsResult};

/// The attributes Subscribe and SetSubscriptionAttributes take.
pub const SETTABLE: &[&str] = &[
    "DeliveryPolicy",
    "FilterPolicy",
    "FilterPolicyScope",
    "RawMessageDelivery",
    "RedrivePolicy",
    "SubscriptionRoleArn",
    "ReplayPolicy",
];

/// Protocols SNS knows; sqslite delivers only to `sqs` so far.
const PROTOCOLS: &[&str] = &[
    "http",
    "https",
    "email",
    "email-json",
    "sms",
    "sqs",
    "application",
    "lambda",
    "firehose",
];

#[derive(Debug, Clone)]
pub struct Subscription {
    pub arn: String,
    pub topic_arn: String,
    pub owner: String,
    pub protocol: String,
    pub endpoint: String,
    pub raw: bool,
    pub filter: Option<FilterPolicy>,
    pub scope: Scope,
    /// The DLQ's ARN from the RedrivePolicy.
    pub dead_letter_arn: Option<String>,
    /// Every attribute set, as given (FilterPolicy, RedrivePolicy… as text).
    pub(super) set: BTreeMap<String, String>,
}

impl Subscription {
    /// GetSubscriptionAttributes' answer.
    pub fn attributes(&self) -> BTreeMap<String, String> {
        let mut out = self.set.clone();
        for (k, v) in [
            ("SubscriptionArn", self.arn.as_str()),
            ("TopicArn", &self.topic_arn),
            ("Owner", &self.owner),
            ("Protocol", &self.protocol),
            ("Endpoint", &self.endpoint),
            ("PendingConfirmation", "false"),
            ("ConfirmationWasAuthenticated", "true"),
            (
                "RawMessageDelivery",
                if self.raw { "true" } else { "false" },
            ),
        ] {
            out.insert(k.to_owned(), v.to_owned());
        }
        if self.filter.is_some() {
            let scope = match self.scope {
                Scope::MessageAttributes => "MessageAttributes",
                Scope::MessageBody => "MessageBody",
            };
            out.insert("FilterPolicyScope".into(), scope.into());
        }
        out
    }

    /// Applies one attribute after checking it; `via` words a filter-policy refusal.
    pub(super) fn apply(&mut self, name: &str, value: &str, via: SnsVia) -> SnsResult<()> {
        let reason = |detail: &str| match via {
            SnsVia::Subscribe => SnsError::invalid(format_args!("Attributes Reason: {detail}")),
            SnsVia::SetSubscriptionAttributes => SnsError::invalid(detail),
        };
        match name {
            "RawMessageDelivery" => {
                self.raw = parse_bool(value).ok_or_else(|| {
                    reason(&format!(
                        "RawMessageDelivery: Invalid value [{value}]. Must be true or false."
                    ))
                })?;
            }
            "FilterPolicyScope" => {
                self.scope = match value {
                    "MessageAttributes" => Scope::MessageAttributes,
                    "MessageBody" => Scope::MessageBody,
                    _ => {
                        return Err(reason(&format!(
                            "FilterPolicyScope: Invalid filter policy scope: {value}"
                        )))
                    }
                };
                self.reparse_filter(via)?;
            }
            "FilterPolicy" if value.is_empty() => {
                self.filter = None;
                self.set.remove(name);
                return Ok(());
            }
            "FilterPolicy" => {
                self.filter = Some(FilterPolicy::parse_sns(value, self.scope).map_err(|e| {
                    SnsError::new(
                        crate::sns::error::SnsErrorKind::InvalidParameter,
                        e.sns_message(via),
                    )
                })?);
            }
            "RedrivePolicy" => {
                self.dead_letter_arn = Some(dead_letter_arn(value).map_err(|d| reason(&d))?);
            }
            "DeliveryPolicy" | "ReplayPolicy"
                if serde_json::from_str::<serde_json::Value>(value).is_err() =>
            {
                return Err(reason(&format!("{name}: failed to parse JSON.")));
            }
            _ if SETTABLE.contains(&name) => {}
            _ => return Err(SnsError::invalid("AttributeName")),
        }
        self.set.insert(name.to_owned(), value.to_owned());
        Ok(())
    }

    /// A scope change re-reads the policy under the new scope.
    fn reparse_filter(&mut self, via: SnsVia) -> SnsResult<()> {
        if let Some(text) = self.set.get("FilterPolicy") {
            self.filter = Some(FilterPolicy::parse_sns(text, self.scope).map_err(|e| {
                SnsError::new(
                    crate::sns::error::SnsErrorKind::InvalidParameter,
                    e.sns_message(via),
                )
            })?);
        }
        Ok(())
    }
}

fn parse_bool(value: &str) -> Option<bool> {
    if value.eq_ignore_ascii_case("true") {
        Some(true)
    } else if value.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// The SQS queue ARN of a RedrivePolicy `{"deadLetterTargetArn": "arn:aws:sqs:…"}`
/// [unverified wording of the refusals].
fn dead_letter_arn(policy: &str) -> Result<String, String> {
    let doc: serde_json::Value = serde_json::from_str(policy)
        .map_err(|_| "RedrivePolicy: failed to parse JSON.".to_owned())?;
    let arn = doc
        .get("deadLetterTargetArn")
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| "RedrivePolicy: deadLetterTargetArn is missing".to_owned())?;
    if crate::engine::arn::parse(arn).is_none() {
        return Err("RedrivePolicy: deadLetterTargetArn is an invalid arn".to_owned());
    }
    Ok(arn.to_owned())
}

/// What Subscribe asks for.
#[derive(Debug, Default)]
pub struct NewSubscription {
    pub topic_arn: String,
    pub protocol: String,
    pub endpoint: String,
    pub attributes: BTreeMap<String, String>,
}

impl State {
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
    /// Subscribe: validates, then returns the new subscription's ARN, or the existing one's
    /// for the same topic, protocol and endpoint with the same attributes.
    pub fn subscribe(&self, owner: Owner<'_>, new: NewSubscription) -> SnsResult<String> {
        let protocol = new.protocol.to_ascii_lowercase();
        if !PROTOCOLS.contains(&protocol.as_str()) {
            return Err(SnsError::invalid(format_args!(
                "Amazon SNS does not support this protocol string: {}",
                new.protocol
            )));
        }
        if protocol != "sqs" {
            return Err(SnsError::invalid(format_args!(
                "Protocol: sqslite delivers to sqs subscriptions only, not yet to {protocol}"
            )));
        }
        let queue = crate::engine::arn::parse(&new.endpoint)
            .ok_or_else(|| SnsError::invalid("SQS endpoint ARN"))?;
        let mut state = self.lock();
        let topic = state.topic(&new.topic_arn)?;
        if topic.fifo != is_fifo_name(&queue.name) {
            return Err(SnsError::invalid(if topic.fifo {
                "Endpoint Reason: Please use FIFO SQS queue"
            } else {
                // Doubled lead as SNS writes it [unverified].
                "Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to standard SNS topics"
            }));
        }
        let mut sub = Subscription {
            arn: format!("{}:{}", topic.arn, uuid::Uuid::new_v4()),
            topic_arn: topic.arn.clone(),
            owner: owner.account.to_owned(),
            protocol,
            endpoint: new.endpoint,
            raw: false,
            filter: None,
            scope: Scope::MessageAttributes,
            dead_letter_arn: None,
            set: BTreeMap::new(),
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
            if existing.set != sub.set {
                return Err(SnsError::invalid(
                    "Attributes Reason: Subscription already exists with different attributes",
                ));
            }
            return Ok(existing.arn.clone());
        }
        let arn = sub.arn.clone();
        state.subscriptions.insert(arn.clone(), sub);
        self.log_subscription(&state, &arn);
        Ok(arn)
    }

    /// Unsubscribe; the topic counts it as deleted.
    pub fn unsubscribe(&self, arn: &str) -> SnsResult<()> {
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
        Ok(())
    }

    pub fn subscription(&self, arn: &str) -> SnsResult<Subscription> {
        self.lock()
            .subscriptions
            .get(arn)
            .cloned()
            .ok_or_else(SnsError::subscription_not_found)
    }

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
        let (subs, next) = page(range, next_token);
        Ok((subs.into_iter().cloned().collect(), next))
    }
}
