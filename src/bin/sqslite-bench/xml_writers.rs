//! `sqslite-bench xml-writers`: the hand-written XML writer (src/protocol/xml.rs) against
//! quick-xml writing the same ReceiveMessage and SendMessage responses; both must produce the
//! same bytes, SQS's escaping included (quick-xml's own escaping differs: `'` as `&apos;` and
//! no `&#xD;`, so its text goes through our escaper as already-escaped text).

use std::time::Instant;

use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;
use serde_json::{json, Map, Value};
use sqslite::protocol::xml;

pub fn run() {
    let body = "a \"quoted\"\r\nline & <tag> ".repeat(40);
    let message = json!({
        "MessageId": "5fea7756-0ea4-451a-a703-a558b933e274",
        "ReceiptHandle": "AQEBexampleexampleexampleexampleexampleexample==",
        "MD5OfBody": "6e2baaf3b97dbeef01c0043275f9a0e7",
        "Body": body,
        "Attributes": {"SenderId": "AIDAEXAMPLE", "SentTimestamp": "1700000000000"},
    });
    let receive = json!({ "Messages": vec![message; 10] });
    let send = json!({
        "MessageId": "5fea7756-0ea4-451a-a703-a558b933e274",
        "MD5OfMessageBody": "6e2baaf3b97dbeef01c0043275f9a0e7",
    });
    for (action, value, rounds) in [
        ("ReceiveMessage", &receive, 20_000),
        ("SendMessage", &send, 500_000),
    ] {
        let ours = xml::success(action, "rid", value);
        let theirs = quick(action, "rid", value);
        assert_eq!(ours, theirs, "both writers write the same bytes");
        let hand = time(rounds, || xml::success(action, "rid", value).len());
        let qx = time(rounds, || quick(action, "rid", value).len());
        println!(
            "{{\"writer_comparison\":\"{action}\",\"bytes\":{},\"hand_ns\":{hand:.0},\"quick_xml_ns\":{qx:.0},\"quick_xml_over_hand\":{:.2}}}",
            ours.len(),
            qx / hand
        );
    }
}

/// Nanoseconds per call, the best of three batches.
fn time(rounds: u32, mut f: impl FnMut() -> usize) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let started = Instant::now();
        let mut sink = 0;
        for _ in 0..rounds {
            sink += f();
        }
        std::hint::black_box(sink);
        best = best.min(started.elapsed().as_nanos() as f64 / f64::from(rounds));
    }
    best
}

fn quick(action: &str, request_id: &str, result: &Value) -> String {
    let mut w = Writer::new(Vec::with_capacity(512));
    let response = format!("{action}Response");
    let mut start = BytesStart::new(response.as_str());
    start.push_attribute(("xmlns", "http://queue.amazonaws.com/doc/2012-11-05/"));
    w.get_mut().extend_from_slice(b"<?xml version=\"1.0\"?>");
    let _ = w.write_event(Event::Start(start));
    if let Value::Object(members) = result {
        let name = format!("{action}Result");
        element(&mut w, &name, |w| write_members(w, members));
    }
    element(&mut w, "ResponseMetadata", |w| {
        text_element(w, "RequestId", request_id);
    });
    let _ = w.write_event(Event::End(BytesEnd::new(response.as_str())));
    String::from_utf8(w.into_inner()).unwrap_or_default()
}

fn element(w: &mut Writer<Vec<u8>>, name: &str, inner: impl FnOnce(&mut Writer<Vec<u8>>)) {
    let _ = w.write_event(Event::Start(BytesStart::new(name)));
    inner(w);
    let _ = w.write_event(Event::End(BytesEnd::new(name)));
}

fn text_element(w: &mut Writer<Vec<u8>>, name: &str, text: &str) {
    let mut escaped = String::with_capacity(text.len());
    xml::escape_into(&mut escaped, text);
    element(w, name, |w| {
        let _ = w.write_event(Event::Text(BytesText::from_escaped(escaped)));
    });
}

fn write_members(w: &mut Writer<Vec<u8>>, members: &Map<String, Value>) {
    for (name, value) in members {
        match value {
            Value::Array(items) if name == "Messages" => {
                for item in items {
                    if let Value::Object(m) = item {
                        element(w, "Message", |w| write_members(w, m));
                    }
                }
            }
            Value::Object(map) if name == "Attributes" => {
                for (k, v) in map {
                    element(w, "Attribute", |w| {
                        text_element(w, "Name", k);
                        text_element(w, "Value", v.as_str().unwrap_or_default());
                    });
                }
            }
            Value::String(s) => text_element(w, name, s),
            other => text_element(w, name, &other.to_string()),
        }
    }
}
