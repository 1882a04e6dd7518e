//! Documents for the two callers: SNS message attributes, and a Lambda SQS record's body.

use serde_json::{Map, Number, Value};

/// One SNS message attribute as Publish received it (`DataType`, `StringValue`).
/// A `Binary` attribute's value is never looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageAttribute<'a> {
    /// `String`, `String.Array`, `Number` or `Binary` (SQS-style `.suffix` labels are
    /// read by their base type).
    pub data_type: &'a str,
    pub value: &'a str,
}

/// The document SNS matches a `MessageAttributes`-scope policy against: one key per
/// attribute. `String` becomes a string; `Number` a JSON number (so numeric operators and
/// `3.015e2 == 301.5` apply); `String.Array` its parsed JSON array (each element matched on
/// its own); `Binary` is left out ("Amazon SNS ignores message attributes with the Binary
/// data type", SNS guide), so it matches nothing and counts as absent for `exists`
/// \[unverified\]. A `Number` or `String.Array` whose value does not parse (SNS's Publish
/// refuses those) is kept as a plain string.
pub fn attributes_document<'a>(
    attributes: impl IntoIterator<Item = (&'a str, MessageAttribute<'a>)>,
) -> Value {
    let mut doc = Map::new();
    for (name, attr) in attributes {
        let base = attr.data_type.split('.').next().unwrap_or_default();
        let value = if attr.data_type == "String.Array" {
            match serde_json::from_str::<Value>(attr.value) {
                Ok(array @ Value::Array(_)) => array,
                _ => Value::String(attr.value.to_owned()),
            }
        } else if base == "Number" {
            attr.value
                .trim()
                .parse::<Number>()
                .map_or_else(|_| Value::String(attr.value.to_owned()), Value::Number)
        } else if base == "Binary" {
            continue;
        } else {
            Value::String(attr.value.to_owned())
        };
        doc.insert(name.to_owned(), value);
    }
    Value::Object(doc)
}

/// What a Lambda pattern expects of an SQS record's `body` (Lambda guide, "Properly
/// filtering Amazon SQS messages").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyShape {
    /// The pattern does not mention `body`: the body is not looked at.
    Absent,
    /// `"body": {…}`: only JSON bodies can match; others are dropped.
    Json,
    /// `"body": [...]`: only plain-string bodies can match; JSON bodies are dropped.
    Plain,
}

/// A body counts as JSON when it parses as an object or array; a bare `42` or `"x"` body is
/// matched as the plain string it is \[unverified: the guide does not say\].
pub(crate) fn parse_json_body(body: &str) -> Option<Value> {
    match serde_json::from_str::<Value>(body) {
        Ok(v @ (Value::Object(_) | Value::Array(_))) => Some(v),
        _ => None,
    }
}

/// The record with its `body` replaced by what the pattern's shape calls for, or `None`
/// when the shapes disagree and Lambda drops the message.
pub(crate) fn sqs_record(shape: BodyShape, record: &Value, body: &str) -> Option<Value> {
    let body = match (shape, parse_json_body(body)) {
        (BodyShape::Absent, _) => return Some(record.clone()),
        (BodyShape::Json, Some(parsed)) => parsed,
        (BodyShape::Plain, None) => Value::String(body.to_owned()),
        _ => return None,
    };
    let mut record = match record {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    record.insert("body".to_owned(), body);
    Some(Value::Object(record))
}
