//! The event Lambda sends a function for an SQS batch: `{"Records": [...]}`, one record per
//! message, in the shape of the Lambda developer guide's "Example standard queue message
//! event" and its FIFO counterpart.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Map, Value};

use crate::sqs::engine::delivery::Delivered;
use crate::sqs::engine::md5;
use crate::sqs::engine::message::{self, AttrData, AttrValue};

/// One record and what the poller keeps beside it to settle the message.
#[derive(Debug, Clone)]
pub struct Record {
    /// The record as the function receives it, but for `body`.
    pub json: Value,
    /// The message body.
    pub body: String,
    /// `messageId`, which a partial batch response names.
    pub message_id: String,
    /// The handle that deletes the message.
    pub receipt_handle: String,
    /// The FIFO message group, whose order a failure must not break.
    pub group_id: Option<String>,
}

/// The record of one delivered message from the queue `source_arn` in `region`. The body is
/// kept apart from `json` until [`Record::full`], as a filter reads it apart.
pub fn record(d: &Delivered, source_arn: &str, region: &str) -> Record {
    let m = &d.message;
    let message_id = message::id_text(&m.id);
    let attributes: Map<String, Value> = m
        .system_attributes(d.sequence_number.clone())
        .into_iter()
        .map(|(k, v)| (k.to_owned(), Value::String(v)))
        .collect();
    let user: Vec<_> = m.attributes().into_iter().flatten().collect();
    let message_attributes: Map<String, Value> = user
        .iter()
        .map(|(name, v)| ((*name).clone(), attribute(v)))
        .collect();
    let mut json = json!({
        "messageId": message_id,
        "receiptHandle": d.receipt_handle,
        "attributes": attributes,
        "messageAttributes": message_attributes,
    });
    let obj = json.as_object_mut().expect("a JSON object");
    if let Some(digest) = md5::of_attributes(user.iter().copied()) {
        obj.insert("md5OfMessageAttributes".into(), Value::String(digest));
    }
    obj.insert("md5OfBody".into(), Value::String(md5::hex(&m.md5_of_body)));
    obj.insert("eventSource".into(), Value::String("aws:sqs".into()));
    obj.insert("eventSourceARN".into(), Value::String(source_arn.into()));
    obj.insert("awsRegion".into(), Value::String(region.into()));
    Record {
        json,
        body: m.body.to_string(),
        message_id,
        receipt_handle: d.receipt_handle.clone(),
        group_id: m.group_id.as_deref().map(str::to_owned),
    }
}

impl Record {
    /// The full record, `body` third as Lambda writes it.
    pub fn full(&self) -> Value {
        let mut out = Map::new();
        let mut fields = self.json.as_object().into_iter().flatten();
        for (k, v) in fields.by_ref().take(2) {
            out.insert(k.clone(), v.clone());
        }
        out.insert("body".into(), Value::String(self.body.clone()));
        out.extend(fields.map(|(k, v)| (k.clone(), v.clone())));
        Value::Object(out)
    }
}

/// A message attribute in Lambda's lower-camel shape; the list fields are always empty, as
/// SQS has no list attributes.
fn attribute(v: &AttrValue) -> Value {
    let mut out = Map::new();
    match &v.data {
        AttrData::String(s) => out.insert("stringValue".into(), Value::String(s.clone())),
        AttrData::Binary(b) => out.insert("binaryValue".into(), Value::String(STANDARD.encode(b))),
    };
    out.insert("stringListValues".into(), json!([]));
    out.insert("binaryListValues".into(), json!([]));
    out.insert("dataType".into(), Value::String(v.data_type.clone()));
    Value::Object(out)
}

/// Lambda's payload limit for a synchronous invocation, which an SQS batch's event stays
/// within ("up to the payload limit for synchronous invocation (6 MB)", Lambda API
/// reference, `BatchSize`): 6 MiB, the bytes Lambda's Invoke accepts.
pub const MAX_PAYLOAD_BYTES: usize = 6 * 1024 * 1024;

/// `{"Records":[]}`: the event of no record.
const EMPTY_EVENT_BYTES: usize = 14;

/// The size of the event a batch makes as records join it, as [`event`] then writes it.
#[derive(Debug, Clone, Copy)]
pub struct Payload {
    bytes: usize,
    records: usize,
    cap: usize,
}

impl Payload {
    /// An empty event that may grow to `cap` bytes.
    pub fn new(cap: usize) -> Self {
        Payload {
            bytes: EMPTY_EVENT_BYTES,
            records: 0,
            cap,
        }
    }

    /// Counts `record` in when the event stays within the cap; false leaves it out. A first
    /// record always joins: a batch of one is the least that can carry it.
    pub fn admit(&mut self, record: &Record) -> bool {
        let added = record.full_len() + usize::from(self.records > 0);
        if self.records > 0 && self.bytes + added > self.cap {
            return false;
        }
        self.bytes += added;
        self.records += 1;
        true
    }

    /// The event's size so far.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Record {
    /// The bytes of [`Record::full`] in the event.
    fn full_len(&self) -> usize {
        serde_json::to_vec(&self.full()).map_or(0, |v| v.len())
    }
}

/// The event for a batch of records with their bodies.
pub fn event(records: Vec<Value>) -> Value {
    let mut event = Map::new();
    event.insert("Records".into(), Value::Array(records));
    Value::Object(event)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(n: usize, body_bytes: usize) -> Record {
        Record {
            json: json!({"messageId": format!("m-{n}"), "receiptHandle": "h", "attributes": {}}),
            body: "\"".repeat(body_bytes / 2),
            message_id: format!("m-{n}"),
            receipt_handle: "h".into(),
            group_id: None,
        }
    }

    fn written(records: &[Record]) -> usize {
        event(records.iter().map(Record::full).collect())
            .to_string()
            .len()
    }

    #[test]
    fn the_count_is_the_written_event_s_size() {
        assert_eq!(Payload::new(MAX_PAYLOAD_BYTES).bytes(), written(&[]));
        let mut payload = Payload::new(MAX_PAYLOAD_BYTES);
        let records: Vec<Record> = (0..3).map(|n| record(n, 100 + n)).collect();
        for r in &records {
            assert!(payload.admit(r));
        }
        assert_eq!(payload.bytes(), written(&records));
    }

    #[test]
    fn a_record_that_would_pass_the_cap_is_left_out() {
        // Quotes are escaped, so each 1 MB body writes as 2 MB: the cap counts the JSON.
        let records: Vec<Record> = (0..4).map(|n| record(n, 2_000_000)).collect();
        let mut payload = Payload::new(MAX_PAYLOAD_BYTES);
        let admitted = records.iter().take_while(|r| payload.admit(r)).count();
        assert_eq!(admitted, 3);
        assert!(written(&records[..3]) <= MAX_PAYLOAD_BYTES);
        assert!(written(&records[..4]) > MAX_PAYLOAD_BYTES);
        // Exactly at the cap still fits.
        let mut exact = Payload::new(written(&records[..2]));
        assert!(exact.admit(&records[0]) && exact.admit(&records[1]));
        assert!(!exact.admit(&records[2]));
    }

    #[test]
    fn a_first_record_joins_even_past_the_cap() {
        let mut payload = Payload::new(100);
        assert!(payload.admit(&record(0, 1_000)));
        assert!(!payload.admit(&record(1, 2)));
    }
}
