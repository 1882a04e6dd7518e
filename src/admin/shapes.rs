//! Dead letters grouped for a person deciding whether to redrive: by the queue they came from
//! and by the shape of their body, so "18 messages, all `{id, total}` missing `customer`" or
//! "all `invalid JSON`" shows at a glance. Pure functions; `dead_letters` reads one queue.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::inspect::{find, state_of};
use super::{ok, Answer};
use crate::app::App;
use crate::sqs::engine::arn;

/// Longest text kept as the "error prefix" of a plain-text body.
const PREFIX_CHARS: usize = 48;
/// How many message ids and how much of a sample body each group shows.
const IDS_PER_GROUP: usize = 5;
const SAMPLE_CHARS: usize = 300;

/// The shape of a body: what messages that fail the same way have in common.
///
/// - a JSON object: its sorted top-level keys, `{"id", "total"}`;
/// - other JSON: its type, `JSON array`;
/// - text that looks like JSON but does not parse: `invalid JSON: <what serde saw>`, without
///   the line and column (they differ between bodies that are broken the same way);
/// - other text: its first line up to the first `:` (or 48 characters), digits as `#`, so
///   `Error 4021: timeout` and `Error 4022: timeout` group together.
pub fn shape(body: &str) -> String {
    let trimmed = body.trim_start();
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(map)) => {
            let mut keys: Vec<String> = map.keys().map(|k| format!("{k:?}")).collect();
            keys.sort();
            format!("{{{}}}", keys.join(", "))
        }
        Ok(Value::Array(_)) => "JSON array".into(),
        Ok(Value::String(_)) => "JSON string".into(),
        Ok(Value::Number(_)) => "JSON number".into(),
        Ok(Value::Bool(_)) => "JSON boolean".into(),
        Ok(Value::Null) => "JSON null".into(),
        Err(e) if trimmed.starts_with(['{', '[']) => {
            let what = e.to_string();
            let what = what.split(" at line ").next().unwrap_or(&what);
            format!("invalid JSON: {what}")
        }
        Err(_) => text_prefix(trimmed),
    }
}

fn text_prefix(body: &str) -> String {
    if body.is_empty() {
        return "empty body".into();
    }
    let line = body.lines().next().unwrap_or_default();
    let cut = line
        .char_indices()
        .find(|&(_, c)| c == ':')
        .map_or(line.len(), |(i, _)| i + 1);
    let kept = &line[..cut];
    let head: String = kept.chars().take(PREFIX_CHARS).collect();
    let masked: String = head
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect();
    let more = if head.len() < kept.len() { "…" } else { "" };
    format!("text: {}{more}", masked.trim_end())
}

/// One group of messages: a key, how many, the first few ids and one sample body.
#[derive(Default)]
struct Group {
    count: usize,
    ids: Vec<String>,
    sample: String,
}

impl Group {
    fn add(&mut self, id: &str, body: &str) {
        if self.count == 0 {
            self.sample = body.chars().take(SAMPLE_CHARS).collect();
        }
        self.count += 1;
        if self.ids.len() < IDS_PER_GROUP {
            self.ids.push(id.to_owned());
        }
    }
}

/// Groups `(id, source queue, body)` triples both ways, largest groups first.
pub fn group<'a>(messages: impl IntoIterator<Item = (&'a str, Option<String>, &'a str)>) -> Value {
    let mut by_source: BTreeMap<String, Group> = BTreeMap::new();
    let mut by_shape: BTreeMap<String, Group> = BTreeMap::new();
    let mut total = 0;
    for (id, source, body) in messages {
        total += 1;
        let source = source.unwrap_or_else(|| "(sent to this queue directly)".into());
        by_source.entry(source).or_default().add(id, body);
        by_shape.entry(shape(body)).or_default().add(id, body);
    }
    json!({
        "total": total,
        "by_source": render(by_source, "source_queue"),
        "by_shape": render(by_shape, "shape"),
    })
}

fn render(groups: BTreeMap<String, Group>, key: &str) -> Vec<Value> {
    let mut list: Vec<(String, Group)> = groups.into_iter().collect();
    list.sort_by(|a, b| b.1.count.cmp(&a.1.count).then_with(|| a.0.cmp(&b.0)));
    list.into_iter()
        .map(|(k, g)| json!({key: k, "count": g.count, "message_ids": g.ids, "sample_body": g.sample}))
        .collect()
}

/// `GET /_sqslite/queues/<name>/dead-letters`: the queue's messages grouped, without touching
/// them; any queue works, a dead-letter queue is the one it is for.
pub fn dead_letters(app: &App, name: &str, params: &[(String, String)]) -> Answer {
    let q = find(app, name, params)?;
    let now = app.now();
    let state = q.lock_settled(now);
    let triples: Vec<(String, Option<String>, String, &'static str)> = state
        .store()
        .iter()
        .map(|(_, m)| {
            let source = m
                .dead_letter_source_arn()
                .and_then(arn::parse)
                .map(|k| k.name);
            (
                m.id.to_string(),
                source,
                m.body.to_string(),
                state_of(m, now),
            )
        })
        .collect();
    drop(state);
    let in_flight = triples.iter().filter(|t| t.3 == "in_flight").count();
    let mut answer = group(
        triples
            .iter()
            .map(|(id, s, b, _)| (id.as_str(), s.clone(), b.as_str())),
    );
    answer["queue"] = json!(q.key.name);
    answer["in_flight"] = json!(in_flight);
    Ok(ok(&answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_objects_group_by_their_sorted_top_level_keys() {
        assert_eq!(shape(r#"{"total": 3, "id": 1}"#), r#"{"id", "total"}"#);
        assert_eq!(
            shape(r#" {"id": 2, "total": {"x": 1}}"#),
            r#"{"id", "total"}"#
        );
        assert_eq!(shape("{}"), "{}");
        assert_eq!(shape("[1, 2]"), "JSON array");
        assert_eq!(shape("42"), "JSON number");
    }

    #[test]
    fn broken_json_groups_by_the_error_without_its_position() {
        let a = shape(r#"{"drill":"poison","run":"a1",<<malformed"#);
        let b = shape(r#"{"drill":"poison","run":"b22222",<<malformed"#);
        assert_eq!(a, b);
        assert!(a.starts_with("invalid JSON: key must be a string"), "{a}");
        assert!(!a.contains("line"), "{a}");
    }

    #[test]
    fn text_groups_by_its_prefix_with_digits_masked() {
        assert_eq!(shape("Error 4021: timeout after 30s"), "text: Error ####:");
        assert_eq!(shape("Error 4022: other"), shape("Error 4021: timeout"));
        assert_eq!(shape(""), "empty body");
        let long = "x".repeat(100);
        assert_eq!(shape(&long), format!("text: {}…", "x".repeat(48)));
        assert_eq!(shape("hello"), "text: hello");
    }

    #[test]
    fn groups_are_counted_both_ways_largest_first() {
        let g = group([
            ("1", Some("orders".into()), r#"{"id":1}"#),
            ("2", Some("orders".into()), "oops"),
            ("3", Some("billing".into()), r#"{"id":2}"#),
            ("4", None, r#"{"id":3}"#),
        ]);
        assert_eq!(g["total"], 4);
        assert_eq!(g["by_source"][0]["source_queue"], "orders");
        assert_eq!(g["by_source"][0]["count"], 2);
        assert_eq!(g["by_source"].as_array().unwrap().len(), 3);
        assert_eq!(g["by_shape"][0]["shape"], r#"{"id"}"#);
        assert_eq!(g["by_shape"][0]["count"], 3);
        assert_eq!(g["by_shape"][0]["message_ids"], json!(["1", "3", "4"]));
        assert_eq!(g["by_shape"][0]["sample_body"], r#"{"id":1}"#);
        assert_eq!(g["by_shape"][1]["shape"], "text: oops");
    }
}
