//! A function's answer to a batch under `ReportBatchItemFailures`: which records failed.
//!
//! The Lambda guide (services-sqs-errorhandling, "Success and failure conditions") counts a
//! batch a complete success for an empty or null `batchItemFailures` list and an empty or
//! null response, and a complete failure for an empty or null `itemIdentifier`, a bad key
//! name, or an identifier naming no message of the batch.

use std::collections::HashSet;

use serde_json::Value;

/// What to do with a batch after the function answered without an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Delete every record.
    Success,
    /// Delete every record but these (message ids).
    Partial(HashSet<String>),
    /// Delete nothing: the response was invalid (the reason is logged).
    Invalid(String),
}

/// Reads the response `body` against the batch's message ids.
pub fn verdict<S: std::hash::BuildHasher>(body: &str, ids: &HashSet<&str, S>) -> Verdict {
    let body = body.trim();
    if body.is_empty() {
        return Verdict::Success;
    }
    let parsed: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        // A response that is not JSON cannot name failures [unverified: Lambda's handling].
        Err(e) => return Verdict::Invalid(format!("the response is not JSON: {e}")),
    };
    let failures = match &parsed {
        Value::Null => return Verdict::Success,
        Value::Object(map) => match map.get("batchItemFailures") {
            None | Some(Value::Null) => return Verdict::Success,
            Some(Value::Array(items)) => items,
            Some(_) => return Verdict::Invalid("batchItemFailures is not a list".into()),
        },
        // [unverified] a scalar or list answer is taken as invalid, not as success.
        _ => return Verdict::Invalid("the response is not a JSON object".into()),
    };
    let mut failed = HashSet::new();
    for item in failures {
        match item.get("itemIdentifier") {
            Some(Value::String(id)) if !id.is_empty() && ids.contains(id.as_str()) => {
                failed.insert(id.clone());
            }
            Some(Value::String(id)) if !id.is_empty() => {
                return Verdict::Invalid(format!(
                    "itemIdentifier {id} names no message of the batch"
                ));
            }
            _ => return Verdict::Invalid(format!("invalid batch item failure {item}")),
        }
    }
    if failed.is_empty() {
        Verdict::Success
    } else {
        Verdict::Partial(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids() -> HashSet<&'static str> {
        ["a", "b"].into_iter().collect()
    }

    #[test]
    fn empty_and_null_answers_are_success() {
        for body in [
            "",
            "null",
            "{}",
            r#"{"batchItemFailures":[]}"#,
            r#"{"batchItemFailures":null}"#,
        ] {
            assert_eq!(verdict(body, &ids()), Verdict::Success, "{body}");
        }
    }

    #[test]
    fn named_failures_are_partial() {
        let v = verdict(r#"{"batchItemFailures":[{"itemIdentifier":"b"}]}"#, &ids());
        assert_eq!(v, Verdict::Partial(["b".to_owned()].into_iter().collect()));
    }

    #[test]
    fn malformed_answers_fail_the_batch() {
        for body in [
            r#"{"batchItemFailures":[{"itemIdentifier":""}]}"#,
            r#"{"batchItemFailures":[{"itemIdentifier":null}]}"#,
            r#"{"batchItemFailures":[{"itemId":"a"}]}"#,
            r#"{"batchItemFailures":[{"itemIdentifier":"zz"}]}"#,
            r#"{"batchItemFailures":"a"}"#,
            "not json",
            "[1]",
        ] {
            assert!(
                matches!(verdict(body, &ids()), Verdict::Invalid(_)),
                "{body}"
            );
        }
    }
}
