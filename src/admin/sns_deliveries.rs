//! `GET /_sqslite/sns/deliveries`: what SNS would have sent where sqslite cannot send it
//! (email, SMS, push, Lambda, Firehose subscriptions, and Publish to a phone number or a
//! platform endpoint), oldest first, the last [`MAX_RECORDS`] kept (at most [`MAX_RECORD_BYTES`] of payload); plus how many HTTP/S
//! POSTs wait for an attempt, so a test can wait on state rather than time.

use serde_json::{json, Value};

use super::ok;
use crate::app::App;
use crate::http::HttpResponse;
use crate::sns::engine::envelope::timestamp;
use crate::sns::engine::outbox::{MAX_RECORDS, MAX_RECORD_BYTES};

pub fn deliveries(app: &App) -> HttpResponse {
    let records: Vec<Value> = app
        .sns
        .topics
        .outbox
        .records()
        .into_iter()
        .map(|r| {
            json!({
                "subscription_arn": r.subscription_arn,
                "protocol": r.protocol,
                "endpoint": r.endpoint,
                "type": r.message_type.as_str(),
                "message_id": r.message_id,
                "payload": &*r.payload,
                "at": r.at,
                "timestamp": timestamp(r.at),
            })
        })
        .collect();
    let (waiting, bytes, in_flight) = app.sns.topics.outbox.waiting();
    ok(&json!({
        "deliveries": records,
        "http_waiting": waiting,
        "http_waiting_bytes": bytes,
        "http_in_flight": in_flight,
        "max_records": MAX_RECORDS,
        "max_record_bytes": MAX_RECORD_BYTES,
    }))
}
