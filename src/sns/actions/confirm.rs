//! ConfirmSubscription (also reached by a plain GET of a confirmation's SubscribeURL, on
//! this same port as on AWS), and the confirmation messages sent to http/s and email
//! endpoints: POSTed like notifications, or recorded for email.

use serde::Deserialize;

use super::access::Resource;
use super::wire::{self, topic_arn};
use super::Decode;
use crate::http::Context;
use crate::sns::engine::confirm::{Confirm, Confirmation};
use crate::sns::engine::delivery_policy::{self, RetryPolicy};
use crate::sns::engine::envelope::Origin;
use crate::sns::engine::outbox::{MessageType, Post, Record};
use crate::sns::error::SnsResult;
use crate::sns::protocol::xml::Xml;
use crate::sns::Service;

/// ConfirmSubscription's input.
#[derive(Debug)]
pub struct ConfirmSubscription {
    /// TopicArn: the topic the subscription belongs to.
    topic_arn: String,
    /// Token: the one the confirmation message carried.
    token: String,
    /// AuthenticateOnUnsubscribe: then only a signed caller may unsubscribe.
    authenticate_on_unsubscribe: bool,
}

/// ConfirmSubscription as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ConfirmSubscriptionWire {
    /// TopicArn: the topic the subscription belongs to.
    topic_arn: Option<String>,
    /// Token: required, after the ARN.
    token: Option<String>,
    /// AuthenticateOnUnsubscribe: only `true` asks for it.
    #[serde(default, deserialize_with = "wire::flag")]
    authenticate_on_unsubscribe: bool,
}

impl Decode for ConfirmSubscription {
    type Wire = ConfirmSubscriptionWire;

    fn check(wire: ConfirmSubscriptionWire) -> SnsResult<Self> {
        Ok(ConfirmSubscription {
            topic_arn: topic_arn(wire.topic_arn, "TopicArn")?,
            token: wire::required(wire.token, "Token")?,
            authenticate_on_unsubscribe: wire.authenticate_on_unsubscribe,
        })
    }
}

impl Resource for ConfirmSubscription {
    fn resource(&self) -> Option<&str> {
        Some(&self.topic_arn)
    }
}

/// ConfirmSubscription: confirms the pending subscription whose token this is.
pub async fn confirm_subscription(
    input: ConfirmSubscription,
    app: &Service,
    ctx: &Context,
) -> SnsResult<Xml> {
    // ConfirmationWasAuthenticated: the confirming request was signed.
    let authenticated = ctx.signed();
    let arn = app.topics.confirm(Confirm {
        topic_arn: &input.topic_arn,
        token: &input.token,
        authenticated,
        // Only a signed confirmation can ask for it (SNS API reference, ConfirmSubscription).
        authenticate_on_unsubscribe: authenticated && input.authenticate_on_unsubscribe,
        now: app.now(),
    })?;
    let mut xml = Xml::default();
    xml.text("SubscriptionArn", &arn);
    Ok(xml)
}

/// Tells a subscription's endpoint of a subscribe or an unsubscribe: a POST for http/s, a
/// record for email and email-json; other protocols are never told.
pub fn send(app: &Service, kind: MessageType, c: &Confirmation) {
    // The server's own address, never the request's Host (M2: a Host of the caller's choice
    // would send a subscriber's token to that host).
    let origin = Origin {
        base_url: app.links(),
    };
    let now = app.now();
    let version = app
        .topics
        .topic(&c.topic_arn)
        .map_or_else(|_| "1".to_owned(), |t| t.signature_version().to_owned());
    let message_id = uuid::Uuid::new_v4().to_string();
    let body = || c.body(kind, &message_id, &version, &origin, now);
    let payload = match c.protocol.as_str() {
        "http" | "https" => {
            let post = Post {
                message_type: kind,
                url: c.endpoint.clone(),
                message_id: message_id.clone(),
                topic_arn: c.topic_arn.clone(),
                subscription_arn: c.subscription_arn.clone(),
                raw: false,
                content_type: delivery_policy::DEFAULT_CONTENT_TYPE.to_owned(),
                body: body().into(),
                retry: RetryPolicy::effective(None, None),
                retries: 0,
                since: None,
                dead_letter: None,
            };
            super::http::enqueue(app, post, now);
            return;
        }
        "sqs" if kind == MessageType::SubscriptionConfirmation => {
            super::deliver::confirmation(app, c, (&message_id, body()), now);
            return;
        }
        "email-json" => body(),
        "email" if kind == MessageType::SubscriptionConfirmation => c.email_text(&origin),
        _ => return,
    };
    app.topics.outbox.record(Record {
        subscription_arn: Some(c.subscription_arn.clone()),
        protocol: c.protocol.clone(),
        endpoint: c.endpoint.clone(),
        message_type: kind,
        message_id,
        payload: payload.into(),
        at: now,
    });
}
