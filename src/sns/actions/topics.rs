//! CreateTopic, Get/SetTopicAttributes, ListTopics, DeleteTopic and the tag operations.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::access::Resource;
use super::wire::{self, topic_arn};
use super::{in_region, owner, Decode};
use crate::http::Context;
use crate::sns::engine::topics::{NewTopic, DATA_PROTECTION_POLICY};
use crate::sns::error::SnsResult;
use crate::sns::protocol::xml::Xml;
use crate::sns::Service;

/// CreateTopic's input: name, attributes and tags.
#[derive(Debug)]
pub struct CreateTopic(NewTopic);

/// CreateTopic as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct CreateTopicWire {
    /// Name: the topic's name.
    name: String,
    /// Attributes.entry.N: DisplayName, Policy, FifoTopic...
    #[serde(default)]
    attributes: Vec<wire::Entry>,
    /// Tags.member.N: the topic's tags.
    #[serde(default)]
    tags: Vec<wire::Tag>,
    /// DataProtectionPolicy: the policy PutDataProtectionPolicy would set (botocore's
    /// CreateTopicInput member).
    data_protection_policy: Option<String>,
}

impl Decode for CreateTopic {
    type Wire = CreateTopicWire;

    fn check(wire: CreateTopicWire) -> SnsResult<Self> {
        let mut attributes = wire::string_map(wire.attributes);
        if let Some(policy) = wire.data_protection_policy.filter(|p| !p.is_empty()) {
            attributes.insert(DATA_PROTECTION_POLICY.to_owned(), policy);
        }
        Ok(CreateTopic(NewTopic {
            name: wire.name,
            attributes,
            tags: wire::tags(wire.tags)?,
        }))
    }
}

impl Resource for CreateTopic {
    fn resource(&self) -> Option<&str> {
        None
    }
}

/// CreateTopic: creates the topic, or returns the ARN of one with the same attributes.
pub async fn create_topic(input: CreateTopic, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    let arn = app.topics.create_topic(owner(ctx), input.0)?;
    let mut xml = Xml::default();
    xml.text("TopicArn", &arn);
    Ok(xml)
}

/// The operations that name one topic and nothing else.
#[derive(Debug)]
pub struct TopicRef {
    /// TopicArn: the topic named.
    pub topic_arn: String,
}

/// TopicRef as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct TopicRefWire {
    /// TopicArn: the topic named.
    topic_arn: Option<String>,
}

impl Decode for TopicRef {
    type Wire = TopicRefWire;

    fn check(wire: TopicRefWire) -> SnsResult<Self> {
        Ok(TopicRef {
            topic_arn: topic_arn(wire.topic_arn, "TopicArn")?,
        })
    }
}

impl Resource for TopicRef {
    fn resource(&self) -> Option<&str> {
        Some(&self.topic_arn)
    }
}

/// GetTopicAttributes' input.
pub type GetTopicAttributes = TopicRef;
/// DeleteTopic's input.
pub type DeleteTopic = TopicRef;

/// GetTopicAttributes: the topic's attributes, counts included.
pub async fn get_topic_attributes(input: TopicRef, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    in_region(ctx, &input.topic_arn)?;
    let attributes = app.topics.topic_attributes(&input.topic_arn)?;
    let mut xml = Xml::default();
    xml.map("Attributes", &attributes);
    Ok(xml)
}

/// DeleteTopic: the topic and its subscriptions; a missing topic succeeds.
pub async fn delete_topic(input: TopicRef, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    in_region(ctx, &input.topic_arn)?;
    app.topics.delete_topic(&input.topic_arn);
    Ok(Xml::default())
}

/// SetTopicAttributes' input.
#[derive(Debug)]
pub struct SetTopicAttributes {
    /// TopicArn: the topic to change.
    topic_arn: String,
    /// AttributeName: DisplayName, Policy, DeliveryPolicy...
    name: String,
    /// AttributeValue: its new string value.
    value: String,
}

/// SetTopicAttributes as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SetTopicAttributesWire {
    /// TopicArn: the topic to change.
    topic_arn: Option<String>,
    /// AttributeName: required, after the ARN.
    attribute_name: Option<String>,
    /// AttributeValue: empty when not sent.
    #[serde(default)]
    attribute_value: String,
}

impl Decode for SetTopicAttributes {
    type Wire = SetTopicAttributesWire;

    fn check(wire: SetTopicAttributesWire) -> SnsResult<Self> {
        Ok(SetTopicAttributes {
            topic_arn: topic_arn(wire.topic_arn, "TopicArn")?,
            name: wire::required(wire.attribute_name, "AttributeName")?,
            value: wire.attribute_value,
        })
    }
}

impl Resource for SetTopicAttributes {
    fn resource(&self) -> Option<&str> {
        Some(&self.topic_arn)
    }
}

/// SetTopicAttributes: sets one attribute, checked first.
pub async fn set_topic_attributes(
    input: SetTopicAttributes,
    app: &Service,
    ctx: &Context,
) -> SnsResult<Xml> {
    in_region(ctx, &input.topic_arn)?;
    app.topics
        .set_topic_attribute(&input.topic_arn, &input.name, &input.value)?;
    Ok(Xml::default())
}

/// ListTopics' input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListTopics {
    /// NextToken: the previous page's token; empty is none.
    next_token: Option<String>,
}

impl Resource for ListTopics {
    fn resource(&self) -> Option<&str> {
        None
    }
}

/// ListTopics: the caller's topics, 100 a page.
pub async fn list_topics(input: ListTopics, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    let (topics, next) = app
        .topics
        .topics_page(owner(ctx), wire::token(input.next_token.as_deref()))?;
    let mut xml = Xml::default();
    xml.members("Topics", &topics, |x, arn| {
        x.text("TopicArn", arn);
    })
    .opt("NextToken", next.as_deref());
    Ok(xml)
}

/// TagResource's input.
#[derive(Debug)]
pub struct TagResource {
    /// ResourceArn: the topic to tag.
    arn: String,
    /// Tags.member.N: key to value, added or replaced.
    tags: BTreeMap<String, String>,
}

/// TagResource as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct TagResourceWire {
    /// ResourceArn: the topic to tag.
    resource_arn: String,
    /// Tags.member.N: the tags to add or replace.
    #[serde(default)]
    tags: Vec<wire::Tag>,
}

impl Decode for TagResource {
    type Wire = TagResourceWire;

    fn check(wire: TagResourceWire) -> SnsResult<Self> {
        Ok(TagResource {
            arn: wire.resource_arn,
            tags: wire::tags(wire.tags)?,
        })
    }
}

impl Resource for TagResource {
    fn resource(&self) -> Option<&str> {
        Some(&self.arn)
    }
}

/// TagResource: adds or replaces the topic's tags.
pub async fn tag_resource(input: TagResource, app: &Service, _: &Context) -> SnsResult<Xml> {
    app.topics.tag_topic(&input.arn, input.tags)?;
    Ok(Xml::empty_result())
}

/// UntagResource's input.
#[derive(Debug, Deserialize)]
pub struct UntagResource {
    /// ResourceArn: the topic to untag.
    #[serde(rename = "ResourceArn")]
    arn: String,
    /// TagKeys.member.N: the keys to remove.
    #[serde(rename = "TagKeys", default)]
    keys: Vec<String>,
}

impl Resource for UntagResource {
    fn resource(&self) -> Option<&str> {
        Some(&self.arn)
    }
}

/// UntagResource: removes the keys.
pub async fn untag_resource(input: UntagResource, app: &Service, _: &Context) -> SnsResult<Xml> {
    app.topics.untag_topic(&input.arn, &input.keys)?;
    Ok(Xml::empty_result())
}

/// ListTagsForResource's input.
#[derive(Debug, Deserialize)]
pub struct ListTagsForResource {
    /// ResourceArn: the topic whose tags to list.
    #[serde(rename = "ResourceArn")]
    arn: String,
}

super::as_sent!(ListTopics, UntagResource, ListTagsForResource);

impl Resource for ListTagsForResource {
    fn resource(&self) -> Option<&str> {
        Some(&self.arn)
    }
}

/// ListTagsForResource: the topic's tags.
pub async fn list_tags_for_resource(
    input: ListTagsForResource,
    app: &Service,
    _: &Context,
) -> SnsResult<Xml> {
    let tags: Vec<(String, String)> = app.topics.topic_tags(&input.arn)?.into_iter().collect();
    let mut xml = Xml::default();
    xml.members("Tags", &tags, |x, (k, v)| {
        x.text("Key", k).text("Value", v);
    });
    Ok(xml)
}
