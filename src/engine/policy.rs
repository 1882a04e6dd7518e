//! AddPermission/RemovePermission as statements of the queue's Policy document.

use serde_json::{json, Value};

use crate::error::{SqsError, SqsResult};

/// The actions AddPermission accepts (without the `SQS:` prefix).
pub const GRANTABLE: &[&str] = &[
    "*",
    "SendMessage",
    "ReceiveMessage",
    "DeleteMessage",
    "ChangeMessageVisibility",
    "GetQueueAttributes",
    "GetQueueUrl",
    "ListDeadLetterSourceQueues",
    "PurgeQueue",
    "ListQueueTags",
    "ListMessageMoveTasks",
    "StartMessageMoveTask",
    "CancelMessageMoveTask",
];

fn label_error(label: &str, reason: &str) -> SqsError {
    SqsError::invalid_value(label, "Label", reason)
}

/// Adds a statement with `Sid = label`; returns the new policy text.
pub fn add(
    policy: Option<&str>,
    queue_arn: &str,
    label: &str,
    accounts: &[String],
    actions: &[String],
) -> SqsResult<String> {
    let label_ok = (1..=80).contains(&label.len())
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !label_ok {
        return Err(label_error(
            label,
            "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
        ));
    }
    if accounts.is_empty() {
        return Err(SqsError::missing("AWSAccountIds"));
    }
    if actions.is_empty() {
        return Err(SqsError::missing("Actions"));
    }
    if let Some(bad) = actions.iter().find(|a| !GRANTABLE.contains(&a.as_str())) {
        return Err(SqsError::invalid_value(
            bad,
            "ActionName",
            "Please refer to the appropriate WSDL for a list of valid actions.",
        ));
    }
    let mut doc = parse(policy, queue_arn);
    let statements = statements_mut(&mut doc);
    if statements.iter().any(|s| s["Sid"] == label) {
        return Err(label_error(label, "Already exists."));
    }
    let principals = one_or_list(accounts.iter().map(|a| format!("arn:aws:iam::{a}:root")));
    let actions = one_or_list(actions.iter().map(|a| format!("SQS:{a}")));
    statements.push(json!({
        "Sid": label,
        "Effect": "Allow",
        "Principal": {"AWS": principals},
        "Action": actions,
        "Resource": queue_arn,
    }));
    Ok(doc.to_string())
}

/// Removes the statement with `Sid = label`; `None` when no statement remains.
pub fn remove(policy: Option<&str>, queue_arn: &str, label: &str) -> SqsResult<Option<String>> {
    let mut doc = parse(policy, queue_arn);
    let statements = statements_mut(&mut doc);
    let before = statements.len();
    statements.retain(|s| s["Sid"] != label);
    if statements.len() == before {
        return Err(label_error(label, "can't find label."));
    }
    Ok((!statements.is_empty()).then(|| doc.to_string()))
}

/// SQS writes a single action (or principal) as a string and several as a list
/// [aws-recorded for the action; the principal follows IAM's same convention, unverified].
fn one_or_list(items: impl Iterator<Item = String>) -> Value {
    let mut list: Vec<Value> = items.map(Value::String).collect();
    if list.len() == 1 {
        list.pop().unwrap_or_default()
    } else {
        Value::Array(list)
    }
}

fn parse(policy: Option<&str>, queue_arn: &str) -> Value {
    policy
        .and_then(|p| serde_json::from_str::<Value>(p).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| {
            json!({"Version": "2012-10-17", "Id": format!("{queue_arn}/SQSDefaultPolicy"), "Statement": []})
        })
}

fn statements_mut(doc: &mut Value) -> &mut Vec<Value> {
    if !doc["Statement"].is_array() {
        doc["Statement"] = Value::Array(Vec::new());
    }
    match &mut doc["Statement"] {
        Value::Array(list) => list,
        _ => unreachable!("Statement was just made an array"),
    }
}
