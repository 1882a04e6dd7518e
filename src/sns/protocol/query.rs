//! SNS's dialect of the shared Query deserializer ([`crate::http::query`]). SNS wraps its
//! lists' items (`TagKeys.member.N`, `PublishBatchRequestEntries.member.N.Message`) and its
//! maps' entries (`Attributes.entry.N.key` / `.value`, `MessageAttributes.entry.N.Name` /
//! `.Value.StringValue`); its maps are read as lists of their entries, so that what SNS does
//! with an entry missing its key or value stays SNS's rule ([`crate::sns::actions::wire`]).

use crate::http::query::{Dialect, Expected, Refusal, Shape};
use crate::sns::error::SnsError;

/// SNS's naming: the same for every action.
#[derive(Debug, Clone, Copy)]
pub struct Sns;

impl Dialect<'_> for Sns {
    type Error = SnsError;

    fn shape(self, member: &str) -> Shape {
        Shape::List(match member {
            "Attributes" => "Attributes.entry",
            "MessageAttributes" => "MessageAttributes.entry",
            "Tags" => "Tags.member",
            "TagKeys" => "TagKeys.member",
            "AWSAccountId" => "AWSAccountId.member",
            "ActionName" => "ActionName.member",
            "PublishBatchRequestEntries" => "PublishBatchRequestEntries.member",
            _ => return Shape::Scalar,
        })
    }
}

/// Every member SNS's inputs read is text, so only a required member left out reaches SNS's
/// answer from here; the other two are worded for completeness \[unverified\].
impl Refusal for SnsError {
    fn missing(member: &'static str) -> Self {
        SnsError::missing(member)
    }

    fn invalid(_: &str, member: &'static str, _: Expected) -> Self {
        SnsError::invalid(member)
    }

    fn unreadable() -> Self {
        SnsError::invalid("a parameter has the wrong shape")
    }
}
