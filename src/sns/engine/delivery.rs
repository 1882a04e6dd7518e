//! What one subscription receives of a publish, by protocol: the bare message for raw
//! delivery, email, SMS and push; SNS's signed JSON notification for the others; the
//! Lambda event around it for `lambda`; with the HTTP/S retry policy that applies.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::delivery_policy::{content_type, RetryPolicy};
use super::envelope::{self, Origin};
use super::publish::{Delivery, Publication};
use super::Subscription;

/// What one subscription receives of a publish: raw, SNS's JSON notification, the Lambda
/// event around it, or (email, SMS, push) the bare message.
/// A raw or bare body is the publish's text itself, shared (`text`), not a copy.
pub(super) fn delivery(
    s: &Subscription,
    p: &Publication,
    (note, text): (&envelope::Note<'_>, &Arc<str>),
    origin: &Origin<'_>,
    deduplication_id: Option<&String>,
) -> Delivery {
    let raw = s.raw && matches!(s.protocol.as_str(), "sqs" | "http" | "https" | "firehose");
    let bare = matches!(s.protocol.as_str(), "email" | "sms" | "application");
    let (body, attributes) = if raw {
        (text.clone(), p.attributes.clone())
    } else if bare {
        (text.clone(), BTreeMap::new())
    } else {
        let json = envelope::notification(note, &s.arn, origin);
        let body = if s.protocol == "lambda" {
            envelope::lambda_event(&json, &s.arn)
        } else {
            json
        };
        (Arc::from(body), BTreeMap::new())
    };
    let topic_policy = note.topic.attributes(0).remove("DeliveryPolicy");
    let policy = (topic_policy.as_deref(), s.delivery_policy());
    Delivery {
        subscription_arn: s.arn.clone(),
        queue_arn: s.endpoint.clone(),
        protocol: s.protocol.clone(),
        endpoint: s.endpoint.clone(),
        message_id: note.message_id.to_owned(),
        topic_arn: note.topic.arn.clone(),
        raw,
        retry: RetryPolicy::effective(policy.0, policy.1),
        content_type: content_type(policy.0, policy.1),
        dead_letter_arn: s.dead_letter_arn.clone(),
        body,
        attributes,
        group_id: p.group_id.clone(),
        fifo_topic: note.topic.fifo,
        trace_header: None,
        deduplication_id: deduplication_id.cloned(),
    }
}
