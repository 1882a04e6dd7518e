//! AWS Query output: the JSON shape of a result written as SQS's flattened XML.

use std::fmt::Write;

use serde_json::{Map, Value};

use crate::sqs::error::{Fault, SqsError};

const NAMESPACE: &str = "http://queue.amazonaws.com/doc/2012-11-05/";

pub use crate::http::xml::escape_into;

/// `<name>`, `</name>`: written directly, not through `fmt`, as they are per element.
fn open(out: &mut String, name: &str) {
    out.push('<');
    out.push_str(name);
    out.push('>');
}

fn close(out: &mut String, name: &str) {
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// `<{action}Response>` with a `<{action}Result>` unless the action has no output (`Null`).
pub fn success(action: &str, request_id: &str, result: &Value) -> String {
    let mut out = String::with_capacity(512);
    let _ = write!(
        out,
        "<?xml version=\"1.0\"?><{action}Response xmlns=\"{NAMESPACE}\">"
    );
    match result {
        // An empty result is one self-closing element, as SQS writes it.
        Value::Object(members) if members.is_empty() => {
            let _ = write!(out, "<{action}Result/>");
        }
        Value::Object(members) => {
            let _ = write!(out, "<{action}Result>");
            write_members(&mut out, action, members);
            let _ = write!(out, "</{action}Result>");
        }
        _ => {}
    }
    let _ = write!(
        out,
        "<ResponseMetadata><RequestId>{request_id}</RequestId></ResponseMetadata></{action}Response>"
    );
    out
}

pub fn error(request_id: &str, err: &SqsError) -> String {
    let fault = match err.kind.fault() {
        Fault::Sender => "Sender",
        Fault::Receiver => "Receiver",
    };
    let mut out = String::with_capacity(256);
    let _ = write!(
        out,
        "<?xml version=\"1.0\"?><ErrorResponse xmlns=\"{NAMESPACE}\"><Error><Type>{fault}</Type><Code>{}</Code><Message>",
        err.kind.query_code()
    );
    escape_into(&mut out, err.query_message());
    let _ = write!(
        out,
        "</Message><Detail/></Error><RequestId>{request_id}</RequestId></ErrorResponse>"
    );
    out
}

fn write_members(out: &mut String, action: &str, members: &Map<String, Value>) {
    for (name, value) in members {
        match (name.as_str(), value) {
            ("Attributes", Value::Object(map)) => write_pairs(out, "Attribute", "Name", map),
            ("Tags", Value::Object(map)) => write_pairs(out, "Tag", "Key", map),
            ("MessageAttributes", Value::Object(map)) => write_message_attributes(out, map),
            ("QueueUrls" | "queueUrls", Value::Array(urls)) => {
                write_repeated(out, action, "QueueUrl", urls);
            }
            ("Messages", Value::Array(items)) => write_repeated(out, action, "Message", items),
            ("Successful" | "Results", Value::Array(items)) => {
                write_repeated(out, action, &format!("{action}ResultEntry"), items);
            }
            ("Failed", Value::Array(items)) => {
                write_repeated(out, action, "BatchResultErrorEntry", items);
            }
            (_, Value::Array(items)) => write_repeated(out, action, name, items),
            _ => write_element(out, action, name, value),
        }
    }
}

fn write_repeated(out: &mut String, action: &str, element: &str, items: &[Value]) {
    for item in items {
        write_element(out, action, element, item);
    }
}

fn write_element(out: &mut String, action: &str, name: &str, value: &Value) {
    open(out, name);
    match value {
        Value::Object(members) => write_members(out, action, members),
        Value::String(s) => escape_into(out, s),
        Value::Null => {}
        other => {
            let _ = write!(out, "{other}");
        }
    }
    close(out, name);
}

fn write_pairs(out: &mut String, element: &str, key: &str, map: &Map<String, Value>) {
    for (k, v) in map {
        open(out, element);
        open(out, key);
        escape_into(out, k);
        close(out, key);
        out.push_str("<Value>");
        escape_into(out, v.as_str().unwrap_or_default());
        out.push_str("</Value>");
        close(out, element);
    }
}

fn write_message_attributes(out: &mut String, map: &Map<String, Value>) {
    for (name, value) in map {
        out.push_str("<MessageAttribute><Name>");
        escape_into(out, name);
        out.push_str("</Name><Value>");
        for member in ["StringValue", "BinaryValue", "DataType"] {
            if let Some(Value::String(s)) = value.get(member) {
                open(out, member);
                escape_into(out, s);
                close(out, member);
            }
        }
        out.push_str("</Value></MessageAttribute>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes_quote_and_carriage_return() {
        let mut s = String::new();
        escape_into(&mut s, "a\"b\r\n<&>'");
        assert_eq!(s, "a&quot;b&#xD;\n&lt;&amp;&gt;'");
        let mut s = String::new();
        escape_into(&mut s, "ünï<cödé>😀");
        assert_eq!(s, "ünï&lt;cödé&gt;😀");
        let mut s = String::new();
        escape_into(&mut s, "");
        assert_eq!(s, "");
    }

    #[test]
    fn flattens_lists_and_maps() {
        let xml = success(
            "ReceiveMessage",
            "rid",
            &json!({"Messages": [{"MessageId": "m", "Attributes": {"SenderId": "s"},
                "MessageAttributes": {"Foo": {"DataType": "String", "StringValue": "Bar"}}}]}),
        );
        assert!(xml.contains("<ReceiveMessageResult><Message><MessageId>m</MessageId><Attribute><Name>SenderId</Name><Value>s</Value></Attribute><MessageAttribute><Name>Foo</Name><Value><StringValue>Bar</StringValue><DataType>String</DataType></Value></MessageAttribute></Message></ReceiveMessageResult>"));
        let empty = success("DeleteQueue", "rid", &Value::Null);
        assert!(!empty.contains("Result"));
    }
}
