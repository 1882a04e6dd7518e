//! AWS Query input for every service that speaks it: a serde `Deserializer` over a request's
//! form parameters, so that an action's `#[derive(Deserialize)]` input decodes straight from
//! the form (no JSON tree in between) and every failure is the service's own error, never
//! serde's text.
//!
//! A struct asks for its fields by their member name; each is looked up in its Query form:
//! a scalar by name, a list's items as `Prefix.N[.Member]`, a map's entries as
//! `Prefix.N.<key>` / `Prefix.N.Value[.Member]`, and an empty list as the member name with an
//! empty value (`Entries=`), as botocore sends one. What a service names differently is its
//! [`Dialect`]; how a failure reads is its [`Refusal`]:
//!
//! | | SQS | SNS |
//! |---|---|---|
//! | a list's items | flattened: `AttributeName.N`, `SendMessageBatchRequestEntry.N.Id` | wrapped: `TagKeys.member.N`, `PublishBatchRequestEntries.member.N.Message` |
//! | a map's entries | `Attribute.N.Name` / `.Value` ([`Shape::Map`]) | a list of its entries: `Attributes.entry.N.key` / `.value` |
//! | a member outside the form | a path-style request's queue (`QueueUrl`) | none |
//! | errors | `SqsError` | `SnsError` |
//!
//! The bound is the caller's: each service hands in parameters already within its own
//! `MAX_PARAMS`, and decoding keeps at most a few references per parameter.
#![warn(clippy::missing_docs_in_private_items)]

mod de;
mod node;

use serde::de::DeserializeOwned;

pub use node::{Node, Shape};

/// What a service's Query names differently: how its members travel, and what a request may
/// give outside its parameters. A value, since SQS's naming depends on the request (its action,
/// its path); cheap to copy, as the deserializer hands it down to every member.
pub trait Dialect<'p>: Copy {
    /// The service's error, made from every failure to decode.
    type Error: Refusal;

    /// How `member` travels in the form.
    fn shape(self, member: &str) -> Shape;

    /// Another prefix a map may be sent under when its own `prefix` is absent.
    fn alias(self, prefix: &'static str) -> Option<&'static str> {
        let _ = prefix;
        None
    }

    /// A top-level member the request gives outside its parameters, read when they lack it.
    fn outside(self, member: &str) -> Option<&'p str> {
        let _ = member;
        None
    }
}

/// What a scalar's text failed to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// An integer (every width and float is read as a trimmed `i64`).
    Integer,
    /// `true` or `false`.
    Boolean,
}

/// A decoding failure in a service's own words.
pub trait Refusal: std::error::Error + Sized {
    /// A required member not sent.
    fn missing(member: &'static str) -> Self;

    /// A member's `text` is not what its type needs.
    fn invalid(text: &str, member: &'static str, expected: Expected) -> Self;

    /// An input type asked for a shape the form cannot give (a list as a number...).
    fn unreadable() -> Self;
}

/// Decodes `T` from a request's `(name, value)` parameters, in arrival order (a later value
/// of a name wins), named as `dialect` names them.
pub fn decode<'p, T, D>(
    params: impl IntoIterator<Item = (&'p str, &'p str)>,
    dialect: D,
) -> Result<T, D::Error>
where
    T: DeserializeOwned,
    D: Dialect<'p>,
{
    de::decode(Node::root(params), dialect)
}
