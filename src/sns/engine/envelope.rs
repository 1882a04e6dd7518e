//! The JSON notification SNS delivers to a non-raw `sqs` subscription, field for field as
//! SNS writes it (SNS developer guide, "Parsing message formats"; the example body of
//! "Fanout to Amazon SQS queues"): `"Key" : value` lines, two-space indent.
//!
//! Signature is an RSA signature with sqslite's own key ([`super::signing`]), whose
//! certificate SigningCertURL names.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::publish::Attribute;
use super::Topic;
use crate::clock::Millis;

/// Where the server is reached, for the URLs in a notification.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// Scheme, host and port, without a trailing slash.
    pub base_url: &'a str,
}

/// What a notification says, shared by every subscription of one publish.
#[derive(Debug)]
pub struct Note<'a> {
    /// `MessageId`: the publish's UUID.
    pub message_id: &'a str,
    /// The topic it was published to (`TopicArn`, signature version).
    pub topic: &'a Topic,
    /// `Subject`, when the publish gave one.
    pub subject: Option<&'a str>,
    /// `Message`: the text for this subscription's protocol.
    pub message: &'a str,
    /// `MessageAttributes`, rendered with their `Type` and `Value`.
    pub attributes: &'a BTreeMap<String, Attribute>,
    /// `SequenceNumber`, on FIFO topics.
    pub sequence_number: Option<&'a str>,
    /// `Timestamp`, on the server's clock.
    pub now: Millis,
    /// The signature covers no per-subscription field: made once per publish, on first use.
    pub signature: &'a std::cell::OnceCell<String>,
}

/// `2026-12-01T20:30:00.123Z`: ISO 8601 in UTC with milliseconds, as SNS stamps messages.
pub fn timestamp(millis: Millis) -> String {
    let at = i64::try_from(millis / 1000)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        millis % 1000
    )
}

/// SNS's string to sign for a Notification: each present field's name and value on their
/// own lines, in this order (SNS guide, "Verifying the signatures of Amazon SNS messages";
/// SequenceNumber is not among them).
pub fn canonical_string(note: &Note<'_>, timestamp: &str) -> String {
    let mut out = String::new();
    let mut field = |name: &str, value: &str| {
        let _ = write!(out, "{name}\n{value}\n");
    };
    field("Message", note.message);
    field("MessageId", note.message_id);
    if let Some(subject) = note.subject {
        field("Subject", subject);
    }
    field("Timestamp", timestamp);
    field("TopicArn", &note.topic.arn);
    field("Type", "Notification");
    out
}

/// `text` as a JSON string literal.
fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// `{"Name" : {"Type":…,"Value":…}, …}`, binary values in base64.
fn attributes_object(attributes: &BTreeMap<String, Attribute>) -> String {
    let entries: Vec<String> = attributes
        .iter()
        .map(|(name, a)| {
            format!(
                "    {} : {{\"Type\":{},\"Value\":{}}}",
                json(name),
                json(&a.data_type),
                json(&a.envelope_value())
            )
        })
        .collect();
    format!("{{\n{}\n  }}", entries.join(",\n"))
}

/// The notification body for one subscription. A FIFO topic's notifications are not signed
/// (recorded: no Signature, SignatureVersion or SigningCertURL).
pub fn notification(note: &Note<'_>, subscription_arn: &str, origin: &Origin<'_>) -> String {
    let timestamp = timestamp(note.now);
    let mut fields: Vec<(&str, String)> = vec![
        ("Type", json("Notification")),
        ("MessageId", json(note.message_id)),
    ];
    if let Some(seq) = note.sequence_number {
        fields.push(("SequenceNumber", json(seq)));
    }
    fields.push(("TopicArn", json(&note.topic.arn)));
    if let Some(subject) = note.subject {
        fields.push(("Subject", json(subject)));
    }
    fields.extend([
        ("Message", json(note.message)),
        ("Timestamp", json(&timestamp)),
    ]);
    if !note.topic.fifo {
        let version = note.topic.signature_version();
        let signature = note
            .signature
            .get_or_init(|| super::signing::sign(version, &canonical_string(note, &timestamp)));
        fields.extend([
            ("SignatureVersion", json(version)),
            ("Signature", json(signature)),
            (
                "SigningCertURL",
                json(&format!("{}{}", origin.base_url, super::signing::CERT_PATH)),
            ),
        ]);
    }
    fields.push((
        "UnsubscribeURL",
        json(&format!(
            "{}/?Action=Unsubscribe&SubscriptionArn={subscription_arn}",
            origin.base_url
        )),
    ));
    if !note.attributes.is_empty() {
        fields.push(("MessageAttributes", attributes_object(note.attributes)));
    }
    let lines: Vec<String> = fields
        .into_iter()
        .map(|(k, v)| format!("  \"{k}\" : {v}"))
        .collect();
    format!("{{\n{}\n}}", lines.join(",\n"))
}

/// The event a Lambda subscription is invoked with: the notification inside
/// `Records[0].Sns`, whose URL keys Lambda spells `SigningCertUrl` and `UnsubscribeUrl`
/// (Lambda developer guide, "Using Lambda with Amazon SNS", example event).
pub fn lambda_event(notification: &str, subscription_arn: &str) -> String {
    let Ok(serde_json::Value::Object(fields)) = serde_json::from_str(notification) else {
        return notification.to_owned();
    };
    let sns: serde_json::Map<String, serde_json::Value> = fields
        .into_iter()
        .map(|(k, v)| {
            let k = match k.as_str() {
                "SigningCertURL" => "SigningCertUrl".to_owned(),
                "UnsubscribeURL" => "UnsubscribeUrl".to_owned(),
                _ => k,
            };
            (k, v)
        })
        .collect();
    serde_json::json!({"Records": [{
        "EventSource": "aws:sns",
        "EventVersion": "1.0",
        "EventSubscriptionArn": subscription_arn,
        "Sns": sns,
    }]})
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_carry_milliseconds() {
        assert_eq!(timestamp(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
    }
}
