//! Subscribe, Unsubscribe, the two List operations and Get/SetSubscriptionAttributes
//! (ConfirmSubscription is in [`super::confirm`]).

use serde::Deserialize;

use super::access::Resource;
use super::wire::{self, required_arn, topic_arn};
use super::{in_region, owner, Decode};
use crate::http::Context;
use crate::sns::engine::confirm::{new_token, Confirmation};
use crate::sns::engine::outbox::MessageType;
use crate::sns::engine::subscriptions::NewSubscription;
use crate::sns::engine::Subscription;
use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};
use crate::sns::protocol::xml::Xml;
use crate::sns::Service;

/// Subscribe's input.
#[derive(Debug)]
pub struct Subscribe {
    /// TopicArn, Protocol, Endpoint and Attributes of the new subscription.
    new: NewSubscription,
    /// ReturnSubscriptionArn: answer a pending subscription's ARN instead of `pending confirmation`.
    return_arn: bool,
}

/// Subscribe as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SubscribeWire {
    /// TopicArn: the topic to subscribe to.
    topic_arn: Option<String>,
    /// Protocol: required, after the ARN.
    protocol: Option<String>,
    /// Endpoint: empty when not sent.
    #[serde(default)]
    endpoint: String,
    /// Attributes.entry.N: RawMessageDelivery, FilterPolicy...
    #[serde(default)]
    attributes: Vec<wire::Entry>,
    /// ReturnSubscriptionArn: only `true` asks for it.
    #[serde(default, deserialize_with = "wire::flag")]
    return_subscription_arn: bool,
}

impl Decode for Subscribe {
    type Wire = SubscribeWire;

    fn check(wire: SubscribeWire) -> SnsResult<Self> {
        Ok(Subscribe {
            new: NewSubscription {
                topic_arn: topic_arn(wire.topic_arn, "TopicArn")?,
                protocol: wire::required(wire.protocol, "Protocol")?,
                endpoint: wire.endpoint,
                attributes: wire::string_map(wire.attributes),
                principal: None,
            },
            return_arn: wire.return_subscription_arn,
        })
    }
}

impl Resource for Subscribe {
    fn resource(&self) -> Option<&str> {
        Some(&self.new.topic_arn)
    }
}

/// A subscription that needs confirming answers "pending confirmation" unless
/// ReturnSubscriptionArn asks for its ARN (SNS API reference, Subscribe); its endpoint is
/// sent a SubscriptionConfirmation, again for each repeated Subscribe.
pub async fn subscribe(mut input: Subscribe, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    in_region(ctx, &input.new.topic_arn)?;
    reachable(app, &input.new).await?;
    input.new.principal = Some(ctx.caller_arn().into_owned());
    let subscribed = app.topics.subscribe_at(owner(ctx), input.new, app.now())?;
    if let Some(c) = &subscribed.confirmation {
        super::confirm::send(app, MessageType::SubscriptionConfirmation, c);
    }
    let mut xml = Xml::default();
    if subscribed.pending && !input.return_arn {
        xml.text("SubscriptionArn", "pending confirmation");
    } else {
        xml.text("SubscriptionArn", &subscribed.arn);
    }
    Ok(xml)
}

/// An http/s endpoint the server's outbound rule refuses is refused at Subscribe, before any
/// confirmation is sent, naming the rule; a name that does not resolve yet is taken (its
/// POSTs are checked again, address by address, when they are made).
async fn reachable(app: &Service, new: &NewSubscription) -> SnsResult<()> {
    let protocol = new.protocol.to_ascii_lowercase();
    if !matches!(protocol.as_str(), "http" | "https") {
        return Ok(());
    }
    // An endpoint of the wrong form is the engine's refusal, made without resolving it.
    let Ok(uri) = new.endpoint.parse::<hyper::Uri>() else {
        return Ok(());
    };
    if uri.scheme_str() != Some(protocol.as_str()) {
        return Ok(());
    }
    let Some(authority) = uri.authority() else {
        return Ok(());
    };
    let default_port = if uri.scheme_str() == Some("https") {
        443
    } else {
        80
    };
    let port = authority.port_u16().unwrap_or(default_port);
    match app
        .outbound
        .resolve(
            authority.host(),
            port,
            crate::http::outbound::ChosenBy::Caller,
        )
        .await
    {
        Err(why) if why.starts_with("sqslite does not connect") => {
            Err(SnsError::invalid(format_args!("Endpoint Reason: {why}")))
        }
        _ => Ok(()),
    }
}

/// A subscription ARN is its topic's ARN and one more `:`-separated part, a UUID; AWS
/// words a short ARN as a short topic ARN, and a bad last part as the id (recorded).
fn subscription_arn(value: Option<String>, member: &str) -> SnsResult<String> {
    let arn = required_arn(value, member)?;
    crate::sns::engine::check_elements(&arn, member)?;
    let valid = arn.rsplit_once(':').is_some_and(|(topic, id)| {
        uuid::Uuid::try_parse(id).is_ok()
            && crate::sns::engine::parse_topic_arn(topic, member).is_ok()
    });
    if !valid {
        return Err(SnsError::invalid("SubscriptionId"));
    }
    Ok(arn)
}

/// The input of operations that name one subscription.
#[derive(Debug)]
pub struct SubscriptionRef {
    /// SubscriptionArn: the subscription named.
    arn: String,
}

/// SubscriptionRef as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SubscriptionRefWire {
    /// SubscriptionArn: the subscription named.
    subscription_arn: Option<String>,
}

impl Decode for SubscriptionRef {
    type Wire = SubscriptionRefWire;

    fn check(wire: SubscriptionRefWire) -> SnsResult<Self> {
        Ok(SubscriptionRef {
            arn: subscription_arn(wire.subscription_arn, "SubscriptionArn")?,
        })
    }
}

impl Resource for SubscriptionRef {
    fn resource(&self) -> Option<&str> {
        Some(&self.arn)
    }
}

/// Unsubscribe's input.
pub type Unsubscribe = SubscriptionRef;
/// GetSubscriptionAttributes' input.
pub type GetSubscriptionAttributes = SubscriptionRef;

/// Unsubscribe; a confirmed http/s or email-json endpoint is sent an UnsubscribeConfirmation.
/// A subscription that is already gone, or never was, answers 200 (recorded).
pub async fn unsubscribe(input: SubscriptionRef, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    let Ok(sub) = app.topics.subscription(&input.arn) else {
        return Ok(Xml::default());
    };
    if sub.confirmation.authenticate_on_unsubscribe && !ctx.signed() {
        // [unverified wording]
        return Err(SnsError::new(
            SnsErrorKind::AuthorizationError,
            "Unsubscribe of this subscription requires an authenticated request",
        ));
    }
    let Ok(sub) = app.topics.remove_subscription(&input.arn) else {
        return Ok(Xml::default());
    };
    if !sub.confirmation.pending {
        let c = Confirmation::with_token(&sub, new_token());
        super::confirm::send(app, MessageType::UnsubscribeConfirmation, &c);
    }
    Ok(Xml::default())
}

/// GetSubscriptionAttributes: the subscription's attributes, as strings.
pub async fn get_subscription_attributes(
    input: SubscriptionRef,
    app: &Service,
    _: &Context,
) -> SnsResult<Xml> {
    let sub = app.topics.subscription(&input.arn)?;
    let mut xml = Xml::default();
    xml.map("Attributes", &sub.attributes());
    Ok(xml)
}

/// SetSubscriptionAttributes' input.
#[derive(Debug)]
pub struct SetSubscriptionAttributes {
    /// SubscriptionArn: the subscription to change.
    arn: String,
    /// AttributeName: RawMessageDelivery, FilterPolicy, RedrivePolicy...
    name: String,
    /// AttributeValue: its new string value.
    value: String,
}

/// SetSubscriptionAttributes as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SetSubscriptionAttributesWire {
    /// SubscriptionArn: the subscription to change.
    subscription_arn: Option<String>,
    /// AttributeName: required, after the ARN.
    attribute_name: Option<String>,
    /// AttributeValue: empty when not sent.
    #[serde(default)]
    attribute_value: String,
}

impl Decode for SetSubscriptionAttributes {
    type Wire = SetSubscriptionAttributesWire;

    fn check(wire: SetSubscriptionAttributesWire) -> SnsResult<Self> {
        Ok(SetSubscriptionAttributes {
            arn: subscription_arn(wire.subscription_arn, "SubscriptionArn")?,
            name: wire::required(wire.attribute_name, "AttributeName")?,
            value: wire.attribute_value,
        })
    }
}

impl Resource for SetSubscriptionAttributes {
    fn resource(&self) -> Option<&str> {
        Some(&self.arn)
    }
}

/// SetSubscriptionAttributes: sets one attribute, checked first.
pub async fn set_subscription_attributes(
    input: SetSubscriptionAttributes,
    app: &Service,
    _: &Context,
) -> SnsResult<Xml> {
    app.topics
        .set_subscription_attribute(&input.arn, &input.name, &input.value)?;
    Ok(Xml::default())
}

/// ListSubscriptions' input.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListSubscriptions {
    /// NextToken: the previous page's token; empty is none.
    next_token: Option<String>,
}

super::as_sent!(ListSubscriptions);

impl Resource for ListSubscriptions {
    fn resource(&self) -> Option<&str> {
        None
    }
}

/// ListSubscriptionsByTopic's input.
#[derive(Debug)]
pub struct ListSubscriptionsByTopic {
    /// TopicArn: the topic whose subscriptions to list.
    topic_arn: String,
    /// NextToken: the previous page's token.
    next_token: Option<String>,
}

/// ListSubscriptionsByTopic as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListSubscriptionsByTopicWire {
    /// TopicArn: the topic whose subscriptions to list.
    topic_arn: Option<String>,
    /// NextToken: the previous page's token.
    next_token: Option<String>,
}

impl Decode for ListSubscriptionsByTopic {
    type Wire = ListSubscriptionsByTopicWire;

    fn check(wire: ListSubscriptionsByTopicWire) -> SnsResult<Self> {
        Ok(ListSubscriptionsByTopic {
            topic_arn: topic_arn(wire.topic_arn, "TopicArn")?,
            next_token: wire.next_token,
        })
    }
}

impl Resource for ListSubscriptionsByTopic {
    fn resource(&self) -> Option<&str> {
        Some(&self.topic_arn)
    }
}

/// One page of `Subscriptions`, pending ones without their ARN.
fn subscriptions_page(subs: &[Subscription], next: Option<&str>) -> Xml {
    let mut xml = Xml::default();
    xml.members("Subscriptions", subs, |x, s| {
        // SNS lists an unconfirmed subscription without its ARN.
        let arn = if s.confirmation.pending {
            "PendingConfirmation"
        } else {
            &s.arn
        };
        x.text("SubscriptionArn", arn)
            .text("Owner", &s.owner)
            .text("Protocol", &s.protocol)
            .text("Endpoint", &s.endpoint)
            .text("TopicArn", &s.topic_arn);
    })
    .opt("NextToken", next);
    xml
}

/// ListSubscriptions: the caller's subscriptions, 100 a page.
pub async fn list_subscriptions(
    input: ListSubscriptions,
    app: &Service,
    ctx: &Context,
) -> SnsResult<Xml> {
    let (subs, next) = app.topics.list_subscriptions(
        owner(ctx),
        None,
        wire::token(input.next_token.as_deref()),
    )?;
    Ok(subscriptions_page(&subs, next.as_deref()))
}

/// ListSubscriptionsByTopic: the topic's subscriptions, 100 a page.
pub async fn list_subscriptions_by_topic(
    input: ListSubscriptionsByTopic,
    app: &Service,
    ctx: &Context,
) -> SnsResult<Xml> {
    in_region(ctx, &input.topic_arn)?;
    let (subs, next) = app.topics.list_subscriptions(
        owner(ctx),
        Some(&input.topic_arn),
        wire::token(input.next_token.as_deref()),
    )?;
    Ok(subscriptions_page(&subs, next.as_deref()))
}
