//! A resource's Policy document, validated once when it is set and kept parsed beside its
//! text.
//!
//! Each service words its refusal of what it cannot use ([`Invalid`]; SQS: InvalidAttributeValue
//! "Invalid value for the parameter Policy.") and has its quotas (SQS's are the default,
//! SQS Developer Guide, "Amazon SQS policy quotas": 8,192 bytes,
//! 20 statements, 7 actions a statement, 50 principals, 10 conditions).

use serde_json::{Map, Value};

use super::conditions::{Condition, Operator};

/// SQS's policy document size limit, in bytes.
pub const MAX_BYTES: usize = 8192;
/// Statements one SQS policy may hold.
pub const MAX_STATEMENTS: usize = 20;
/// Actions one statement of an SQS policy may list.
pub const MAX_ACTIONS: usize = 7;
/// Principals across one SQS policy.
pub const MAX_PRINCIPALS: usize = 50;
/// Conditions across one SQS policy.
pub const MAX_CONDITIONS: usize = 10;

/// The elements a policy document may hold; any other makes it invalid, as in SQS.
const TOP_LEVEL: &[&str] = &["Version", "Id", "Statement"];
/// The elements a statement may hold; any other makes the policy invalid.
const STATEMENT_KEYS: &[&str] = &[
    "Sid",
    "Effect",
    "Principal",
    "NotPrincipal",
    "Action",
    "NotAction",
    "Resource",
    "NotResource",
    "Condition",
];

/// A validated Policy: its text as set (what GetQueueAttributes returns) and its statements.
#[derive(Debug)]
pub struct Policy {
    /// The document as given, returned by GetQueueAttributes.
    text: Box<str>,
    /// Its statements, parsed.
    pub(super) statements: Vec<Statement>,
}

impl PartialEq for Policy {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Policy {}

/// A statement's Effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Effect {
    /// `"Effect": "Allow"`.
    Allow,
    /// `"Effect": "Deny"`: wins over any Allow.
    Deny,
}

/// An element and whether it came as its `Not…` form.
#[derive(Debug)]
pub(super) struct Listed<T> {
    /// Written as `NotPrincipal` or `NotAction`.
    pub negated: bool,
    /// What is listed.
    pub items: T,
}

/// Who a statement names: `"*"` (anyone) and the `AWS` entries; other kinds (`Service`…)
/// never name a key's caller.
#[derive(Debug, Default)]
pub(super) struct Principals {
    /// `"*"` or `{"AWS": "*"}`.
    pub anyone: bool,
    /// The `AWS` principals: account ids and ARNs.
    pub aws: Vec<String>,
    /// `Service` entries (`sns.amazonaws.com`), which name only calls a service makes.
    pub services: Vec<String>,
}

/// One statement of a policy, its elements parsed.
#[derive(Debug)]
pub(super) struct Statement {
    /// Sid: AddPermission's label.
    pub sid: Option<String>,
    /// Effect.
    pub effect: Effect,
    /// Principal or NotPrincipal.
    pub principal: Listed<Principals>,
    /// Action or NotAction: `sqs:SendMessage`, `sqs:*`...
    pub action: Listed<Vec<String>>,
    /// `None`: no Resource element, which names the queue the policy is attached to.
    pub resource: Option<Listed<Vec<String>>>,
    /// Condition, one entry per operator and key.
    pub conditions: Vec<Condition>,
}

/// Totals the quotas count across the whole document.
#[derive(Default)]
struct Counts {
    /// Principals in all statements.
    principals: usize,
    /// Conditions in all statements.
    conditions: usize,
    /// The per-statement limit on actions.
    max_actions: usize,
}

/// A document no service can use as a policy; each service words the refusal (SQS says
/// no more than InvalidAttributeValue "Invalid value for the parameter Policy.").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invalid;

/// What reading a policy document gives.
type Parsed<T> = Result<T, Invalid>;

fn invalid() -> Invalid {
    Invalid
}

/// A service's limits on a policy document.
#[derive(Debug, Clone, Copy)]
pub struct Quotas {
    /// The document's size limit, in bytes.
    pub bytes: usize,
    /// Statements a document may hold.
    pub statements: usize,
    /// Actions a statement may list.
    pub actions: usize,
    /// Principals across the document.
    pub principals: usize,
    /// Conditions across the document.
    pub conditions: usize,
}

impl Quotas {
    /// SQS's (SQS Developer Guide, "Amazon SQS policy quotas").
    pub const SQS: Quotas = Quotas {
        bytes: MAX_BYTES,
        statements: MAX_STATEMENTS,
        actions: MAX_ACTIONS,
        principals: MAX_PRINCIPALS,
        conditions: MAX_CONDITIONS,
    };
    /// SNS's: a topic policy may be 30 KB (SNS quotas); SNS publishes no statement, action,
    /// principal or condition counts, so those are generous \[unverified\].
    pub const SNS: Quotas = Quotas {
        bytes: 30 * 1024,
        statements: 100,
        actions: 100,
        principals: 500,
        conditions: 100,
    };
}

impl Policy {
    /// Validates `text` as SQS does; every refusal is the one InvalidAttributeValue.
    pub fn parse(text: &str) -> Parsed<Policy> {
        Policy::parse_with(text, &Quotas::SQS)
    }

    /// Validates `text` under a service's quotas (the caller words the refusal).
    pub fn parse_with(text: &str, quotas: &Quotas) -> Parsed<Policy> {
        if text.len() > quotas.bytes {
            return Err(invalid());
        }
        let Ok(Value::Object(doc)) = serde_json::from_str::<Value>(text) else {
            return Err(invalid());
        };
        if doc.keys().any(|k| !TOP_LEVEL.contains(&k.as_str())) {
            return Err(invalid());
        }
        if let Some(version) = doc.get("Version") {
            if !matches!(version.as_str(), Some("2008-10-17" | "2012-10-17")) {
                return Err(invalid());
            }
        }
        let raw = match doc.get("Statement") {
            Some(Value::Array(list)) => list.iter().collect(),
            Some(one @ Value::Object(_)) => vec![one],
            _ => return Err(invalid()),
        };
        if raw.len() > quotas.statements {
            return Err(invalid());
        }
        let mut counts = Counts {
            max_actions: quotas.actions,
            ..Counts::default()
        };
        let statements = raw
            .into_iter()
            .map(|s| statement(s, &mut counts))
            .collect::<Parsed<Vec<_>>>()?;
        if counts.principals > quotas.principals || counts.conditions > quotas.conditions {
            return Err(invalid());
        }
        Ok(Policy {
            text: text.into(),
            statements,
        })
    }

    /// The document as set, returned unchanged by GetQueueAttributes.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The statement ids, for AddPermission and RemovePermission.
    pub fn sids(&self) -> impl Iterator<Item = &str> {
        self.statements.iter().filter_map(|s| s.sid.as_deref())
    }
}

/// One statement: only known elements, an Effect of Allow or Deny, and its lists counted against
/// the quotas.
fn statement(value: &Value, counts: &mut Counts) -> Parsed<Statement> {
    let Value::Object(s) = value else {
        return Err(invalid());
    };
    if s.keys().any(|k| !STATEMENT_KEYS.contains(&k.as_str())) {
        return Err(invalid());
    }
    let effect = match s.get("Effect").and_then(Value::as_str) {
        Some("Allow") => Effect::Allow,
        Some("Deny") => Effect::Deny,
        _ => return Err(invalid()),
    };
    let sid = match s.get("Sid") {
        None => None,
        Some(Value::String(sid)) => Some(sid.clone()),
        Some(_) => return Err(invalid()),
    };
    let principal = one_of(s, "Principal", "NotPrincipal")?
        .ok_or_else(invalid)
        .and_then(|(negated, v)| {
            Ok(Listed {
                negated,
                items: principals(v, counts)?,
            })
        })?;
    let action = one_of(s, "Action", "NotAction")?
        .ok_or_else(invalid)
        .and_then(|(negated, v)| {
            let items = strings(v)?;
            let well_formed = |a: &String| a == "*" || a.split_once(':').is_some();
            if items.is_empty()
                || items.len() > counts.max_actions
                || !items.iter().all(well_formed)
            {
                return Err(invalid());
            }
            Ok(Listed { negated, items })
        })?;
    let resource = one_of(s, "Resource", "NotResource")?
        .map(|(negated, v)| {
            Ok::<_, Invalid>(Listed {
                negated,
                items: strings(v)?,
            })
        })
        .transpose()?;
    let conditions = match s.get("Condition") {
        None => Vec::new(),
        Some(Value::Object(block)) => conditions(block, counts)?,
        Some(_) => return Err(invalid()),
    };
    Ok(Statement {
        sid,
        effect,
        principal,
        action,
        resource,
        conditions,
    })
}

/// The element `key` or its negation `not_key` (never both), and whether it was the negation.
fn one_of<'a>(
    s: &'a Map<String, Value>,
    key: &str,
    not_key: &str,
) -> Parsed<Option<(bool, &'a Value)>> {
    match (s.get(key), s.get(not_key)) {
        (Some(_), Some(_)) => Err(invalid()),
        (Some(v), None) => Ok(Some((false, v))),
        (None, Some(v)) => Ok(Some((true, v))),
        (None, None) => Ok(None),
    }
}

/// A string or a non-empty list of strings.
fn strings(value: &Value) -> Parsed<Vec<String>> {
    match value {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) if !items.is_empty() => items
            .iter()
            .map(|i| i.as_str().map(str::to_owned).ok_or_else(invalid))
            .collect(),
        _ => Err(invalid()),
    }
}

/// `"*"`, or a map of principal kinds to names. AWS names are `*`, an account id or an ARN:
/// anything else names nobody, which in a Deny would silently protect nothing.
fn principals(value: &Value, counts: &mut Counts) -> Parsed<Principals> {
    let mut out = Principals::default();
    match value {
        Value::String(s) if s == "*" => out.anyone = true,
        Value::Object(kinds) if !kinds.is_empty() => {
            for (kind, names) in kinds {
                let names = strings(names)?;
                counts.principals += names.len();
                if kind == "Service" {
                    out.services.extend(names);
                    continue;
                }
                if kind != "AWS" {
                    continue;
                }
                for name in names {
                    let account = name.len() == 12 && name.bytes().all(|b| b.is_ascii_digit());
                    match name.as_str() {
                        "*" => out.anyone = true,
                        _ if account || name.starts_with("arn:") => out.aws.push(name),
                        _ => return Err(invalid()),
                    }
                }
            }
        }
        _ => return Err(invalid()),
    }
    Ok(out)
}

/// `{"<operator>": {"<key>": value or [values]}}`; values may be strings, numbers or booleans.
fn conditions(block: &Map<String, Value>, counts: &mut Counts) -> Parsed<Vec<Condition>> {
    let mut out = Vec::new();
    for (operator, keys) in block {
        let Value::Object(keys) = keys else {
            return Err(invalid());
        };
        if keys.is_empty() {
            return Err(invalid());
        }
        let op = Operator::parse(operator);
        for (key, values) in keys {
            let scalar = |v: &Value| match v {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                Value::Bool(b) => Some(b.to_string()),
                _ => None,
            };
            let values = match values {
                Value::Array(list) => list.iter().map(scalar).collect::<Option<Vec<_>>>(),
                one => scalar(one).map(|v| vec![v]),
            }
            .ok_or_else(invalid)?;
            counts.conditions += 1;
            out.push(Condition::new(op.clone(), key, values));
        }
    }
    Ok(out)
}
