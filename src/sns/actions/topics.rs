//! CreateTopic, Get/SetTopicAttributes, ListTopics, DeleteTopic and the tag operations.

use std::collections::BTreeMap;

use super::access::Resource;
use super::{in_region, owner, topic_arn, Decode};
use crate::http::Context;
use crate::sns::engine::topics::NewTopic;
use crate::sns::error::{SnsError, SnsResult};
use crate::sns::protocol::xml::Xml;
use crate::sns::protocol::Form;
use crate::sns::Service;

/// Tags travel as `Tags.member.N.Key` / `.Value`; a key given twice is refused (recorded:
/// "Invalid parameter: Duplicated keys are not allowed.").
fn tags(form: &Form) -> SnsResult<BTreeMap<String, String>> {
    let mut tags = BTreeMap::new();
    for t in form.structs("Tags") {
        let Some(key) = t.get("Key") else { continue };
        let value = t.get("Value").unwrap_or_default().to_owned();
        if tags.insert(key.to_owned(), value).is_some() {
            return Err(SnsError::invalid("Duplicated keys are not allowed."));
        }
    }
    Ok(tags)
}

/// CreateTopic's input: name, attributes and tags.
#[derive(Debug)]
pub struct CreateTopic(NewTopic);

impl Decode for CreateTopic {
    fn decode(form: &Form) -> SnsResult<Self> {
        Ok(CreateTopic(NewTopic {
            name: form.required("Name")?,
            attributes: form.string_map("Attributes"),
            tags: tags(form)?,
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
    let arn = app.sns.create_topic(owner(ctx), input.0)?;
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

impl Decode for TopicRef {
    fn decode(form: &Form) -> SnsResult<Self> {
        Ok(TopicRef {
            topic_arn: topic_arn(form, "TopicArn")?,
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
    let attributes = app.sns.topic_attributes(&input.topic_arn)?;
    let mut xml = Xml::default();
    xml.map("Attributes", &attributes);
    Ok(xml)
}

/// DeleteTopic: the topic and its subscriptions; a missing topic succeeds.
pub async fn delete_topic(input: TopicRef, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    in_region(ctx, &input.topic_arn)?;
    app.sns.delete_topic(&input.topic_arn);
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

impl Decode for SetTopicAttributes {
    fn decode(form: &Form) -> SnsResult<Self> {
        Ok(SetTopicAttributes {
            topic_arn: topic_arn(form, "TopicArn")?,
            name: form.required("AttributeName")?,
            value: form.optional("AttributeValue").unwrap_or_default(),
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
    app.sns
        .set_topic_attribute(&input.topic_arn, &input.name, &input.value)?;
    Ok(Xml::default())
}

/// ListTopics' input.
#[derive(Debug)]
pub struct ListTopics {
    /// NextToken: the previous page's token.
    next_token: Option<String>,
}

impl Decode for ListTopics {
    fn decode(form: &Form) -> SnsResult<Self> {
        Ok(ListTopics {
            next_token: form.optional("NextToken").filter(|t| !t.is_empty()),
        })
    }
}

impl Resource for ListTopics {
    fn resource(&self) -> Option<&str> {
        None
    }
}

/// ListTopics: the caller's topics, 100 a page.
pub async fn list_topics(input: ListTopics, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    let (topics, next) = app
        .sns
        .topics_page(owner(ctx), input.next_token.as_deref())?;
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

impl Decode for TagResource {
    fn decode(form: &Form) -> SnsResult<Self> {
        Ok(TagResource {
            arn: form.required("ResourceArn")?,
            tags: tags(form)?,
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
    app.sns.tag_topic(&input.arn, input.tags)?;
    Ok(Xml::empty_result())
}

/// UntagResource's input.
#[derive(Debug)]
pub struct UntagResource {
    /// ResourceArn: the topic to untag.
    arn: String,
    /// TagKeys.member.N: the keys to remove.
    keys: Vec<String>,
}

impl Decode for UntagResource {
    fn decode(form: &Form) -> SnsResult<Self> {
        Ok(UntagResource {
            arn: form.required("ResourceArn")?,
            keys: form.strings("TagKeys"),
        })
    }
}

impl Resource for UntagResource {
    fn resource(&self) -> Option<&str> {
        Some(&self.arn)
    }
}

/// UntagResource: removes the keys.
pub async fn untag_resource(input: UntagResource, app: &Service, _: &Context) -> SnsResult<Xml> {
    app.sns.untag_topic(&input.arn, &input.keys)?;
    Ok(Xml::empty_result())
}

/// ListTagsForResource's input.
#[derive(Debug)]
pub struct ListTagsForResource {
    /// ResourceArn: the topic whose tags to list.
    arn: String,
}

impl Decode for ListTagsForResource {
    fn decode(form: &Form) -> SnsResult<Self> {
        Ok(ListTagsForResource {
            arn: form.required("ResourceArn")?,
        })
    }
}

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
    let tags: Vec<(String, String)> = app.sns.topic_tags(&input.arn)?.into_iter().collect();
    let mut xml = Xml::default();
    xml.members("Tags", &tags, |x, (k, v)| {
        x.text("Key", k).text("Value", v);
    });
    Ok(xml)
}
