//! AWS JSON 1.0 input: a budget check, then serde_json straight into the action's type; a
//! body that fails is decoded once more, on that error path only, to name the failure in
//! SQS's terms (MissingParameter, or Coral's SerializationException) instead of serde's text.

use std::fmt;

use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value};

use super::query::MAX_PARAMS;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

/// Deeper than any SQS input (a batch entry's message attribute's value list is 5 levels).
/// (Chosen, like [`MAX_PARAMS`] for the number of values: SQS's limits are not documented.)
pub const MAX_DEPTH: usize = 16;

pub fn decode<T: DeserializeOwned>(body: &[u8]) -> SqsResult<T> {
    // An empty body is an empty request, as for ListQueues.
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        body
    };
    check_budget(body)?;
    // One UTF-8 check of the whole body: the slice reader checks every string it reads
    // apart, which cost ten times as much (3,500 instructions in a batch of ten). A body
    // that is not UTF-8 still goes through the slice reader, for the same errors.
    let parsed = match std::str::from_utf8(body) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(body),
    };
    match parsed {
        Ok(input) => Ok(input),
        Err(e) if e.is_data() => explain(body),
        // Malformed JSON: Coral answers a bare SerializationException.
        Err(_) => Err(SqsError::new(ErrorKind::SerializationException, "")),
    }
}

/// Refuses, before any decoding, bodies with more values or deeper nesting than any valid SQS
/// request, so that what decoding keeps is bounded whatever the body holds.
pub fn check_budget(body: &[u8]) -> SqsResult<()> {
    // Brackets and commas bound depth and values from above (those inside strings count too),
    // so a body with few of them is within budget without the byte-by-byte walk below.
    let (opens, commas) = structural_bytes(body);
    if opens <= MAX_DEPTH && opens + commas <= MAX_PARAMS {
        return Ok(());
    }
    let (mut depth, mut values, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in body {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                values += 1;
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' => values += 1,
            _ => {}
        }
        if depth > MAX_DEPTH || values > MAX_PARAMS {
            return Err(SqsError::new(
                ErrorKind::SerializationException,
                format!(
                    "The request has more than {MAX_PARAMS} values or is nested deeper than {MAX_DEPTH} levels."
                ),
            ));
        }
    }
    Ok(())
}

/// How many `{` or `[` and how many `,` the body holds. Counted in byte-wide lanes, 255 bytes
/// at a time so no lane overflows: the compiler vectorises this to under one instruction a
/// byte, where the walk costs about eleven (it was most of a batch's decoding).
fn structural_bytes(body: &[u8]) -> (usize, usize) {
    let (mut opens, mut commas) = (0usize, 0usize);
    for chunk in body.chunks(255) {
        let (mut o, mut c) = (0u8, 0u8);
        for &b in chunk {
            o += u8::from(b == b'{' || b == b'[');
            c += u8::from(b == b',');
        }
        opens += usize::from(o);
        commas += usize::from(c);
    }
    (opens, commas)
}

/// The error path: decodes the body again through a deserializer whose errors are SQS's.
/// Coral converts a little more than serde_json does (a float where an integer is expected is
/// truncated), so this can also succeed.
fn explain<T: DeserializeOwned>(body: &[u8]) -> SqsResult<T> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|_| SqsError::new(ErrorKind::SerializationException, ""))?;
    T::deserialize(JsonDe(&value)).map_err(|JsonError(e)| e)
}

#[derive(Debug)]
struct JsonError(SqsError);

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for JsonError {}

impl de::Error for JsonError {
    fn custom<T: fmt::Display>(_: T) -> Self {
        JsonError(SqsError::new(ErrorKind::SerializationException, ""))
    }

    fn missing_field(field: &'static str) -> Self {
        JsonError(SqsError::missing(field))
    }
}

/// Coral's wording for a value of the wrong JSON type, as recorded from Coral (AWS's JSON
/// service framework) for another awsJson 1.0 service; unverified for SQS itself.
fn wrong_type(value: &Value, expected: &str) -> JsonError {
    let message = match value {
        Value::Array(_) => "Start of list found where not expected".to_owned(),
        Value::Object(_) => "Start of structure or map found where not expected.".to_owned(),
        Value::Bool(_) => format!("class java.lang.Boolean can not be converted to an {expected}"),
        Value::String(_) => format!("class java.lang.String can not be converted to an {expected}"),
        Value::Number(_) => format!(
            "class com.amazon.coral.value.json.numbers.TruncatingBigNumber can not be converted to an {expected}"
        ),
        Value::Null => String::new(),
    };
    JsonError(SqsError::new(ErrorKind::SerializationException, message))
}

fn serialization(message: &str) -> JsonError {
    JsonError(SqsError::new(ErrorKind::SerializationException, message))
}

/// Every integer width reads as `i64`; the visitor checks the range.
macro_rules! integer_methods {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonError> {
            self.deserialize_i64(visitor)
        }
    )*};
}

struct JsonDe<'v>(&'v Value);

impl<'de> de::Deserializer<'de> for JsonDe<'de> {
    type Error = JsonError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonError> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(_) => self.deserialize_i64(visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(_) => self.deserialize_seq(visitor),
            Value::Object(_) => self.deserialize_map(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonError> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonError> {
        match self.0 {
            Value::String(s) => visitor.visit_borrowed_str(s),
            other => Err(wrong_type(other, "String")),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonError> {
        let Value::Number(n) = self.0 else {
            return Err(wrong_type(self.0, "Integer"));
        };
        let truncated = n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.abs() < 9.2e18)
                .map(|f| f.trunc() as i64)
        });
        let too_big = || wrong_type(self.0, "Integer");
        visitor
            .visit_i64(truncated.ok_or_else(too_big)?)
            .map_err(|_: JsonError| too_big())
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonError> {
        match self.0 {
            Value::Array(items) => {
                visitor.visit_seq(de::value::SeqDeserializer::new(items.iter().map(JsonDe)))
            }
            Value::Object(_) => Err(wrong_type(self.0, "")),
            _ => Err(serialization("Expected list or null")),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonError> {
        match self.0 {
            Value::Object(members) => visitor.visit_map(members_of(members)),
            Value::Array(_) => Err(wrong_type(self.0, "")),
            _ => Err(serialization("Expected map or null")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, JsonError> {
        match self.0 {
            Value::Object(members) => visitor.visit_map(members_of(members)),
            Value::Array(_) => Err(wrong_type(self.0, "")),
            _ => Err(serialization("Expected null")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonError> {
        visitor.visit_unit()
    }

    integer_methods! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i128 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
    }

    forward_to_deserialize_any! {
        bool f32 f64 char bytes byte_buf unit unit_struct newtype_struct tuple tuple_struct enum
        identifier
    }
}

/// An object's members; a `null` member counts as absent, as Coral treats it.
fn members_of(
    members: &Map<String, Value>,
) -> de::value::MapDeserializer<'_, impl Iterator<Item = (Key<'_>, JsonDe<'_>)>, JsonError> {
    de::value::MapDeserializer::new(
        members
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (Key(k), JsonDe(v))),
    )
}

impl<'de> IntoDeserializer<'de, JsonError> for JsonDe<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

struct Key<'v>(&'v str);

impl<'de> IntoDeserializer<'de, JsonError> for Key<'de> {
    type Deserializer = de::value::BorrowedStrDeserializer<'de, JsonError>;

    fn into_deserializer(self) -> Self::Deserializer {
        de::value::BorrowedStrDeserializer::new(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize, inner: &str) -> String {
        format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn budget_bounds_hold_on_both_sides_of_the_quick_count() {
        // Within the count's bound, and past it only inside a string: both accepted.
        assert!(check_budget(nested(MAX_DEPTH, "").as_bytes()).is_ok());
        let quoted = format!(r#"{{"a":"{}{}"}}"#, "[{".repeat(40), ",".repeat(2000));
        assert!(check_budget(quoted.as_bytes()).is_ok());
        // One level or one value too many: refused.
        assert!(check_budget(nested(MAX_DEPTH + 1, "").as_bytes()).is_err());
        let values = |n: usize| format!("[{}]", vec!["1"; n].join(","));
        assert!(check_budget(values(MAX_PARAMS).as_bytes()).is_ok());
        assert!(check_budget(values(MAX_PARAMS + 1).as_bytes()).is_err());
        // Counted past 255 bytes (the count's lanes) and with escaped quotes in strings.
        let long = format!(
            r#"{{"a":"{}\"[[[[","b":{}}}"#,
            "x".repeat(600),
            nested(15, "1")
        );
        assert!(check_budget(long.as_bytes()).is_ok());
        let deep = format!(r#"{{"a":"{}","b":{}}}"#, "x".repeat(600), nested(16, "1"));
        assert!(check_budget(deep.as_bytes()).is_err());
    }
}
