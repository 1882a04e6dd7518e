//! Publishes an AWS service makes on a resource's behalf (S3's bucket notifications): the
//! topic must exist, be a standard topic, and its Policy must let the service principal
//! publish for the source (`aws:SourceArn`, `aws:SourceAccount`), as SNS checks a
//! configuration before S3 may use the topic. The message then goes out as any Publish's.

use super::publish::publish_one;
use crate::sns::engine::Publication;
use crate::sns::Service;

/// The service that publishes and the resource it acts for.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The service principal (`s3.amazonaws.com`).
    pub principal: &'a str,
    /// The resource's ARN (`arn:aws:s3:::bucket`), the policy's `aws:SourceArn`.
    pub arn: &'a str,
    /// The resource owner's account, the policy's `aws:SourceAccount`.
    pub account: &'a str,
}

/// Why a topic does not take a service's messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// There is no such topic.
    Missing,
    /// It is a FIFO topic, which services do not publish to.
    Fifo,
    /// Its Policy does not allow the service for this source.
    Denied,
    /// The publish itself failed (the message is refused).
    Failed(String),
}

/// Whether `topic_arn` takes `source`'s messages: its Policy allows the service, or (the
/// test-friendly rule, `lenient`) it has no Policy of its own and the source's account owns it.
pub fn admits(
    app: &Service,
    topic_arn: &str,
    source: &Source<'_>,
    lenient: bool,
) -> Result<(), Refused> {
    let topic = app.topics.topic(topic_arn).map_err(|_| Refused::Missing)?;
    if topic.fifo {
        return Err(Refused::Fifo);
    }
    let allowed = topic.admits_service(source.principal, (source.arn, source.account), app.now());
    let own = lenient && !topic.has_own_policy() && topic.owner == source.account;
    if allowed || own {
        Ok(())
    } else {
        Err(Refused::Denied)
    }
}

/// Publishes `message` with `subject` to `topic_arn` for `source`, once it admits it; the
/// message's id.
pub fn publish(
    app: &Service,
    topic_arn: &str,
    source: &Source<'_>,
    lenient: bool,
    (subject, message): (&str, String),
) -> Result<String, Refused> {
    admits(app, topic_arn, source, lenient)?;
    let publication = Publication {
        message,
        subject: Some(subject.to_owned()),
        json_structure: false,
        attributes: std::collections::BTreeMap::new(),
        group_id: None,
        deduplication_id: None,
    };
    publish_one(app, None, topic_arn, &publication)
        .map(|p| p.message_id)
        .map_err(|e| Refused::Failed(e.message.into_owned()))
}
