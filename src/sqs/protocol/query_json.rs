//! AWS Query answered as JSON: a Query request (GET or POST) with `Accept: application/json`
//! gets the Query response's shape as JSON, as SQS does, e.g.
//! `{"ListQueuesResponse": {"ListQueuesResult": {...}, "ResponseMetadata": {"RequestId": ...}}}`.
//!
//! Recorded from SQS (responses relayed by API Gateway integrations): members in alphabetical
//! order; SendMessage's result and each received message list every member, `null` when
//! absent; ReceiveMessage's list is `messages` (lowercase), `null` when empty;
//! GetQueueAttributes lists `{"Name", "Value"}` objects as the XML does; errors are
//! `{"Error": {"Code", "Message", "Type"}, "RequestId"}`. The other results keep the JSON
//! protocol's members (chosen: no recording of them was found).

use serde_json::{json, Map, Value};

use crate::sqs::error::{Fault, SqsError};

/// Members SQS writes as `null` when absent, per action result.
const NULLABLE: &[(&str, &[&str])] = &[(
    "SendMessage",
    &[
        "MD5OfMessageAttributes",
        "MD5OfMessageBody",
        "MD5OfMessageSystemAttributes",
        "MessageId",
        "SequenceNumber",
    ],
)];

/// A received message's members, each present (`null` when absent).
const MESSAGE_MEMBERS: &[&str] = &[
    "Attributes",
    "Body",
    "MD5OfBody",
    "MD5OfMessageAttributes",
    "MessageAttributes",
    "MessageId",
    "ReceiptHandle",
];

/// The success body: `output` is the action's result in the JSON protocol's shape (`Null`
/// for actions without one).
pub fn success(action: &str, request_id: &str, output: Value) -> Vec<u8> {
    let mut response = Map::new();
    if let Value::Object(result) = output {
        let result = match action {
            "ReceiveMessage" => receive_result(result),
            "GetQueueAttributes" => attribute_list(result),
            _ => with_nulls(result, action),
        };
        response.insert(format!("{action}Result"), Value::Object(result));
    }
    response.insert(
        "ResponseMetadata".to_owned(),
        json!({ "RequestId": request_id }),
    );
    response.sort_keys();
    let mut body = Map::new();
    body.insert(format!("{action}Response"), Value::Object(response));
    Value::Object(body).to_string().into_bytes()
}

pub fn error(request_id: &str, err: &SqsError) -> Vec<u8> {
    let fault = match err.kind.fault() {
        Fault::Sender => "Sender",
        Fault::Receiver => "Receiver",
    };
    json!({
        "Error": {
            "Code": err.kind.query_code(),
            "Message": err.query_message(),
            "Type": fault,
        },
        "RequestId": request_id,
    })
    .to_string()
    .into_bytes()
}

fn with_nulls(mut result: Map<String, Value>, action: &str) -> Map<String, Value> {
    let members = NULLABLE
        .iter()
        .find(|(a, _)| *a == action)
        .map_or(&[][..], |(_, m)| *m);
    for member in members {
        result.entry(*member).or_insert(Value::Null);
    }
    result.sort_keys();
    result
}

/// GetQueueAttributes keeps the XML's structure: a list of `{"Name", "Value"}` objects, not the
/// JSON protocol's map [aws-validated].
fn attribute_list(mut result: Map<String, Value>) -> Map<String, Value> {
    if let Some(Value::Object(attributes)) = result.remove("Attributes") {
        let list = attributes
            .into_iter()
            .map(|(name, value)| json!({"Name": name, "Value": value}))
            .collect();
        result.insert("Attributes".to_owned(), Value::Array(list));
    }
    result
}

fn receive_result(mut result: Map<String, Value>) -> Map<String, Value> {
    let messages = match result.remove("Messages") {
        Some(Value::Array(items)) => Value::Array(
            items
                .into_iter()
                .map(|m| match m {
                    Value::Object(mut message) => {
                        for member in MESSAGE_MEMBERS {
                            message.entry(*member).or_insert(Value::Null);
                        }
                        message.sort_keys();
                        Value::Object(message)
                    }
                    other => other,
                })
                .collect(),
        ),
        _ => Value::Null,
    };
    result.insert("messages".to_owned(), messages);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_as_recorded() {
        let body = success(
            "SendMessage",
            "r",
            json!({"MessageId": "m", "MD5OfMessageBody": "d"}),
        );
        assert_eq!(
            String::from_utf8(body).unwrap(),
            r#"{"SendMessageResponse":{"ResponseMetadata":{"RequestId":"r"},"SendMessageResult":{"MD5OfMessageAttributes":null,"MD5OfMessageBody":"d","MD5OfMessageSystemAttributes":null,"MessageId":"m","SequenceNumber":null}}}"#
        );
        let empty = success("ReceiveMessage", "r", json!({}));
        assert_eq!(
            String::from_utf8(empty).unwrap(),
            r#"{"ReceiveMessageResponse":{"ReceiveMessageResult":{"messages":null},"ResponseMetadata":{"RequestId":"r"}}}"#
        );
        let none = success("DeleteQueue", "r", Value::Null);
        assert_eq!(
            String::from_utf8(none).unwrap(),
            r#"{"DeleteQueueResponse":{"ResponseMetadata":{"RequestId":"r"}}}"#
        );
    }
}
