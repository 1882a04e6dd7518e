//! AddPermission and RemovePermission for topics: statements of the topic's Policy, labelled
//! by their Sid, granting accounts `SNS:` actions on the topic.

use serde::Deserialize;
use serde_json::{json, Value};

use super::access::Resource;
use super::wire::{required, topic_arn};
use super::{in_region, Decode};
use crate::http::Context;
use crate::sns::error::{SnsError, SnsResult};
use crate::sns::protocol::xml::Xml;
use crate::sns::Service;

/// The actions AddPermission grants on a topic (SNS API reference, AddPermission).
pub const GRANTABLE: &[&str] = &[
    "AddPermission",
    "DeleteTopic",
    "GetTopicAttributes",
    "ListSubscriptionsByTopic",
    "Publish",
    "RemovePermission",
    "SetTopicAttributes",
    "Subscribe",
];

/// AddPermission's input.
#[derive(Debug)]
pub struct AddPermission {
    /// TopicArn: the topic whose policy gains the statement.
    topic_arn: String,
    /// Label: the statement's Sid, unique in the policy.
    label: String,
    /// AWSAccountId.member.N: the accounts granted the actions.
    accounts: Vec<String>,
    /// ActionName.member.N: SNS action names (`Publish`, `Subscribe`...).
    actions: Vec<String>,
}

/// AddPermission as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct AddPermissionWire {
    /// TopicArn: the topic whose policy gains the statement.
    topic_arn: Option<String>,
    /// Label: required, after the ARN.
    label: Option<String>,
    /// AWSAccountId.member.N: the accounts granted the actions.
    #[serde(rename = "AWSAccountId", default)]
    accounts: Vec<String>,
    /// ActionName.member.N: SNS action names.
    #[serde(rename = "ActionName", default)]
    actions: Vec<String>,
}

impl Decode for AddPermission {
    type Wire = AddPermissionWire;

    fn check(wire: AddPermissionWire) -> SnsResult<Self> {
        Ok(AddPermission {
            topic_arn: topic_arn(wire.topic_arn, "TopicArn")?,
            label: required(wire.label, "Label")?,
            accounts: wire.accounts,
            actions: wire.actions,
        })
    }
}

impl Resource for AddPermission {
    fn resource(&self) -> Option<&str> {
        Some(&self.topic_arn)
    }
}

/// The refusals' wording is sqslite's \[unverified\] but for `Statement already exists`
/// and an action out of SNS's scope (recorded).
pub async fn add_permission(input: AddPermission, app: &Service, ctx: &Context) -> SnsResult<Xml> {
    in_region(ctx, &input.topic_arn)?;
    if input.accounts.is_empty() {
        return Err(SnsError::missing("AWSAccountId"));
    }
    if input.actions.is_empty() {
        return Err(SnsError::missing("ActionName"));
    }
    // Recorded (LocalStack's AWS-validated test_add_permission_errors, 2025-12); the same
    // words answer `SNS:*` in a topic Policy.
    if input
        .actions
        .iter()
        .any(|a| !GRANTABLE.contains(&a.as_str()))
    {
        return Err(SnsError::invalid(
            "Policy statement action out of service scope!",
        ));
    }
    let principals = input
        .accounts
        .iter()
        .map(|a| format!("arn:aws:iam::{a}:root"));
    let actions = input.actions.iter().map(|a| format!("SNS:{a}"));
    let statement = json!({
        "Sid": input.label,
        "Effect": "Allow",
        "Principal": {"AWS": one_or_list(principals)},
        "Action": one_or_list(actions),
        "Resource": input.topic_arn,
    });
    app.topics.edit_policy(&input.topic_arn, |text| {
        let mut doc = document(text);
        let mut statements = take(&mut doc);
        if statements.iter().any(|s| s["Sid"] == input.label.as_str()) {
            return Err(SnsError::invalid("Statement already exists"));
        }
        statements.push(statement);
        Ok(put(doc, statements))
    })?;
    Ok(Xml::default())
}

/// RemovePermission's input.
#[derive(Debug)]
pub struct RemovePermission {
    /// TopicArn: the topic whose policy loses the statement.
    topic_arn: String,
    /// Label: the Sid of the statement to remove.
    label: String,
}

/// RemovePermission as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct RemovePermissionWire {
    /// TopicArn: the topic whose policy loses the statement.
    topic_arn: Option<String>,
    /// Label: required, after the ARN.
    label: Option<String>,
}

impl Decode for RemovePermission {
    type Wire = RemovePermissionWire;

    fn check(wire: RemovePermissionWire) -> SnsResult<Self> {
        Ok(RemovePermission {
            topic_arn: topic_arn(wire.topic_arn, "TopicArn")?,
            label: required(wire.label, "Label")?,
        })
    }
}

impl Resource for RemovePermission {
    fn resource(&self) -> Option<&str> {
        Some(&self.topic_arn)
    }
}

/// RemovePermission: removes the statement with the label.
pub async fn remove_permission(
    input: RemovePermission,
    app: &Service,
    ctx: &Context,
) -> SnsResult<Xml> {
    in_region(ctx, &input.topic_arn)?;
    app.topics.edit_policy(&input.topic_arn, |text| {
        let mut doc = document(text);
        let mut statements = take(&mut doc);
        let before = statements.len();
        statements.retain(|s| s["Sid"] != input.label.as_str());
        if statements.len() == before {
            return Err(SnsError::invalid("Statement doesn't exist"));
        }
        Ok(put(doc, statements))
    })?;
    Ok(Xml::default())
}

/// A single value as a plain string, more as a list, as SNS writes a statement (recorded:
/// `"Action": "SNS:Publish"`, `"Principal": {"AWS": "arn:aws:iam::…:root"}`).
fn one_or_list(values: impl Iterator<Item = String>) -> Value {
    let mut values: Vec<Value> = values.map(Value::String).collect();
    if values.len() == 1 {
        values.remove(0)
    } else {
        Value::Array(values)
    }
}

/// The topic's policy document, or an empty one when it has none.
fn document(text: &str) -> Value {
    serde_json::from_str::<Value>(text)
        .ok()
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({"Version": "2008-10-17", "Statement": []}))
}

/// The document's statements taken out as a list (a single statement object becomes one);
/// [`put`] puts them back.
fn take(doc: &mut Value) -> Vec<Value> {
    match doc["Statement"].take() {
        Value::Array(list) => list,
        Value::Null => Vec::new(),
        one => vec![one],
    }
}

/// The document with `statements` as its Statement, as text.
fn put(mut doc: Value, statements: Vec<Value>) -> String {
    doc["Statement"] = Value::Array(statements);
    doc.to_string()
}
