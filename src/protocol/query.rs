//! AWS Query input: flattened form parameters folded into the JSON shape of the same request,
//! so that one serde type per action decodes both protocols.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::{SqsError, SqsResult};

/// Members that are integers on the wire (strings in a form, numbers in JSON).
const INTEGERS: &[&str] = &[
    "DelaySeconds",
    "MaxNumberOfMessages",
    "VisibilityTimeout",
    "WaitTimeSeconds",
    "MaxResults",
    "MaxNumberOfMessagesPerSecond",
];

/// How a flattened Query prefix maps to its JSON member.
enum Shape {
    /// `Prefix.N.Name` / `Prefix.N.Value` pairs into a map.
    NameValueMap(&'static str),
    /// `Tag.N.Key` / `Tag.N.Value` pairs into a map.
    KeyValueMap(&'static str),
    /// `Prefix.N` into a list of strings.
    List(&'static str),
    /// `Prefix.N.Member` into a list of objects.
    Entries,
}

fn shape(prefix: &str) -> Option<Shape> {
    Some(match prefix {
        "Attribute" => Shape::NameValueMap("Attributes"),
        "MessageAttribute" => Shape::NameValueMap("MessageAttributes"),
        "MessageSystemAttribute" => Shape::NameValueMap("MessageSystemAttributes"),
        "Tag" | "Tags" => Shape::KeyValueMap("Tags"),
        "AttributeName" => Shape::List("AttributeNames"),
        "MessageSystemAttributeName" => Shape::List("MessageSystemAttributeNames"),
        "MessageAttributeName" => Shape::List("MessageAttributeNames"),
        "TagKey" => Shape::List("TagKeys"),
        "AWSAccountId" => Shape::List("AWSAccountIds"),
        "ActionName" => Shape::List("Actions"),
        "SendMessageBatchRequestEntry"
        | "DeleteMessageBatchRequestEntry"
        | "ChangeMessageVisibilityBatchRequestEntry" => Shape::Entries,
        _ => return None,
    })
}

/// Folds `(key, value)` form pairs into a JSON object. Unknown flat keys are kept as strings
/// (SQS ignores what it does not know); indexes may be sparse or unordered.
pub fn to_json(params: &[(String, String)]) -> SqsResult<Value> {
    // The deepest SQS key has six parts (`…Entry.N.MessageAttribute.M.Value.StringValue`);
    // deeper ones are unknown parameters, and skipping them bounds the folding's recursion.
    const MAX_PARTS: usize = 8;
    let pairs: Vec<(Vec<&str>, &str)> = params
        .iter()
        .map(|(k, v)| (k.split('.').collect::<Vec<_>>(), v.as_str()))
        .filter(|(parts, _)| parts.len() <= MAX_PARTS)
        .collect();
    fold(&pairs)
}

fn fold(pairs: &[(Vec<&str>, &str)]) -> SqsResult<Value> {
    let mut out = Map::new();
    let mut nested: BTreeMap<&str, Vec<(Vec<&str>, &str)>> = BTreeMap::new();
    for (path, value) in pairs {
        match path.as_slice() {
            [key] => {
                out.insert((*key).to_owned(), scalar(key, value)?);
            }
            [head, rest @ ..] => nested.entry(head).or_default().push((rest.to_vec(), value)),
            [] => {}
        }
    }
    for (prefix, items) in nested {
        let Some(shape) = shape(prefix) else { continue };
        let indexed = by_index(&items);
        match shape {
            Shape::List(member) => {
                let list = indexed
                    .values()
                    .filter_map(|fields| fields.iter().find(|(p, _)| p.is_empty()))
                    .map(|(_, v)| Value::String((*v).to_owned()))
                    .collect();
                out.insert(member.to_owned(), Value::Array(list));
            }
            Shape::Entries => {
                let list = indexed
                    .values()
                    .map(|fields| fold(fields))
                    .collect::<SqsResult<Vec<_>>>()?;
                out.insert("Entries".to_owned(), Value::Array(list));
            }
            Shape::NameValueMap(member) => {
                out.insert(member.to_owned(), pairs_map(&indexed, "Name")?);
            }
            Shape::KeyValueMap(member) => {
                out.insert(member.to_owned(), pairs_map(&indexed, "Key")?);
            }
        }
    }
    Ok(Value::Object(out))
}

/// Groups `N.rest` paths by their numeric index, in numeric order.
fn by_index<'a>(items: &[(Vec<&'a str>, &'a str)]) -> BTreeMap<u64, Vec<(Vec<&'a str>, &'a str)>> {
    let mut indexed: BTreeMap<u64, Vec<(Vec<&str>, &str)>> = BTreeMap::new();
    for (path, value) in items {
        if let Some((index, rest)) = path.split_first() {
            if let Ok(n) = index.parse::<u64>() {
                indexed.entry(n).or_default().push((rest.to_vec(), value));
            }
        }
    }
    indexed
}

fn pairs_map(indexed: &BTreeMap<u64, Vec<(Vec<&str>, &str)>>, key_name: &str) -> SqsResult<Value> {
    let mut map = Map::new();
    for fields in indexed.values() {
        let Some((_, key)) = fields.iter().find(|(p, _)| p.as_slice() == [key_name]) else {
            continue;
        };
        let value_fields: Vec<(Vec<&str>, &str)> = fields
            .iter()
            .filter_map(|(p, v)| match p.split_first() {
                Some((&"Value", rest)) => Some((rest.to_vec(), *v)),
                _ => None,
            })
            .collect();
        let value = match value_fields.as_slice() {
            [(rest, v)] if rest.is_empty() => Value::String((*v).to_owned()),
            [] => Value::String(String::new()),
            _ => fold(&value_fields)?,
        };
        map.insert((*key).to_owned(), value);
    }
    Ok(Value::Object(map))
}

fn scalar(key: &str, value: &str) -> SqsResult<Value> {
    if INTEGERS.contains(&key) {
        return value
            .trim()
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| SqsError::invalid_value(value, key, "Must be an integer."));
    }
    Ok(Value::String(value.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn folds_maps_lists_and_entries() {
        let v = to_json(&params(&[
            ("Action", "SendMessageBatch"),
            ("SendMessageBatchRequestEntry.2.Id", "b"),
            ("SendMessageBatchRequestEntry.2.MessageBody", "two"),
            ("SendMessageBatchRequestEntry.1.Id", "a"),
            ("SendMessageBatchRequestEntry.1.DelaySeconds", "5"),
            (
                "SendMessageBatchRequestEntry.1.MessageAttribute.1.Name",
                "x",
            ),
            (
                "SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType",
                "String",
            ),
            (
                "SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue",
                "y",
            ),
            ("Attribute.1.Name", "VisibilityTimeout"),
            ("Attribute.1.Value", "10"),
            ("AttributeName.2", "B"),
            ("AttributeName.1", "A"),
        ]))
        .unwrap();
        assert_eq!(
            v,
            json!({
                "Action": "SendMessageBatch",
                "Attributes": {"VisibilityTimeout": "10"},
                "AttributeNames": ["A", "B"],
                "Entries": [
                    {"Id": "a", "DelaySeconds": 5,
                     "MessageAttributes": {"x": {"DataType": "String", "StringValue": "y"}}},
                    {"Id": "b", "MessageBody": "two"}
                ]
            })
        );
    }

    #[test]
    fn absurdly_deep_keys_are_ignored_not_recursed_into() {
        let key = "SendMessageBatchRequestEntry.1.".repeat(100_000) + "Id";
        let v = to_json(&params(&[(key.as_str(), "x"), ("Action", "A")])).unwrap();
        assert_eq!(v, json!({"Action": "A"}));
    }

    #[test]
    fn bad_integer_is_invalid_parameter_value() {
        let err = to_json(&params(&[("MaxNumberOfMessages", "ten")])).unwrap_err();
        assert_eq!(err.kind, crate::error::ErrorKind::InvalidParameterValue);
    }
}
