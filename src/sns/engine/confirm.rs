//! Confirmation of http/s and email subscriptions: the token sent to the endpoint, the
//! SubscriptionConfirmation and UnsubscribeConfirmation messages as SNS writes them (SNS
//! developer guide, "Parsing message formats"), signed like notifications, and
//! ConfirmSubscription, which turns a pending subscription into a confirmed one.

use std::fmt::Write;

use super::envelope::{timestamp, Origin};
use super::outbox::MessageType;
use super::{Sns, Subscription};
use crate::clock::Millis;
use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};

/// A token confirms its subscription for two days (SNS API reference, Subscribe:
/// "Confirmation tokens are valid for two days").
pub const TOKEN_LIFETIME_MS: Millis = 2 * 24 * 60 * 60 * 1000;

/// A fresh token: 128 hex digits, unguessable, like SNS's long hex tokens.
pub fn new_token() -> String {
    let mut bytes = [0u8; 64];
    if getrandom::fill(&mut bytes).is_err() {
        // No OS randomness: uuids still make an unguessable token.
        return (0..4)
            .map(|_| uuid::Uuid::new_v4().simple().to_string())
            .collect();
    }
    bytes.iter().fold(String::with_capacity(128), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// What a subscription's SubscriptionConfirmation (or UnsubscribeConfirmation) names.
#[derive(Debug, Clone)]
pub struct Confirmation {
    /// The subscription the message confirms.
    pub subscription_arn: String,
    /// Its topic.
    pub topic_arn: String,
    /// Its protocol: `http`, `https`, `email`...
    pub protocol: String,
    /// Where the message goes: a URL, an address.
    pub endpoint: String,
    /// The token ConfirmSubscription must bring back.
    pub token: String,
}

impl Confirmation {
    /// The confirmation a pending subscription's endpoint is sent; `None` once confirmed.
    pub fn of(sub: &Subscription) -> Option<Self> {
        let state = &sub.confirmation;
        let (token, _) = state.token.as_ref().filter(|_| state.pending)?;
        Some(Confirmation::with_token(sub, token.clone()))
    }

    /// For an UnsubscribeConfirmation: a fresh token for the removed subscription.
    pub fn with_token(sub: &Subscription, token: String) -> Self {
        Confirmation {
            subscription_arn: sub.arn.clone(),
            topic_arn: sub.topic_arn.clone(),
            protocol: sub.protocol.clone(),
            endpoint: sub.endpoint.clone(),
            token,
        }
    }

    /// Where ConfirmSubscription is reached by a plain GET, on sqslite's own port.
    pub fn subscribe_url(&self, origin: &Origin<'_>) -> String {
        format!(
            "{}/?Action=ConfirmSubscription&TopicArn={}&Token={}",
            origin.base_url, self.topic_arn, self.token
        )
    }

    /// The message's `Message` text for `kind`, with the SubscribeURL where SNS gives one.
    fn message(&self, kind: MessageType) -> String {
        match kind {
            MessageType::UnsubscribeConfirmation => format!(
                "You have chosen to deactivate subscription {}.\nTo cancel this operation and restore the subscription, visit the SubscribeURL included in this message.",
                self.subscription_arn
            ),
            _ => format!(
                "You have chosen to subscribe to the topic {}.\nTo confirm the subscription, visit the SubscribeURL included in this message.",
                self.topic_arn
            ),
        }
    }

    /// The JSON document SNS POSTs (or, for email-json, mails): field for field, signed
    /// over SNS's string to sign for confirmations.
    pub fn body(
        &self,
        kind: MessageType,
        message_id: &str,
        version: &str,
        origin: &Origin<'_>,
        now: Millis,
    ) -> String {
        let stamp = timestamp(now);
        let url = self.subscribe_url(origin);
        let message = self.message(kind);
        let mut canonical = String::new();
        for (k, v) in [
            ("Message", message.as_str()),
            ("MessageId", message_id),
            ("SubscribeURL", &url),
            ("Timestamp", &stamp),
            ("Token", &self.token),
            ("TopicArn", &self.topic_arn),
            ("Type", kind.as_str()),
        ] {
            let _ = write!(canonical, "{k}\n{v}\n");
        }
        let signature = super::signing::sign(version, &canonical);
        let cert = format!("{}{}", origin.base_url, super::signing::CERT_PATH);
        let fields = [
            ("Type", kind.as_str()),
            ("MessageId", message_id),
            ("Token", &self.token),
            ("TopicArn", &self.topic_arn),
            ("Message", &message),
            ("SubscribeURL", &url),
            ("Timestamp", &stamp),
            ("SignatureVersion", version),
            ("Signature", &signature),
            ("SigningCertURL", &cert),
        ];
        let lines: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("  \"{k}\" : {}", serde_json::Value::from(*v)))
            .collect();
        format!("{{\n{}\n}}", lines.join(",\n"))
    }

    /// The mail an `email` endpoint would get: the message and the link to follow.
    pub fn email_text(&self, origin: &Origin<'_>) -> String {
        format!(
            "{}\n\n{}",
            self.message(MessageType::SubscriptionConfirmation),
            self.subscribe_url(origin)
        )
    }
}

/// What ConfirmSubscription asks.
#[derive(Debug, Clone, Copy)]
pub struct Confirm<'a> {
    /// TopicArn: the topic the subscription belongs to.
    pub topic_arn: &'a str,
    /// Token: the one the SubscriptionConfirmation carried.
    pub token: &'a str,
    /// The request was signed: ConfirmationWasAuthenticated.
    pub authenticated: bool,
    /// AuthenticateOnUnsubscribe: then only a signed caller may unsubscribe.
    pub authenticate_on_unsubscribe: bool,
    /// When the confirmation arrives: a token older than its lifetime is refused.
    pub now: Millis,
}

impl Sns {
    /// ConfirmSubscription: the subscription the token belongs to, now confirmed. Confirming
    /// again with the same token answers the same ARN.
    pub fn confirm(&self, c: Confirm<'_>) -> SnsResult<String> {
        let mut guard = self.lock();
        // A token that is not hex at all is malformed (recorded for "randomtoken"; where
        // AWS draws the line is [unverified]).
        if c.token.is_empty() || !c.token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(SnsError::new(
                SnsErrorKind::InvalidParameter,
                "Invalid token",
            ));
        }
        let state = &mut *guard;
        // No topic is looked up first: a token of a topic that does not exist is just a
        // token that does not exist (recorded: InvalidParameter "Invalid parameter: Token").
        let lead = format!("{}:", c.topic_arn);
        let sub = state
            .subscriptions
            .range_mut(lead.clone()..)
            .take_while(|(k, _)| k.starts_with(&lead))
            .map(|(_, s)| s)
            .find(|s| {
                let token = s.confirmation.token.as_ref();
                token.is_some_and(|(t, _)| t == c.token)
            })
            .ok_or_else(|| SnsError::invalid("Token"))?;
        let confirmation = &mut sub.confirmation;
        if !confirmation.pending {
            return Ok(sub.arn.clone());
        }
        let issued = confirmation.token.as_ref().map_or(0, |(_, at)| *at);
        if c.now.saturating_sub(issued) > TOKEN_LIFETIME_MS {
            return Err(SnsError::invalid("Token"));
        }
        confirmation.pending = false;
        confirmation.authenticated = c.authenticated;
        confirmation.authenticate_on_unsubscribe = c.authenticate_on_unsubscribe;
        let arn = sub.arn.clone();
        self.log_subscription(state, &arn);
        Ok(arn)
    }
}
