//! AWS Query input, second half: a serde `Deserializer` over the kept form parameters, so the
//! actions' `#[derive(Deserialize)]` inputs decode Query directly (no JSON tree in between)
//! and every failure is SQS's error, never serde's text.
//!
//! A struct asks for its fields by their JSON member name; each is looked up by its Query
//! form: a scalar by name, a list as `Item.N`, a map as `Entry.N.Name`/`Entry.N.Value`, and an
//! empty list as the member name with an empty value (`Entries=`).

use std::fmt;

use serde::de::value::StrDeserializer;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::query::{shape, Node, Params, Shape};
use crate::sqs::error::{SqsError, SqsResult};

/// Decodes an action's input from its Query parameters. A path-style request (Java v1, PHP)
/// names its queue by `path_queue` when it sends no `QueueUrl`.
pub fn decode<'p, T: DeserializeOwned>(
    params: &'p Params<'_>,
    action: &'p str,
    path_queue: Option<&'p str>,
) -> SqsResult<T> {
    let node = Node::root(params);
    let top = Top {
        node,
        action,
        path_queue,
    };
    T::deserialize(top).map_err(|DecodeError(e)| e)
}

/// A decoding failure, already in SQS's terms.
#[derive(Debug)]
pub struct DecodeError(SqsError);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    /// Only reached when an input type asks for a shape the form cannot give; the serde text
    /// stays out of the answer.
    fn custom<T: fmt::Display>(_: T) -> Self {
        DecodeError(SqsError::invalid_parameter(
            "The request has a parameter with an invalid value.",
        ))
    }

    fn missing_field(field: &'static str) -> Self {
        DecodeError(SqsError::missing(field))
    }
}

/// The request itself: a structure whose `QueueUrl` may come from the path.
struct Top<'p> {
    node: Node<'p>,
    action: &'p str,
    path_queue: Option<&'p str>,
}

impl<'de> de::Deserializer<'de> for Top<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_struct("", &[], visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        visitor.visit_map(Fields::new(
            &self.node,
            fields,
            self.action,
            self.path_queue,
        ))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// A structure's members, in the order the type declares them, skipping those not sent.
struct Fields<'n, 'p> {
    node: &'n Node<'p>,
    names: std::slice::Iter<'static, &'static str>,
    action: &'p str,
    path_queue: Option<&'p str>,
    /// Query prefixes already given, so that a member and its alias are not both filled.
    given: Vec<Shape>,
    pending: Option<Member<'p>>,
}

impl<'n, 'p> Fields<'n, 'p> {
    fn new(
        node: &'n Node<'p>,
        fields: &'static [&'static str],
        action: &'p str,
        path_queue: Option<&'p str>,
    ) -> Self {
        Fields {
            node,
            names: fields.iter(),
            action,
            path_queue,
            given: Vec::new(),
            pending: None,
        }
    }

    /// The member's value if the request sent it.
    fn member(&mut self, name: &'static str) -> Option<Member<'p>> {
        let shape = shape(name, self.action);
        if shape != Shape::Scalar && self.given.contains(&shape) {
            return None;
        }
        let node = self.node;
        let empty_list = node.child(name).is_some_and(str::is_empty);
        let member = match shape {
            Shape::Scalar => match node.child(name) {
                Some(v) => Member::Scalar(Node::leaf(name, v)),
                None if name == "QueueUrl" => Member::Scalar(Node::leaf(name, self.path_queue?)),
                None => return None,
            },
            Shape::List(item) if node.has_prefix(item) || empty_list => {
                Member::List(node.items(name, item))
            }
            Shape::Map(entry, key) => match map_prefix(node, entry) {
                Some(prefix) => Member::Map(node.entries(name, prefix, key)),
                None if empty_list => Member::Map(node.entries(name, entry, key)),
                None => return None,
            },
            Shape::List(_) => return None,
        };
        self.given.push(shape);
        Some(member)
    }
}

/// The prefix a flattened map was sent under. SDK for Java v1's Query releases flatten
/// TagQueue's tags as `Tags.N.Key` (its CreateQueue, like botocore, as `Tag.N.Key`) and SQS takes
/// both, so the plural is read when the singular is absent.
fn map_prefix(node: &Node<'_>, entry: &'static str) -> Option<&'static str> {
    if node.has_prefix(entry) {
        Some(entry)
    } else if entry == "Tag" && node.has_prefix("Tags") {
        Some("Tags")
    } else {
        None
    }
}

impl<'de> de::MapAccess<'de> for Fields<'_, 'de> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DecodeError> {
        while let Some(&name) = self.names.next() {
            if let Some(member) = self.member(name) {
                self.pending = Some(member);
                let key: StrDeserializer<'_, DecodeError> = name.into_deserializer();
                return seed.deserialize(key).map(Some);
            }
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, DecodeError> {
        let member = self.pending.take().ok_or_else(|| de::Error::custom(""))?;
        seed.deserialize(MemberDe {
            member,
            action: self.action,
        })
    }
}

/// A member's value in its Query form.
enum Member<'p> {
    Scalar(Node<'p>),
    List(Vec<Node<'p>>),
    Map(Vec<(&'p str, Node<'p>)>),
}

/// Numbers and booleans are read from a scalar's text, whatever the member's form.
macro_rules! scalar_methods {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
            self.scalar().$method(visitor)
        }
    )*};
}

struct MemberDe<'p> {
    member: Member<'p>,
    action: &'p str,
}

impl<'de> de::Deserializer<'de> for MemberDe<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let action = self.action;
        match self.member {
            Member::Scalar(node) => NodeDe { node, action }.deserialize_any(visitor),
            Member::List(items) => visitor.visit_seq(de::value::SeqDeserializer::new(
                items.into_iter().map(|node| NodeDe { node, action }),
            )),
            Member::Map(entries) => visitor.visit_map(de::value::MapDeserializer::new(
                entries
                    .into_iter()
                    .map(|(k, node)| (Text(k), NodeDe { node, action })),
            )),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_some(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        match self.member {
            Member::Scalar(node) => NodeDe {
                node,
                action: self.action,
            }
            .deserialize_struct(name, fields, visitor),
            other => MemberDe {
                member: other,
                action: self.action,
            }
            .deserialize_any(visitor),
        }
    }

    scalar_methods! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64
    }

    forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct newtype_struct seq tuple tuple_struct
        map enum identifier ignored_any
    }
}

impl<'p> MemberDe<'p> {
    /// A list or map asked for as a number: it has no text, which is not a number.
    fn scalar(self) -> NodeDe<'p> {
        let node = match self.member {
            Member::Scalar(node) => node,
            Member::List(_) | Member::Map(_) => Node::leaf("", ""),
        };
        NodeDe {
            node,
            action: self.action,
        }
    }
}

/// Every integer width (and, unused by SQS, floats) parses as `i64`; the visitor checks range.
macro_rules! integer_methods {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
            self.deserialize_i64(visitor)
        }
    )*};
}

/// A list item, a map value or a scalar: its text, or the structure below it.
struct NodeDe<'p> {
    node: Node<'p>,
    action: &'p str,
}

impl<'de> de::Deserializer<'de> for NodeDe<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_borrowed_str(self.node.text())
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_some(self)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let n = self.node.integer().map_err(DecodeError)?;
        // The type's own range check (u32, i32…) reads as SQS's "not an integer" too.
        visitor
            .visit_i64(n)
            .map_err(|_: DecodeError| DecodeError(self.node.invalid("Must be an integer.")))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.node.text() {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(DecodeError(self.node.invalid("Must be a boolean."))),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        visitor.visit_map(Fields::new(&self.node, fields, self.action, None))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct newtype_struct seq tuple tuple_struct
        map enum identifier
    }

    integer_methods! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i128 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128 deserialize_f32
        deserialize_f64
    }
}

impl<'de> IntoDeserializer<'de, DecodeError> for NodeDe<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// A map key: borrowed text.
struct Text<'p>(&'p str);

impl<'de> IntoDeserializer<'de, DecodeError> for Text<'de> {
    type Deserializer = de::value::BorrowedStrDeserializer<'de, DecodeError>;

    fn into_deserializer(self) -> Self::Deserializer {
        de::value::BorrowedStrDeserializer::new(self.0)
    }
}

#[cfg(test)]
#[path = "query_de_tests.rs"]
mod tests;
