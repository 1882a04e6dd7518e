//! SQS's AWS Query input, second half: its dialect of the shared Query deserializer
//! ([`crate::http::query`]), so the actions' `#[derive(Deserialize)]` inputs decode Query
//! directly and every failure is SQS's error. SQS flattens its lists and maps (`Item.N`,
//! `Entry.N.Name` / `Entry.N.Value`), takes TagQueue's tags under either prefix, and lets a
//! path-style request name its queue by its path.

use serde::de::DeserializeOwned;

use super::query::Params;
use crate::http::query::{self, Dialect, Expected, Refusal, Shape};
use crate::sqs::error::{SqsError, SqsResult};

/// Decodes an action's input from its Query parameters. A path-style request (Java v1, PHP)
/// names its queue by `path_queue` when it sends no `QueueUrl`.
pub fn decode<'p, T: DeserializeOwned>(
    params: &'p Params<'_>,
    action: &'p str,
    path_queue: Option<&'p str>,
) -> SqsResult<T> {
    query::decode(params.iter(), Sqs { action, path_queue })
}

/// SQS's naming, for one request.
#[derive(Clone, Copy)]
struct Sqs<'p> {
    /// The action, which names the entries of `Entries`.
    action: &'p str,
    /// The queue a path-style request names by its path.
    path_queue: Option<&'p str>,
}

impl<'p> Dialect<'p> for Sqs<'p> {
    type Error = SqsError;

    fn shape(self, member: &str) -> Shape {
        shape(member, self.action)
    }

    /// SDK for Java v1's Query releases flatten TagQueue's tags as `Tags.N.Key` (its
    /// CreateQueue, like botocore, as `Tag.N.Key`) and SQS takes both, so the plural is read
    /// when the singular is absent.
    fn alias(self, prefix: &'static str) -> Option<&'static str> {
        (prefix == "Tag").then_some("Tags")
    }

    fn outside(self, member: &str) -> Option<&'p str> {
        if member == "QueueUrl" {
            self.path_queue
        } else {
            None
        }
    }
}

/// How `member` of `action`'s input travels in SQS's Query form.
pub(super) fn shape(member: &str, action: &str) -> Shape {
    match member {
        "Attributes" => Shape::Map("Attribute", "Name"),
        "MessageAttributes" => Shape::Map("MessageAttribute", "Name"),
        "MessageSystemAttributes" => Shape::Map("MessageSystemAttribute", "Name"),
        "Tags" | "tags" => Shape::Map("Tag", "Key"),
        "AttributeNames" => Shape::List("AttributeName"),
        "MessageSystemAttributeNames" => Shape::List("MessageSystemAttributeName"),
        "MessageAttributeNames" => Shape::List("MessageAttributeName"),
        "TagKeys" => Shape::List("TagKey"),
        "AWSAccountIds" => Shape::List("AWSAccountId"),
        "Actions" => Shape::List("ActionName"),
        "Entries" => Shape::List(match action {
            "SendMessageBatch" => "SendMessageBatchRequestEntry",
            "DeleteMessageBatch" => "DeleteMessageBatchRequestEntry",
            _ => "ChangeMessageVisibilityBatchRequestEntry",
        }),
        _ => Shape::Scalar,
    }
}

impl Refusal for SqsError {
    fn missing(member: &'static str) -> Self {
        SqsError::missing(member)
    }

    fn invalid(text: &str, member: &'static str, expected: Expected) -> Self {
        let reason = match expected {
            Expected::Integer => "Must be an integer.",
            Expected::Boolean => "Must be a boolean.",
        };
        SqsError::invalid_value(text, member, reason)
    }

    fn unreadable() -> Self {
        SqsError::invalid_parameter("The request has a parameter with an invalid value.")
    }
}

#[cfg(test)]
#[path = "query_de_tests.rs"]
mod tests;
