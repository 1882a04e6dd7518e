//! The SNS engine's state as plain records, for durable mode: every change a mutator makes
//! is reported, under the lock that made it, to the [`SnsJournal`] the engine was given;
//! [`Sns::snapshot`] writes the whole state as the same records and [`Sns::restore`] applies
//! them back. Like the SQS engine's mutations (`crate::sqs::engine::mutation`) each record is an
//! absolute assignment (a topic or subscription as it now stands, a deletion, one FIFO
//! deduplication entry), so replaying it over a state that already holds it changes nothing.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::io;

use super::subscriptions::ConfirmationState;
use super::topics::FirstPublish;
use super::{Sns, State, Subscription, Topic};
use crate::clock::Millis;
use crate::patterns::{Scope, SnsVia};
use crate::sqs::engine::fifo::WINDOW_MS;

/// One change of SNS state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnsRecord {
    /// A topic as it now stands (created, attributes or tags changed, a subscription gone).
    Topic(TopicMeta),
    /// The topic and every subscription of it are gone.
    TopicDeleted {
        /// The topic's ARN.
        arn: String,
    },
    /// A subscription as it now stands (created or an attribute set).
    Subscription(SubscriptionMeta),
    /// A subscription is gone (unsubscribed or its topic deleted).
    SubscriptionDeleted {
        /// The subscription's ARN.
        arn: String,
    },
    /// A FIFO publish remembered for the deduplication window, and the topic's sequence.
    Dedup(DedupMeta),
    /// Every topic and subscription is gone (the admin reset).
    Cleared,
}

/// A topic's identity, settings and counters; its deduplication window travels as
/// [`SnsRecord::Dedup`] records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicMeta {
    /// The topic's ARN.
    pub arn: String,
    /// Its name.
    pub name: String,
    /// The owning account.
    pub owner: String,
    /// Whether it is a FIFO topic.
    pub fifo: bool,
    /// The attributes set by CreateTopic or SetTopicAttributes, as given.
    pub attributes: BTreeMap<String, String>,
    /// Its tags.
    pub tags: BTreeMap<String, String>,
    /// The last FIFO sequence number given out.
    pub sequence: u64,
    /// Subscriptions removed so far, for `SubscriptionsDeleted`.
    pub subscriptions_deleted: u64,
}

/// A subscription's identity, the attributes set on it, as given (what they mean: raw
/// delivery, filter policy, dead-letter queue, is read from them again on restore), and
/// its confirmation, so a pending one keeps its token across a restart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionMeta {
    /// The subscription's ARN.
    pub arn: String,
    /// Its topic.
    pub topic_arn: String,
    /// The subscribing account.
    pub owner: String,
    /// The ARN of the identity that subscribed it.
    pub principal: String,
    /// Its protocol.
    pub protocol: String,
    /// Its endpoint.
    pub endpoint: String,
    /// The attributes as set, by SNS's names.
    pub attributes: BTreeMap<String, String>,
    /// Pending or confirmed, with the token.
    pub confirmation: ConfirmationState,
}

/// The first publish of a deduplication id on a FIFO topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DedupMeta {
    /// The FIFO topic.
    pub topic_arn: String,
    /// The deduplication id.
    pub id: String,
    /// When the window for this id closes.
    pub until: Millis,
    /// The first publish's message id, answered again to repeats.
    pub message_id: String,
    /// The first publish's sequence number.
    pub sequence_number: String,
    /// The topic's sequence counter after this publish.
    pub sequence: u64,
}

/// Observes every SNS change in the order it was made. Called under the engine's lock: it
/// must be quick and must not call back into the engine.
pub trait SnsJournal: Send + Sync + Debug {
    /// Takes one change, before the operation returns.
    fn record(&self, record: &SnsRecord);
}

impl Topic {
    /// The topic as a record.
    fn meta(&self) -> TopicMeta {
        TopicMeta {
            arn: self.arn.clone(),
            name: self.name.clone(),
            owner: self.owner.clone(),
            fifo: self.fifo,
            attributes: self.set.clone(),
            tags: self.tags.clone(),
            sequence: self.sequence,
            subscriptions_deleted: self.subscriptions_deleted,
        }
    }

    /// The live deduplication windows of this topic at `now`, as records.
    fn dedup_records(&self, now: Millis) -> impl Iterator<Item = SnsRecord> + '_ {
        self.dedup.live(now).map(|(id, first, until)| {
            SnsRecord::Dedup(DedupMeta {
                topic_arn: self.arn.clone(),
                id: id.to_owned(),
                until,
                message_id: first.message_id.clone(),
                sequence_number: first.sequence_number.clone(),
                sequence: self.sequence,
            })
        })
    }
}

impl Subscription {
    /// The subscription as a record.
    fn meta(&self) -> SubscriptionMeta {
        SubscriptionMeta {
            arn: self.arn.clone(),
            topic_arn: self.topic_arn.clone(),
            owner: self.owner.clone(),
            principal: self.principal.clone(),
            protocol: self.protocol.clone(),
            endpoint: self.endpoint.clone(),
            attributes: self.set.clone(),
            confirmation: self.confirmation.clone(),
        }
    }

    /// The subscription a record describes, its attributes read as Subscribe reads them.
    fn from_meta(meta: SubscriptionMeta) -> Result<Subscription, String> {
        let mut sub = Subscription {
            arn: meta.arn,
            topic_arn: meta.topic_arn,
            owner: meta.owner,
            principal: meta.principal,
            protocol: meta.protocol,
            endpoint: meta.endpoint,
            raw: false,
            filter: None,
            scope: Scope::MessageAttributes,
            dead_letter_arn: None,
            set: BTreeMap::new(),
            confirmation: meta.confirmation,
        };
        // The scope first, so the policy is read under it (as Subscribe does).
        let mut attributes: Vec<_> = meta.attributes.iter().collect();
        attributes.sort_by_key(|(k, _)| *k != "FilterPolicyScope");
        for (name, value) in attributes {
            sub.apply(name, value, SnsVia::SetSubscriptionAttributes)
                .map_err(|e| {
                    format!(
                        "subscription {}: stored attribute {name} rejected: {}",
                        sub.arn, e.message
                    )
                })?;
        }
        Ok(sub)
    }
}

impl Sns {
    /// An engine whose every change is reported to `journal`.
    pub fn with_journal(journal: std::sync::Arc<dyn SnsJournal>) -> Self {
        Sns {
            journal: Some(journal),
            ..Sns::default()
        }
    }

    /// Reports a change to the journal, if there is one; `record` runs only then.
    fn log(&self, record: impl FnOnce() -> SnsRecord) {
        if let Some(journal) = &self.journal {
            journal.record(&record());
        }
    }

    /// Reports the topic as it now stands in `state`, or its deletion.
    pub(super) fn log_topic(&self, state: &State, arn: &str) {
        self.log(|| match state.topics.get(arn) {
            Some(topic) => SnsRecord::Topic(topic.meta()),
            None => SnsRecord::TopicDeleted {
                arn: arn.to_owned(),
            },
        });
    }

    /// Reports the subscription as it now stands in `state`, or its deletion.
    pub(super) fn log_subscription(&self, state: &State, arn: &str) {
        self.log(|| match state.subscriptions.get(arn) {
            Some(sub) => SnsRecord::Subscription(sub.meta()),
            None => SnsRecord::SubscriptionDeleted {
                arn: arn.to_owned(),
            },
        });
    }

    /// Reports the deduplication entry a FIFO publish just made on `topic`.
    pub(super) fn log_dedup(&self, topic: &Topic, id: &str) {
        let Some((first, until)) = topic.dedup.latest(id) else {
            return;
        };
        self.log(|| {
            SnsRecord::Dedup(DedupMeta {
                topic_arn: topic.arn.clone(),
                id: id.to_owned(),
                until,
                message_id: first.message_id.clone(),
                sequence_number: first.sequence_number.clone(),
                sequence: topic.sequence,
            })
        });
    }

    /// Reports that every topic is gone (the admin API's reset).
    pub(super) fn log_cleared(&self) {
        self.log(|| SnsRecord::Cleared);
    }

    /// How many topics there are, in all regions and accounts (recovery's log line).
    pub fn topic_count(&self) -> usize {
        self.lock().topics.len()
    }

    /// Writes every topic, subscription and open deduplication entry as records. The state
    /// is copied under the lock at one instant and written after it is let go.
    pub fn snapshot(
        &self,
        now: Millis,
        write: &mut dyn FnMut(&SnsRecord) -> io::Result<()>,
    ) -> io::Result<()> {
        let records: Vec<SnsRecord> = {
            let state = self.lock();
            let topics = state.topics.values();
            let mut records: Vec<SnsRecord> =
                topics.clone().map(|t| SnsRecord::Topic(t.meta())).collect();
            records.extend(
                state
                    .subscriptions
                    .values()
                    .map(|s| SnsRecord::Subscription(s.meta())),
            );
            records.extend(topics.flat_map(|t| t.dedup_records(now)));
            records
        };
        records.iter().try_for_each(write)
    }

    /// How many subscription records recovery skipped because their topic was unknown.
    pub fn orphaned_subscriptions(&self) -> usize {
        self.orphans.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Applies one stored record (recovery). Records about a topic that is gone are
    /// skipped: the log still holds them from before its deletion.
    pub fn restore(&self, record: SnsRecord, now: Millis) -> Result<(), String> {
        let mut state = self.lock();
        match record {
            SnsRecord::Topic(meta) => restore_topic(&mut state, meta),
            SnsRecord::TopicDeleted { arn } => {
                state.topics.remove(&arn);
                let lead = format!("{arn}:");
                state.subscriptions.retain(|k, _| !k.starts_with(&lead));
            }
            SnsRecord::Subscription(meta) if state.topics.contains_key(&meta.topic_arn) => {
                let sub = Subscription::from_meta(meta)?;
                state.subscriptions.insert(sub.arn.clone(), sub);
            }
            // A subscription whose topic is unknown: the topic's record was lost (a repair
            // skipped it). Counted, so the repair reports it.
            SnsRecord::Subscription(_) => {
                self.orphans
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            SnsRecord::SubscriptionDeleted { arn } => {
                state.subscriptions.remove(&arn);
            }
            SnsRecord::Dedup(d) => {
                if let Some(topic) = state.topics.get_mut(&d.topic_arn) {
                    topic.sequence = topic.sequence.max(d.sequence);
                    if d.until > now {
                        let first = FirstPublish {
                            message_id: d.message_id,
                            sequence_number: d.sequence_number,
                        };
                        let at = d.until.saturating_sub(WINDOW_MS);
                        topic.dedup.record("", d.id, first, at);
                    }
                }
            }
            SnsRecord::Cleared => *state = State::default(),
        }
        Ok(())
    }
}

/// Creates the topic, or brings an existing one up to date (its deduplication window stays).
fn restore_topic(state: &mut State, meta: TopicMeta) {
    let dedup = state
        .topics
        .remove(&meta.arn)
        .map(|t| t.dedup)
        .unwrap_or_default();
    let mut topic = Topic {
        arn: meta.arn.clone(),
        name: meta.name,
        owner: meta.owner,
        fifo: meta.fifo,
        set: meta.attributes,
        parsed_policy: None,
        tags: meta.tags,
        dedup,
        sequence: meta.sequence,
        subscriptions_deleted: meta.subscriptions_deleted,
    };
    topic.reparse_policy();
    state.topics.insert(meta.arn, topic);
}
