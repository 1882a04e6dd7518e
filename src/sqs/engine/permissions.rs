//! AddPermission/RemovePermission as statements of the queue's Policy document.

use serde_json::{json, Value};

use crate::policy::{Policy, MAX_ACTIONS, MAX_PRINCIPALS, MAX_STATEMENTS};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

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

/// InvalidParameterValue for a bad AddPermission Label.
fn label_error(label: &str, reason: &str) -> SqsError {
    SqsError::invalid_value(label, "Label", reason)
}

/// AddPermission answers OverLimit when "the maximum number of permissions for the queue is
/// reached" (SQS API Reference, AddPermission); the policy quotas say what that maximum is.
fn over_limit() -> SqsError {
    SqsError::of(ErrorKind::OverLimit)
}

/// Adds a statement with `Sid = label`; returns the new policy.
pub fn add(
    policy: Option<&Policy>,
    queue_arn: &str,
    label: &str,
    accounts: &[String],
    actions: &[String],
) -> SqsResult<Policy> {
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
    if policy.is_some_and(|p| p.sids().any(|s| s == label)) {
        return Err(label_error(label, "Already exists."));
    }
    if actions.len() > MAX_ACTIONS || accounts.len() > MAX_PRINCIPALS {
        return Err(over_limit());
    }
    let mut doc = document(policy, queue_arn);
    let statements = statements_mut(&mut doc);
    if statements.len() >= MAX_STATEMENTS {
        return Err(over_limit());
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
    // What is left (the document's size, its principals in all) is a quota too.
    Policy::parse(&doc.to_string()).map_err(|_| over_limit())
}

/// Removes the statement with `Sid = label`; `None` when no statement remains.
pub fn remove(policy: Option<&Policy>, queue_arn: &str, label: &str) -> SqsResult<Option<Policy>> {
    if !policy.is_some_and(|p| p.sids().any(|s| s == label)) {
        return Err(label_error(label, "can't find label."));
    }
    let mut doc = document(policy, queue_arn);
    let statements = statements_mut(&mut doc);
    statements.retain(|s| s["Sid"] != label);
    if statements.is_empty() {
        return Ok(None);
    }
    Ok(Some(Policy::parse(&doc.to_string())?))
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

/// The current document, or the one SQS starts [aws-recorded]: Version 2008-10-17 and the
/// queue's `/SQSDefaultPolicy` Id.
fn document(policy: Option<&Policy>, queue_arn: &str) -> Value {
    policy
        .and_then(|p| serde_json::from_str::<Value>(p.text()).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| {
            json!({"Version": "2008-10-17", "Id": format!("{queue_arn}/SQSDefaultPolicy"), "Statement": []})
        })
}

/// The document's statements as a list, a single statement object made one.
fn statements_mut(doc: &mut Value) -> &mut Vec<Value> {
    if let Value::Object(one) = &doc["Statement"] {
        doc["Statement"] = Value::Array(vec![Value::Object(one.clone())]);
    }
    if !doc["Statement"].is_array() {
        doc["Statement"] = Value::Array(Vec::new());
    }
    match &mut doc["Statement"] {
        Value::Array(list) => list,
        _ => unreachable!("Statement was just made an array"),
    }
}

/// The operations SQS never grants to another account, whatever the policy says (SQS
/// Developer Guide, "Limitations of Amazon SQS custom policies").
pub const OWNER_ONLY: &[&str] = &[
    "AddPermission",
    "CancelMessageMoveTask",
    "CreateQueue",
    "DeleteQueue",
    "ListMessageMoveTasks",
    "ListQueues",
    "ListQueueTags",
    "RemovePermission",
    "SetQueueAttributes",
    "StartMessageMoveTask",
    "TagQueue",
    "UntagQueue",
];
