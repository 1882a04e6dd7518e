//! Topics: names, attributes with SNS's defaults and rules, idempotent create, tags.

use std::collections::BTreeMap;

use super::paging::page;
use super::topic_attributes::{
    check_attribute, check_tags, effective_delivery_policy, stored_delivery_policy,
};
pub use super::topic_attributes::{is_feedback_attribute, SETTABLE};
use super::topic_tags::{tag_quota, MAX_TAGS};
use super::{Owner, Sns};
use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};
use crate::sqs::engine::fifo::Dedup;

/// The attribute PutDataProtectionPolicy sets (CreateTopic takes it too).
pub const DATA_PROTECTION_POLICY: &str = "DataProtectionPolicy";

/// One topic: its identity, the attributes as set, its tags and its FIFO state.
#[derive(Debug, Clone)]
pub struct Topic {
    /// The topic's ARN.
    pub arn: String,
    /// Its name.
    pub name: String,
    /// The owning account.
    pub owner: String,
    /// Whether it is a FIFO topic.
    pub fifo: bool,
    /// Attributes set by CreateTopic or SetTopicAttributes, as given.
    pub(super) set: BTreeMap<String, String>,
    /// The Policy (as set, else SNS's default for the owner), parsed when it changes rather
    /// than on each call it decides ([`Topic::reparse_policy`]).
    pub(super) parsed_policy: Option<std::sync::Arc<crate::policy::Policy>>,
    /// Its tags.
    pub tags: BTreeMap<String, String>,
    /// FIFO deduplication: the first publish of each id within SQS's own window (topic-wide,
    /// as SNS deduplicates).
    pub(super) dedup: Dedup<FirstPublish>,
    /// The last FIFO sequence number given out.
    pub(super) sequence: u64,
    /// Subscriptions removed so far, for `SubscriptionsDeleted`.
    pub(super) subscriptions_deleted: u64,
}

/// What a repeat of a FIFO publish is answered with: the first publish's ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstPublish {
    /// The first publish's MessageId.
    pub message_id: String,
    /// The first publish's SequenceNumber.
    pub sequence_number: String,
}

impl Topic {
    /// ContentBasedDeduplication: FIFO deduplication ids computed from the message.
    pub fn content_based_deduplication(&self) -> bool {
        self.set
            .get("ContentBasedDeduplication")
            .is_some_and(|v| v == "true")
    }

    /// SignatureVersion: `1` (SHA1) by default, or `2` (SHA256).
    pub fn signature_version(&self) -> &str {
        self.set.get("SignatureVersion").map_or("1", String::as_str)
    }

    /// Every attribute as GetTopicAttributes returns it, the subscription counts given.
    pub fn attributes(&self, confirmed: usize) -> BTreeMap<String, String> {
        let mut out = self.set.clone();
        out.insert("TopicArn".into(), self.arn.clone());
        out.insert("Owner".into(), self.owner.clone());
        out.insert("Policy".into(), self.policy());
        out.entry("DisplayName".into()).or_default();
        out.insert("SubscriptionsConfirmed".into(), confirmed.to_string());
        out.insert("SubscriptionsPending".into(), "0".into());
        out.insert(
            "SubscriptionsDeleted".into(),
            self.subscriptions_deleted.to_string(),
        );
        let stored = self.set.get("DeliveryPolicy").map(String::as_str);
        out.insert(
            "EffectiveDeliveryPolicy".into(),
            effective_delivery_policy(stored),
        );
        // Recorded: after PutDataProtectionPolicy, GetTopicAttributes lists no
        // DataProtectionPolicy; GetDataProtectionPolicy alone reads it.
        out.remove(DATA_PROTECTION_POLICY);
        if self.fifo {
            out.insert("FifoTopic".into(), "true".into());
            out.entry("ContentBasedDeduplication".into())
                .or_insert_with(|| "false".into());
        }
        out
    }
}

/// FIFO topics and queues are named `….fifo`, in lower case.
pub fn is_fifo_name(name: &str) -> bool {
    name.strip_suffix(".fifo").is_some()
}

/// 1 to 256 of ASCII letters, digits, `-` and `_`, plus `.fifo` for FIFO topics.
pub fn valid_name(name: &str) -> bool {
    let base = name.strip_suffix(".fifo").unwrap_or(name);
    !base.is_empty()
        && name.len() <= 256
        && base
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What CreateTopic asks for.
#[derive(Debug, Default)]
pub struct NewTopic {
    /// Name: `.fifo` for a FIFO topic.
    pub name: String,
    /// Attributes by SNS's names.
    pub attributes: BTreeMap<String, String>,
    /// Tags, up to 50.
    pub tags: BTreeMap<String, String>,
}

impl NewTopic {
    /// The name, attributes and tags against SNS's rules; whether the topic is FIFO.
    fn check(&self) -> SnsResult<bool> {
        let fifo = self
            .attributes
            .get("FifoTopic")
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
        // Recorded, a FIFO name without `.fifo` too (LocalStack's AWS-validated
        // test_create_topic_name_constraints, 2026-02).
        if fifo != is_fifo_name(&self.name) || !valid_name(&self.name) {
            return Err(SnsError::invalid("Topic Name"));
        }
        for (name, value) in &self.attributes {
            check_attribute(name, value, fifo, true).map_err(|e| {
                let message = e.message.replace(
                    "Invalid parameter: ",
                    "Invalid parameter: Attributes Reason: ",
                );
                SnsError::new(e.kind, message)
            })?;
        }
        check_tags(&self.tags)?;
        Ok(fifo)
    }

    /// A CreateTopic of an existing name succeeds only if it asks for what the topic has,
    /// its defaults included (kombu asks for `FifoTopic=false` again on a standard topic).
    fn agrees_with(&self, existing: &Topic) -> SnsResult<()> {
        let current = existing.attributes(0);
        let differs = self.attributes.iter().any(|(k, v)| {
            let have = current.get(k).map(String::as_str).or(match k.as_str() {
                "FifoTopic" | "ContentBasedDeduplication" => Some("false"),
                _ => None,
            });
            have.is_none_or(|have| !same_value(have, v))
        });
        if differs {
            return Err(SnsError::invalid(
                "Attributes Reason: Topic already exists with different attributes",
            ));
        }
        // Fewer of the topic's own tags, or none, agree; any other tag does not (recorded).
        if self
            .tags
            .iter()
            .any(|(k, v)| existing.tags.get(k) != Some(v))
        {
            return Err(SnsError::invalid(
                "Tags Reason: Topic already exists with different tags",
            ));
        }
        Ok(())
    }
}

/// Two spellings of one attribute value: booleans in any case, JSON documents whatever
/// their spacing.
fn same_value(have: &str, asked: &str) -> bool {
    if have == asked || have.eq_ignore_ascii_case(asked) && is_bool(have) {
        return true;
    }
    let json = |t: &str| serde_json::from_str::<serde_json::Value>(t).ok();
    matches!((json(have), json(asked)), (Some(a), Some(b)) if a.is_object() && a == b)
}

/// `true` or `false`, in any case.
fn is_bool(text: &str) -> bool {
    text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false")
}

impl Sns {
    /// Creates a topic, or returns the ARN of the same-named one when the request agrees
    /// with it (SNS's CreateTopic is idempotent).
    pub fn create_topic(&self, owner: Owner<'_>, new: NewTopic) -> SnsResult<String> {
        let fifo = new.check()?;
        let arn = owner.topic_arn(&new.name);
        let mut state = self.lock();
        if let Some(existing) = state.topics.get(&arn) {
            new.agrees_with(existing)?;
            return Ok(arn);
        }
        if new.tags.len() > MAX_TAGS {
            return Err(tag_quota());
        }
        let limit = if fifo {
            self.limits.fifo_topics
        } else {
            self.limits.topics
        };
        let same_kind = |t: &&Topic| t.owner == owner.account && t.fifo == fifo;
        // Counted only near the limit: below it in total, no account can be at it.
        if state.topics.len() >= limit && state.topics.values().filter(same_kind).count() >= limit {
            // The code is SNS's; the message is sqslite's [unverified].
            return Err(SnsError::new(
                SnsErrorKind::TopicLimitExceeded,
                "Topic limit exceeded",
            ));
        }
        let mut set = new.attributes;
        set.remove("FifoTopic");
        if let Some(policy) = set.get_mut("DeliveryPolicy") {
            *policy = stored_delivery_policy(policy);
        }
        let mut topic = Topic {
            arn: arn.clone(),
            name: new.name,
            owner: owner.account.to_owned(),
            fifo,
            set,
            parsed_policy: None,
            tags: new.tags,
            dedup: Dedup::default(),
            sequence: 0,
            subscriptions_deleted: 0,
        };
        topic.reparse_policy();
        state.topics.insert(arn.clone(), topic);
        self.log_topic(&state, &arn);
        Ok(arn)
    }

    /// GetTopicAttributes.
    pub fn topic_attributes(&self, arn: &str) -> SnsResult<BTreeMap<String, String>> {
        let state = self.lock();
        let topic = state.topic(arn)?;
        let pending = state
            .subscriptions_of(arn)
            .filter(|s| s.confirmation.pending)
            .count();
        let confirmed = state.subscriptions_of(arn).count() - pending;
        let mut attributes = topic.attributes(confirmed);
        attributes.insert("SubscriptionsPending".into(), pending.to_string());
        Ok(attributes)
    }

    /// The topic's data protection policy, kept as the attribute of that name.
    pub fn data_protection_policy(&self, arn: &str) -> SnsResult<Option<String>> {
        Ok(self
            .lock()
            .topic(arn)?
            .set
            .get(DATA_PROTECTION_POLICY)
            .cloned())
    }

    /// A copy of the topic, for reading its settings outside the lock.
    pub fn topic(&self, arn: &str) -> SnsResult<Topic> {
        self.lock().topic(arn).cloned()
    }

    /// SetTopicAttributes: one attribute; an empty Policy or DeliveryPolicy reverts it.
    pub fn set_topic_attribute(&self, arn: &str, name: &str, value: &str) -> SnsResult<()> {
        let mut state = self.lock();
        let topic = state.topic_mut(arn)?;
        if value.is_empty() && name != "DisplayName" {
            if !SETTABLE.contains(&name) && !is_feedback_attribute(name) {
                return Err(SnsError::invalid("AttributeName"));
            }
            topic.set.remove(name);
            topic.reparse_policy();
        } else {
            check_attribute(name, value, topic.fifo, false)?;
            let value = if name == "DeliveryPolicy" {
                stored_delivery_policy(value)
            } else {
                value.to_owned()
            };
            topic.set.insert(name.to_owned(), value);
            topic.reparse_policy();
        }
        self.log_topic(&state, arn);
        Ok(())
    }

    /// Rewrites the topic's Policy under the lock (AddPermission, RemovePermission), so two
    /// edits at once never lose one; the result is validated as SetTopicAttributes would.
    pub fn edit_policy(
        &self,
        arn: &str,
        edit: impl FnOnce(&str) -> SnsResult<String>,
    ) -> SnsResult<()> {
        let mut state = self.lock();
        let topic = state.topic_mut(arn)?;
        let text = edit(&topic.policy())?;
        let parsed = super::access::check_policy(&text)?;
        topic.set.insert("Policy".to_owned(), text);
        topic.parsed_policy = Some(std::sync::Arc::new(parsed));
        self.log_topic(&state, arn);
        Ok(())
    }

    /// ListTopics: the owner's topics in ARN order, 100 a page; a token this listing did
    /// not make reads as the first page (the action refuses it: [`Sns::topics_page`]).
    #[cfg(test)]
    pub fn list_topics(
        &self,
        owner: Owner<'_>,
        next_token: Option<&str>,
    ) -> (Vec<String>, Option<String>) {
        self.topics_page(owner, next_token)
            .or_else(|_| self.topics_page(owner, None))
            .unwrap_or_default()
    }

    /// ListTopics as the API answers it: a bad NextToken is `InvalidParameter`.
    pub fn topics_page(
        &self,
        owner: Owner<'_>,
        next_token: Option<&str>,
    ) -> SnsResult<(Vec<String>, Option<String>)> {
        let prefix = owner.arn_prefix();
        let state = self.lock();
        let range = state
            .topics
            .range(prefix.clone()..)
            .take_while(|(k, _)| k.starts_with(&prefix));
        let (topics, next) = page(range, &prefix, next_token)?;
        Ok((topics.into_iter().map(|t| t.arn.clone()).collect(), next))
    }

    /// DeleteTopic, with its subscriptions; deleting a missing topic succeeds.
    pub fn delete_topic(&self, arn: &str) {
        let mut state = self.lock();
        if state.topics.remove(arn).is_none() {
            return;
        }
        let lead = format!("{arn}:");
        state.subscriptions.retain(|k, _| !k.starts_with(&lead));
        self.log_topic(&state, arn);
    }
}
