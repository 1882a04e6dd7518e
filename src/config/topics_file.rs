//! `[[topics]]` in sqslite.toml, each with its `[[topics.subscriptions]]`: SNS attributes
//! under SNS's own names (the JSON ones, such as FilterPolicy, also as a TOML table), the
//! way `[[queues]]` takes SQS's. Values are checked by SNS's own rules when the topic is
//! created ([`crate::sns::declare`]); here only the keys are.

use super::toml_file::tables;
use super::tree::{ConfigError, Entry, Node, Source, Table, Value};
use crate::sns::declare::{SubscriptionDecl, TopicDecl};
use crate::sns::engine::{subscriptions, topics};

pub(super) const TOPIC_KEYS: &[&str] = &["name", "region", "account_id", "tags", "subscriptions"];
pub(super) const SUBSCRIPTION_KEYS: &[&str] = &["protocol", "endpoint", "dead_letter_queue"];

/// One `[[topics]]` table.
pub fn topic(src: &Source, node: &Node, table: &Table) -> Result<TopicDecl, ConfigError> {
    let mut decl = TopicDecl {
        origin: Some(src.at(node.line)),
        ..TopicDecl::default()
    };
    let is_attribute = |k: &str| {
        k == "FifoTopic" || topics::SETTABLE.contains(&k) || topics::is_feedback_attribute(k)
    };
    for e in &table.entries {
        match e.key.as_str() {
            "name" => decl.name = src.string(e)?,
            "region" => decl.region = Some(src.string(e)?),
            "account_id" => decl.account_id = Some(src.string(e)?),
            "tags" => decl.tags = src.string_map(e)?,
            "subscriptions" => {
                for (node, table) in tables(src, e)? {
                    decl.subscriptions.push(subscription(src, node, table)?);
                }
            }
            k if is_attribute(k) => {
                decl.attributes
                    .insert(k.to_owned(), attribute_text(src, e)?);
            }
            _ => {
                let known: Vec<&str> = TOPIC_KEYS
                    .iter()
                    .chain(topics::SETTABLE)
                    .chain(&["FifoTopic"])
                    .copied()
                    .collect();
                return Err(src.unknown_key(e, "a topic", &known));
            }
        }
    }
    if decl.name.is_empty() {
        return Err(src.error(node.line, "this topic has no `name`"));
    }
    Ok(decl)
}

fn subscription(src: &Source, node: &Node, table: &Table) -> Result<SubscriptionDecl, ConfigError> {
    let mut decl = SubscriptionDecl {
        origin: Some(src.at(node.line)),
        ..SubscriptionDecl::default()
    };
    for e in &table.entries {
        match e.key.as_str() {
            "protocol" => decl.protocol = src.string(e)?,
            "endpoint" => decl.endpoint = src.string(e)?,
            "dead_letter_queue" => decl.dead_letter_queue = Some(src.string(e)?),
            k if subscriptions::SETTABLE.contains(&k) => {
                decl.attributes
                    .insert(k.to_owned(), attribute_text(src, e)?);
            }
            _ => {
                let known: Vec<&str> = SUBSCRIPTION_KEYS
                    .iter()
                    .chain(subscriptions::SETTABLE)
                    .copied()
                    .collect();
                return Err(src.unknown_key(e, "a subscription", &known));
            }
        }
    }
    for (key, value) in [("protocol", &decl.protocol), ("endpoint", &decl.endpoint)] {
        if value.is_empty() {
            return Err(src.error(node.line, format!("this subscription has no `{key}`")));
        }
    }
    if decl.dead_letter_queue.is_some() && decl.attributes.contains_key("RedrivePolicy") {
        return Err(src.error(
            node.line,
            "`dead_letter_queue` and `RedrivePolicy` say the same thing: give one",
        ));
    }
    Ok(decl)
}

/// A table is JSON text (FilterPolicy, Policy…); a scalar is SNS's string form.
fn attribute_text(src: &Source, e: &Entry) -> Result<String, ConfigError> {
    match &e.node.value {
        Value::Table(_) => Ok(e.node.value.to_json().to_string()),
        _ => src.scalar_text(e),
    }
}
