//! LocalStack's developer endpoint, for users moving over: `/_aws/sqs/messages?QueueUrl=…`
//! (or `/_aws/sqs/messages/<region>/<account>/<queue>`) lists a queue's messages in the
//! ReceiveMessage shape, JSON or XML per `Accept`, without receiving them.

use hyper::HeaderMap;
use serde_json::{json, Map, Value};

use super::{Answer, Problem};
use crate::app::App;
use crate::sqs::actions::send::WireAttribute;
use crate::sqs::engine::arn::QueueKey;
use crate::sqs::engine::md5;
use crate::sqs::engine::message::Message;
use crate::sqs::protocol::QueueUrls;
use crate::sqs::protocol::{self, Context, Protocol};

/// LocalStack's marker: these handles cannot delete or change anything.
const RECEIPT_HANDLE: &str = "SQS/BACKDOOR/ACCESS";

/// Read as the SQS path reads a QueueUrl (every URL style; a regional host names the region),
/// against the server's defaults; `Region=` overrides.
fn key_of_url(app: &App, url: &str, region: Option<&str>) -> Result<QueueKey, Problem> {
    let ctx = Context::new(
        &app.config.defaults(),
        &HeaderMap::new(),
        None,
        String::new(),
    );
    let mut key = ctx
        .parse_queue_url(url)
        .ok_or_else(|| Problem::bad(format!("`{url}` is not a queue URL")))?;
    if let Some(region) = region {
        region.clone_into(&mut key.region);
    }
    Ok(key)
}

pub fn messages(app: &App, rest: &[&str], params: &[(String, String)], accept: &str) -> Answer {
    let param = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let flag = |k: &str| param(k).is_some_and(|v| v.eq_ignore_ascii_case("true"));
    let key = match rest {
        [region, account, name] => QueueKey::new(region, account, name),
        [] => {
            let url = param("QueueUrl")
                .ok_or_else(|| Problem::bad("give the queue as ?QueueUrl=<queue url>"))?;
            key_of_url(app, url, param("Region"))?
        }
        _ => {
            return Err(Problem::bad(
                "use /_aws/sqs/messages/<region>/<account>/<queue>",
            ))
        }
    };
    let queue = app.sqs.registry.get(&key).map_err(|_| {
        Problem(
            hyper::StatusCode::NOT_FOUND,
            format!(
                "no queue `{}` in region {}, account {}",
                key.name, key.region, key.account
            ),
        )
    })?;
    let (show_invisible, show_delayed) = (flag("ShowInvisible"), flag("ShowDelayed"));
    let now = app.now();
    let list: Vec<Value> = {
        let state = queue.lock_settled(now);
        state
            .store()
            .iter()
            .map(|(_, m)| (super::inspect::state_of(m, now), m))
            .filter(|(s, _)| match *s {
                "in_flight" => show_invisible,
                "delayed" => show_delayed,
                _ => true,
            })
            .map(|(s, m)| render(m, s))
            .collect()
    };
    let value = json!({"Messages": list});
    let request_id = uuid::Uuid::new_v4().to_string();
    let wire = if accept.contains("json") {
        Protocol::Json
    } else {
        Protocol::Query
    };
    let rendered = protocol::render(wire, "ReceiveMessage", &request_id, &value);
    Ok(protocol::encode(wire, &request_id, rendered))
}

fn render(m: &Message, state: &str) -> Value {
    let mut attributes = Map::new();
    let mut put = |k: &str, v: String| {
        attributes.insert(k.to_owned(), Value::String(v));
    };
    put("SenderId", m.sender_id.to_string());
    put("SentTimestamp", m.sent_at.to_string());
    put("ApproximateReceiveCount", m.receive_count.to_string());
    if let Some(t) = m.first_received_at {
        put("ApproximateFirstReceiveTimestamp", t.to_string());
    }
    if let Some(g) = &m.group_id {
        put("MessageGroupId", g.to_string());
    }
    if let Some(d) = m.deduplication_id() {
        put("MessageDeduplicationId", d.to_owned());
    }
    if let Some(arn) = m.dead_letter_source_arn() {
        put("DeadLetterQueueSourceArn", arn.to_owned());
    }
    put("IsVisible", (state == "visible").to_string());
    put("IsDelayed", (state == "delayed").to_string());
    let mut out = json!({
        "MessageId": m.id.to_string(),
        "ReceiptHandle": RECEIPT_HANDLE,
        "MD5OfBody": md5::hex(&m.md5_of_body),
        "Body": &*m.body,
        "Attributes": attributes,
    });
    if let Some(attrs) = m.attributes().filter(|a| !a.is_empty()) {
        let wire: Map<String, Value> = attrs
            .iter()
            .map(|(k, v)| (k.clone(), json!(WireAttribute::from_value(v))))
            .collect();
        out["MD5OfMessageAttributes"] = json!(md5::of_attributes(attrs.iter()));
        out["MessageAttributes"] = Value::Object(wire);
    }
    out
}
