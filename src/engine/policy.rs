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

/// Who asks, as a queue policy sees them.
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    pub account: &'a str,
    /// `arn:aws:iam::<account>:root` or `…:user/<name>`.
    pub arn: &'a str,
}

/// What a queue's policy says to one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Allow,
    /// Another account, and no statement allows it (or the action is never cross-account).
    NotAllowed,
    /// A Deny statement matches: it binds everyone, the queue's own account included.
    ExplicitDeny,
}

/// The operations SQS never grants to another account, whatever the policy says (SQS
/// Developer Guide, "Limitations of Amazon SQS custom policies").
const OWNER_ONLY: &[&str] = &[
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

/// The IAM action an operation is authorized as: batches count as their single form.
pub fn iam_action(operation: &str) -> &str {
    operation.strip_suffix("Batch").unwrap_or(operation)
}

/// Evaluates `operation` by `caller` on the queue `queue_arn` owned by `owner`, as IAM does
/// for a resource policy: an explicit Deny wins; the owner's account is otherwise allowed
/// (sqslite has no identity policies, so its keys may do anything in their own account);
/// another account needs an Allow statement naming it. Statements with a `Condition` are
/// skipped: sqslite cannot evaluate conditions (chosen without an AWS source).
pub fn evaluate(
    policy: Option<&str>,
    queue_arn: &str,
    owner: &str,
    caller: Caller<'_>,
    operation: &str,
) -> Decision {
    let action = iam_action(operation);
    let statements: Vec<Value> = policy
        .and_then(|p| serde_json::from_str::<Value>(p).ok())
        .map(|doc| match &doc["Statement"] {
            Value::Array(list) => list.clone(),
            one @ Value::Object(_) => vec![one.clone()],
            _ => Vec::new(),
        })
        .unwrap_or_default();
    let applies = |s: &&Value| {
        s.get("Condition").is_none()
            && principal_matches(s, caller)
            && listed(s, "Action", "NotAction", |p| action_matches(p, action))
            && listed(s, "Resource", "NotResource", |p| {
                wildcard(p, queue_arn, false)
            })
    };
    let effect = |s: &&Value, e: &str| s["Effect"].as_str() == Some(e);
    if statements
        .iter()
        .filter(applies)
        .any(|s| effect(&s, "Deny"))
    {
        return Decision::ExplicitDeny;
    }
    if caller.account == owner {
        return Decision::Allow;
    }
    if OWNER_ONLY.contains(&operation) {
        return Decision::NotAllowed;
    }
    if statements
        .iter()
        .filter(applies)
        .any(|s| effect(&s, "Allow"))
    {
        Decision::Allow
    } else {
        Decision::NotAllowed
    }
}

/// The strings of a policy element that may be one string or a list.
fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// `key` (one pattern matches) or its negation `not_key` (none matches); a statement with
/// neither matches everything.
fn listed(s: &Value, key: &str, not_key: &str, matches: impl Fn(&str) -> bool) -> bool {
    if let Some(v) = s.get(key) {
        strings(v).into_iter().any(&matches)
    } else if let Some(v) = s.get(not_key) {
        !strings(v).into_iter().any(&matches)
    } else {
        true
    }
}

fn principal_matches(s: &Value, caller: Caller<'_>) -> bool {
    let names = |v: &Value| -> Vec<String> {
        match v {
            Value::Object(map) => map.get("AWS").map(strings).unwrap_or_default(),
            other => strings(other),
        }
        .into_iter()
        .map(str::to_owned)
        .collect()
    };
    let is_caller = |p: &String| {
        p == "*"
            || p == caller.account
            || p == caller.arn
            || *p == format!("arn:aws:iam::{}:root", caller.account)
    };
    if let Some(v) = s.get("Principal") {
        names(v).iter().any(is_caller)
    } else if let Some(v) = s.get("NotPrincipal") {
        !names(v).iter().any(is_caller)
    } else {
        false
    }
}

/// `sqs:Send*`, `SQS:SendMessage`, `*`: the service prefix and the name are case-insensitive.
fn action_matches(pattern: &str, action: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    match pattern.split_once(':') {
        Some((service, name)) if service.eq_ignore_ascii_case("sqs") => {
            wildcard(name, action, true)
        }
        _ => false,
    }
}

/// IAM's `*` (any run) and `?` (any one character) matching.
fn wildcard(pattern: &str, text: &str, ignore_case: bool) -> bool {
    let eq = |a: u8, b: u8| {
        if ignore_case {
            a.eq_ignore_ascii_case(&b)
        } else {
            a == b
        }
    };
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == b'?' || (p[pi] != b'*' && eq(p[pi], t[ti]))) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARN: &str = "arn:aws:sqs:us-east-1:111111111111:q";
    const OWNER: &str = "111111111111";
    const OTHER: Caller = Caller {
        account: "222222222222",
        arn: "arn:aws:iam::222222222222:user/ci",
    };

    fn doc(statements: &str) -> String {
        format!(r#"{{"Version":"2012-10-17","Statement":{statements}}}"#)
    }

    #[test]
    fn another_account_needs_an_allow() {
        let eval = |p: Option<&str>, op| evaluate(p, ARN, OWNER, OTHER, op);
        assert_eq!(eval(None, "SendMessage"), Decision::NotAllowed);
        for principal in [
            r#""*""#,
            r#"{"AWS":"222222222222"}"#,
            r#"{"AWS":["x","arn:aws:iam::222222222222:root"]}"#,
            r#"{"AWS":"arn:aws:iam::222222222222:user/ci"}"#,
        ] {
            let p = doc(&format!(
                r#"[{{"Effect":"Allow","Principal":{principal},"Action":"sqs:Send*","Resource":"{ARN}"}}]"#
            ));
            assert_eq!(
                eval(Some(&p), "SendMessageBatch"),
                Decision::Allow,
                "{principal}"
            );
            assert_eq!(eval(Some(&p), "ReceiveMessage"), Decision::NotAllowed);
            assert_eq!(eval(Some(&p), "SetQueueAttributes"), Decision::NotAllowed);
        }
        let user = doc(
            r#"{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::222222222222:user/other"},"Action":"*","Resource":"*"}"#,
        );
        assert_eq!(eval(Some(&user), "SendMessage"), Decision::NotAllowed);
        let wrong_queue = doc(
            r#"[{"Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"arn:aws:sqs:*:*:other"}]"#,
        );
        assert_eq!(
            eval(Some(&wrong_queue), "SendMessage"),
            Decision::NotAllowed
        );
    }

    #[test]
    fn deny_wins_and_binds_the_owner() {
        let p = doc(
            r#"[{"Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"*"},
                {"Effect":"Deny","Principal":{"AWS":"*"},"Action":["sqs:PurgeQueue","sqs:Delete*"],"Resource":"arn:aws:sqs:*:111111111111:*"}]"#,
        );
        let owner = Caller {
            account: OWNER,
            arn: "arn:aws:iam::111111111111:root",
        };
        for caller in [OTHER, owner] {
            assert_eq!(
                evaluate(Some(&p), ARN, OWNER, caller, "PurgeQueue"),
                Decision::ExplicitDeny
            );
            assert_eq!(
                evaluate(Some(&p), ARN, OWNER, caller, "DeleteMessageBatch"),
                Decision::ExplicitDeny
            );
            assert_eq!(
                evaluate(Some(&p), ARN, OWNER, caller, "ReceiveMessage"),
                Decision::Allow
            );
        }
        let conditional = doc(
            r#"[{"Effect":"Deny","Principal":"*","Action":"*","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]"#,
        );
        assert_eq!(
            evaluate(Some(&conditional), ARN, OWNER, owner, "SendMessage"),
            Decision::Allow
        );
    }

    #[test]
    fn wildcards() {
        assert!(wildcard("a*c?e", "abbbcde", false));
        assert!(wildcard("*", "", false));
        assert!(!wildcard("a*c", "abd", false));
        assert!(action_matches("SQS:sendmessage", "SendMessage"));
        assert!(!action_matches("sns:Publish", "SendMessage"));
    }
}
