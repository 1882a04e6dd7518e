//! Declared topics (`[[topics]]` in sqslite.toml, [`crate::Config::with_topic`]) and their
//! subscriptions, created before the port opens through the engine's own CreateTopic and
//! Subscribe, so a declaration SNS would refuse fails the start with SNS's message. A
//! declared topic already there (recovered from the data directory) gets what the
//! declaration names through SetTopicAttributes, TagResource and SetSubscriptionAttributes:
//! an edited file takes effect at the next start, as declared queues' do.

use std::collections::BTreeMap;

use super::engine::subscriptions::NewSubscription;
use super::engine::topics::NewTopic;
use super::engine::{Owner, Sns};
use super::error::SnsResult;
use crate::clock::Millis;

/// A topic to create at startup, with SNS attribute names and string values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopicDecl {
    /// The topic's name (`.fifo` for a FIFO topic).
    pub name: String,
    /// Defaults to the server's region and account.
    pub region: Option<String>,
    /// The owning account; defaults to the server's.
    pub account_id: Option<String>,
    /// CreateTopic attributes by SNS's names, e.g. `DisplayName`.
    pub attributes: BTreeMap<String, String>,
    /// The topic's tags, key to value.
    pub tags: BTreeMap<String, String>,
    /// Subscriptions created with the topic.
    pub subscriptions: Vec<SubscriptionDecl>,
    /// Where it was declared (`file:line`), to point errors at it.
    pub origin: Option<String>,
}

/// One subscription of a declared topic.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubscriptionDecl {
    /// SNS's protocol: `sqs`, `http`, `https`, `email`...
    pub protocol: String,
    /// For `sqs`, a queue name (the topic's region and account) or a queue ARN.
    pub endpoint: String,
    /// Subscription attributes (RawMessageDelivery, FilterPolicy…), as SNS names them.
    pub attributes: BTreeMap<String, String>,
    /// Shorthand for a RedrivePolicy naming this queue (a name or an ARN).
    pub dead_letter_queue: Option<String>,
    /// Where it was declared (`file:line`), to point errors at it.
    pub origin: Option<String>,
}

impl TopicDecl {
    /// A topic named `name` with SNS's default attributes.
    pub fn new(name: impl Into<String>) -> Self {
        TopicDecl {
            name: name.into(),
            ..TopicDecl::default()
        }
    }

    /// Sets an attribute by its SNS name, e.g. `("DisplayName", "Orders")`.
    #[must_use]
    pub fn attribute(mut self, name: impl Into<String>, value: impl std::fmt::Display) -> Self {
        self.attributes.insert(name.into(), value.to_string());
        self
    }

    /// Adds a tag.
    #[must_use]
    pub fn tag(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.tags.insert(key.into(), value.into());
        self
    }

    /// Adds a subscription.
    #[must_use]
    pub fn subscription(mut self, subscription: SubscriptionDecl) -> Self {
        self.subscriptions.push(subscription);
        self
    }
}

impl SubscriptionDecl {
    /// An `sqs` subscription delivering into `queue` (a name or an ARN).
    pub fn sqs(queue: impl Into<String>) -> Self {
        SubscriptionDecl {
            protocol: "sqs".into(),
            endpoint: queue.into(),
            ..SubscriptionDecl::default()
        }
    }

    /// Sets a subscription attribute by its SNS name, e.g. `("RawMessageDelivery", true)`.
    #[must_use]
    pub fn attribute(mut self, name: impl Into<String>, value: impl std::fmt::Display) -> Self {
        self.attributes.insert(name.into(), value.to_string());
        self
    }
}

/// Creates (or brings up to date) every declared topic and subscription, in the default
/// `(region, account)` unless a declaration names its own; the message names the declaration
/// that failed and SNS's error. A pending (http/s, email) subscription's token is issued at
/// `now`, so it can be confirmed for the two days SNS gives it.
pub fn declare_all(
    sns: &Sns,
    topics: &[TopicDecl],
    (region, account): (&str, &str),
    now: Millis,
) -> Result<(), String> {
    for decl in topics {
        let owner = Owner {
            region: decl.region.as_deref().unwrap_or(region),
            account: decl.account_id.as_deref().unwrap_or(account),
        };
        let arn = declare_topic(sns, owner, decl).map_err(|e| describe(decl, None, &e))?;
        for sub in &decl.subscriptions {
            declare_subscription(sns, owner, &arn, sub, now)
                .map_err(|e| describe(decl, Some(sub), &e))?;
        }
    }
    Ok(())
}

fn declare_topic(sns: &Sns, owner: Owner<'_>, decl: &TopicDecl) -> SnsResult<String> {
    let arn = owner.topic_arn(&decl.name);
    let Ok(existing) = sns.topic_attributes(&arn) else {
        return sns.create_topic(
            owner,
            NewTopic {
                name: decl.name.clone(),
                attributes: decl.attributes.clone(),
                tags: decl.tags.clone(),
            },
        );
    };
    // A name ending in `.fifo` is a FIFO topic, so FifoTopic cannot differ; SNS refuses to
    // set it after creation.
    for (name, value) in decl.attributes.iter().filter(|(k, _)| *k != "FifoTopic") {
        if existing.get(name) != Some(value) {
            sns.set_topic_attribute(&arn, name, value)?;
        }
    }
    let tags = sns.topic_tags(&arn)?;
    if decl.tags.iter().any(|(k, v)| tags.get(k) != Some(v)) {
        sns.tag_topic(&arn, decl.tags.clone())?;
    }
    Ok(arn)
}

fn declare_subscription(
    sns: &Sns,
    owner: Owner<'_>,
    topic_arn: &str,
    decl: &SubscriptionDecl,
    now: Millis,
) -> SnsResult<()> {
    let protocol = decl.protocol.to_ascii_lowercase();
    let endpoint = if protocol == "sqs" {
        queue_arn(owner, &decl.endpoint)
    } else {
        decl.endpoint.clone()
    };
    let mut attributes = decl.attributes.clone();
    if let Some(dlq) = &decl.dead_letter_queue {
        let policy = serde_json::json!({ "deadLetterTargetArn": queue_arn(owner, dlq) });
        attributes.insert("RedrivePolicy".into(), policy.to_string());
    }
    let Some(existing) = find(sns, owner, topic_arn, &protocol, &endpoint)? else {
        sns.subscribe(
            owner,
            NewSubscription {
                topic_arn: topic_arn.to_owned(),
                protocol: decl.protocol.clone(),
                endpoint,
                attributes,
                principal: None,
            },
            now,
        )?;
        return Ok(());
    };
    let current = existing.attributes();
    // The scope first, so a new policy is read under the declared scope.
    let mut changes: Vec<_> = attributes
        .iter()
        .filter(|(k, v)| current.get(*k) != Some(*v))
        .collect();
    changes.sort_by_key(|(k, _)| *k != "FilterPolicyScope");
    for (name, value) in changes {
        sns.set_subscription_attribute(&existing.arn, name, value)?;
    }
    Ok(())
}

/// The topic's subscription with this protocol and endpoint, if it has one.
fn find(
    sns: &Sns,
    owner: Owner<'_>,
    topic_arn: &str,
    protocol: &str,
    endpoint: &str,
) -> SnsResult<Option<super::engine::Subscription>> {
    let mut token = None;
    loop {
        let (page, next) = sns.list_subscriptions(owner, Some(topic_arn), token.as_deref())?;
        if let Some(found) = page
            .into_iter()
            .find(|s| s.protocol == protocol && s.endpoint == endpoint)
        {
            return Ok(Some(found));
        }
        match next {
            Some(next) => token = Some(next),
            None => return Ok(None),
        }
    }
}

/// A queue ARN as given, or a queue name's ARN in the topic's region and account.
fn queue_arn(owner: Owner<'_>, queue: &str) -> String {
    if queue.starts_with("arn:") {
        queue.to_owned()
    } else {
        format!("arn:aws:sqs:{}:{}:{queue}", owner.region, owner.account)
    }
}

fn describe(
    decl: &TopicDecl,
    sub: Option<&SubscriptionDecl>,
    error: &super::error::SnsError,
) -> String {
    let what = match sub {
        Some(s) => format!(
            "topic `{}`: subscription to `{}`: {error}",
            decl.name, s.endpoint
        ),
        None => format!("topic `{}`: {error}", decl.name),
    };
    match sub.and_then(|s| s.origin.as_ref()).or(decl.origin.as_ref()) {
        Some(origin) => format!("{origin}: {what}"),
        None => what,
    }
}
