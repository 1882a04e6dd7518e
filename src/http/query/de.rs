//! The deserializer itself: the request as a structure ([`Top`]), the members a structure
//! asks for ([`Fields`], [`MemberDe`]), and the items, entries and scalars below them
//! ([`NodeDe`]).

use std::fmt;

use serde::de::value::StrDeserializer;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::{Dialect, Expected, Node, Refusal, Shape};

/// Decodes `T` from the request's parameters under `node`.
pub(super) fn decode<'p, T: DeserializeOwned, D: Dialect<'p>>(
    node: Node<'p>,
    dialect: D,
) -> Result<T, D::Error> {
    T::deserialize(Top { node, dialect }).map_err(|DecodeError(e)| e)
}

/// A decoding failure, already in the service's terms.
#[derive(Debug)]
struct DecodeError<E>(E);

impl<E: fmt::Display> fmt::Display for DecodeError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<E: std::error::Error> std::error::Error for DecodeError<E> {}

impl<E: Refusal> de::Error for DecodeError<E> {
    /// Only reached when an input type asks for a shape the form cannot give; the serde text
    /// stays out of the answer.
    fn custom<T: fmt::Display>(_: T) -> Self {
        DecodeError(E::unreadable())
    }

    fn missing_field(field: &'static str) -> Self {
        DecodeError(E::missing(field))
    }
}

/// The service's error for `node`'s text, which is not what its type needs.
fn invalid<E: Refusal>(node: &Node<'_>, expected: Expected) -> DecodeError<E> {
    DecodeError(E::invalid(node.text(), node.name, expected))
}

/// The request itself: a structure, whose members may also come from outside the form.
struct Top<'p, D> {
    /// Every parameter of the request.
    node: Node<'p>,
    /// How the service names its members.
    dialect: D,
}

impl<'de, D: Dialect<'de>> de::Deserializer<'de> for Top<'de, D> {
    type Error = DecodeError<D::Error>;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_struct("", &[], visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_map(Fields::new(&self.node, fields, self.dialect, true))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// A structure's members, in the order the type declares them, skipping those not sent.
struct Fields<'n, 'p, D> {
    /// The structure's parameters.
    node: &'n Node<'p>,
    /// The members still to look up.
    names: std::slice::Iter<'static, &'static str>,
    /// How the service names its members.
    dialect: D,
    /// Whether this is the request itself, whose members may come from outside the form.
    top: bool,
    /// Query prefixes already given, so that a member and its alias are not both filled.
    given: Vec<Shape>,
    /// The member whose name was handed out, until its value is asked for.
    pending: Option<Member<'p>>,
}

impl<'n, 'p, D: Dialect<'p>> Fields<'n, 'p, D> {
    /// The members `fields` of the structure at `node`.
    fn new(node: &'n Node<'p>, fields: &'static [&'static str], dialect: D, top: bool) -> Self {
        Fields {
            node,
            names: fields.iter(),
            dialect,
            top,
            given: Vec::new(),
            pending: None,
        }
    }

    /// The member's value if the request sent it.
    fn member(&mut self, name: &'static str) -> Option<Member<'p>> {
        let shape = self.dialect.shape(name);
        if shape != Shape::Scalar && self.given.contains(&shape) {
            return None;
        }
        let node = self.node;
        let empty_list = node.child(name).is_some_and(str::is_empty);
        let member = match shape {
            Shape::Scalar => match node.child(name) {
                Some(v) => Member::Scalar(Node::leaf(name, v)),
                None if self.top => Member::Scalar(Node::leaf(name, self.dialect.outside(name)?)),
                None => return None,
            },
            Shape::List(item) if node.has_prefix(item) || empty_list => {
                Member::List(node.items(name, item))
            }
            Shape::Map(entry, key) => match self.map_prefix(entry) {
                Some(prefix) => Member::Map(node.entries(name, prefix, key)),
                None if empty_list => Member::Map(node.entries(name, entry, key)),
                None => return None,
            },
            Shape::List(_) => return None,
        };
        self.given.push(shape);
        Some(member)
    }

    /// The prefix a map was sent under: its own, or the dialect's alias for it.
    fn map_prefix(&self, entry: &'static str) -> Option<&'static str> {
        if self.node.has_prefix(entry) {
            Some(entry)
        } else {
            self.dialect
                .alias(entry)
                .filter(|alias| self.node.has_prefix(alias))
        }
    }
}

impl<'de, D: Dialect<'de>> de::MapAccess<'de> for Fields<'_, 'de, D> {
    type Error = DecodeError<D::Error>;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        while let Some(&name) = self.names.next() {
            if let Some(member) = self.member(name) {
                self.pending = Some(member);
                let key: StrDeserializer<'_, Self::Error> = name.into_deserializer();
                return seed.deserialize(key).map(Some);
            }
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let member = self.pending.take().ok_or_else(|| de::Error::custom(""))?;
        seed.deserialize(MemberDe {
            member,
            dialect: self.dialect,
        })
    }
}

/// A member's value in its Query form.
enum Member<'p> {
    /// Its text.
    Scalar(Node<'p>),
    /// Its items, in index order.
    List(Vec<Node<'p>>),
    /// Its entries' keys and values, in index order.
    Map(Vec<(&'p str, Node<'p>)>),
}

/// Numbers and booleans are read from a scalar's text, whatever the member's form.
macro_rules! scalar_methods {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.scalar().$method(visitor)
        }
    )*};
}

/// One member of a structure, as the type asks for it.
struct MemberDe<'p, D> {
    /// Its value in its Query form.
    member: Member<'p>,
    /// How the service names its members.
    dialect: D,
}

impl<'de, D: Dialect<'de>> de::Deserializer<'de> for MemberDe<'de, D> {
    type Error = DecodeError<D::Error>;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let dialect = self.dialect;
        match self.member {
            Member::Scalar(node) => NodeDe { node, dialect }.deserialize_any(visitor),
            Member::List(items) => visitor.visit_seq(de::value::SeqDeserializer::new(
                items.into_iter().map(|node| NodeDe { node, dialect }),
            )),
            Member::Map(entries) => visitor.visit_map(de::value::MapDeserializer::new(
                entries
                    .into_iter()
                    .map(|(k, node)| (Text(k), NodeDe { node, dialect })),
            )),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let dialect = self.dialect;
        match self.member {
            Member::Scalar(node) => {
                NodeDe { node, dialect }.deserialize_struct(name, fields, visitor)
            }
            other => MemberDe {
                member: other,
                dialect,
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

impl<'p, D> MemberDe<'p, D> {
    /// A list or map asked for as a number: it has no text, which is not a number.
    fn scalar(self) -> NodeDe<'p, D> {
        let node = match self.member {
            Member::Scalar(node) => node,
            Member::List(_) | Member::Map(_) => Node::leaf("", ""),
        };
        NodeDe {
            node,
            dialect: self.dialect,
        }
    }
}

/// Every integer width (and floats) parses as `i64`; the visitor checks the range.
macro_rules! integer_methods {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.deserialize_i64(visitor)
        }
    )*};
}

/// A list item, a map value or a scalar: its text, or the structure below it.
struct NodeDe<'p, D> {
    /// The item, value or scalar.
    node: Node<'p>,
    /// How the service names its members.
    dialect: D,
}

impl<'de, D: Dialect<'de>> de::Deserializer<'de> for NodeDe<'de, D> {
    type Error = DecodeError<D::Error>;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_borrowed_str(self.node.text())
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let n = self
            .node
            .text()
            .trim()
            .parse()
            .map_err(|_| invalid(&self.node, Expected::Integer))?;
        // The type's own range check (u32, i32...) reads as "not an integer" too.
        visitor
            .visit_i64(n)
            .map_err(|_: Self::Error| invalid(&self.node, Expected::Integer))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.node.text() {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(invalid(&self.node, Expected::Boolean)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_map(Fields::new(&self.node, fields, self.dialect, false))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
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

impl<'de, D: Dialect<'de>> IntoDeserializer<'de, DecodeError<D::Error>> for NodeDe<'de, D> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// A map key: borrowed text.
struct Text<'p>(&'p str);

impl<'de, E: Refusal> IntoDeserializer<'de, DecodeError<E>> for Text<'de> {
    type Deserializer = de::value::BorrowedStrDeserializer<'de, DecodeError<E>>;

    fn into_deserializer(self) -> Self::Deserializer {
        de::value::BorrowedStrDeserializer::new(self.0)
    }
}
