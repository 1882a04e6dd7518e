//! One value of a policy array: its typed matcher, how it is parsed, and how it tests a leaf.
//!
//! The error texts are SNS's (recorded from AWS where the module docs say so); the shapes
//! follow aws/event-ruler's `JsonRuleCompiler`, the matcher behind SNS's and Lambda's texts.

use serde_json::{Map, Number, Value};

use super::anything_but::{self, Excluded};
use super::cidr::IpNet;
use super::errors::PatternError;
use super::Dialect;

/// A literal in a policy array: `"text"`, a number, `true`/`false` or `null`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Literal {
    Str(String),
    /// The number's text (Lambda compares texts) and its fixed-point form (SNS compares values).
    Number(String, Option<i64>),
    Bool(bool),
    Null,
}

/// A numeric interval in the dialect's fixed-point units; `(value, inclusive)` per bound.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Range {
    pub low: Option<(i64, bool)>,
    pub high: Option<(i64, bool)>,
}

/// One typed matcher; a policy key matches when any of its matchers does.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Matcher {
    Exact(Literal),
    Prefix(String),
    Suffix(String),
    /// Holds the lower-cased value.
    EqualsIgnoreCase(String),
    AnythingBut(Excluded),
    Numeric(Range),
    Exists(bool),
    Cidr(IpNet),
}

pub(crate) const ONE_KEY: &str = "Only one key allowed in match expression";
const TOO_MANY_NUMERIC: &str = "Too many elements in numeric expression";

/// The fixed-point form of `f` within the dialect's numeric range, or SNS's refusal.
/// SNS: ±1e9 with 5 decimals; Lambda (EventBridge): ±5e9 with 6 decimals.
pub(crate) fn fixed(dialect: Dialect, f: f64) -> Result<i64, PatternError> {
    let (limit, scale, text) = match dialect {
        // The text mirrors event-ruler's ("-5.0E9 and 5.0E9") at SNS's bound [unverified].
        Dialect::Sns => (
            1e9,
            1e5,
            "Value must be between -1.0E9 and 1.0E9, inclusive",
        ),
        Dialect::Lambda => (
            5e9,
            1e6,
            "Value must be between -5.0E9 and 5.0E9, inclusive",
        ),
    };
    if !(-limit..=limit).contains(&f) {
        return Err(PatternError::syntax(text));
    }
    Ok((f * scale).round() as i64)
}

/// The fixed-point form of a document number, if it is inside the dialect's range.
pub(crate) fn fixed_of(dialect: Dialect, n: &Number) -> Option<i64> {
    fixed(dialect, n.as_f64()?).ok()
}

/// How the JSON parser would print the token at `v` (`]` when the array has ended).
fn token_text(v: Option<&Value>) -> String {
    match v {
        None => "]".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Object(_)) => "{".to_owned(),
        Some(Value::Array(_)) => "[".to_owned(),
        Some(other) => other.to_string(),
    }
}

/// A plain array member: a literal, or an error for a nested array.
pub(crate) fn literal(dialect: Dialect, v: &Value) -> Result<Matcher, PatternError> {
    let lit = match v {
        Value::String(s) => Literal::Str(s.clone()),
        Value::Number(n) => Literal::Number(n.to_string(), fixed_of(dialect, n)),
        Value::Bool(b) => Literal::Bool(*b),
        Value::Null => Literal::Null,
        _ => {
            return Err(PatternError::syntax(
                "Match value must be String, number, true, false, or null",
            ))
        }
    };
    Ok(Matcher::Exact(lit))
}

/// `{"<operator>": <argument>}` inside a policy array.
pub(crate) fn expression(
    dialect: Dialect,
    obj: &Map<String, Value>,
) -> Result<Matcher, PatternError> {
    let mut entries = obj.iter();
    let Some((name, arg)) = entries.next() else {
        return Err(PatternError::syntax("Match expression name not found"));
    };
    let (matcher, extra) = match name.as_str() {
        "prefix" => (Matcher::Prefix(string_arg(name, arg)?), ONE_KEY),
        "suffix" => (Matcher::Suffix(string_arg(name, arg)?), ONE_KEY),
        "equals-ignore-case" => (
            Matcher::EqualsIgnoreCase(string_arg(name, arg)?.to_lowercase()),
            ONE_KEY,
        ),
        "numeric" => match arg {
            Value::Array(items) => (Matcher::Numeric(numeric(dialect, items)?), TOO_MANY_NUMERIC),
            _ => return Err(PatternError::syntax("Value of numeric must be an array.")),
        },
        "anything-but" => (
            Matcher::AnythingBut(anything_but::parse(dialect, arg)?),
            TOO_MANY_NUMERIC,
        ),
        "exists" => match arg {
            Value::Bool(b) => (Matcher::Exists(*b), ONE_KEY),
            _ => {
                return Err(PatternError::syntax(
                    "exists match pattern must be either true or false.",
                ))
            }
        },
        // event-ruler reuses the prefix text for a non-string cidr [unverified for SNS].
        "cidr" => match arg {
            Value::String(s) => (Matcher::Cidr(IpNet::parse(s)?), ONE_KEY),
            _ => {
                return Err(PatternError::syntax(
                    "prefix match pattern must be a string",
                ))
            }
        },
        other => {
            return Err(PatternError::syntax(format!(
                "Unrecognized match type {other}"
            )));
        }
    };
    if entries.next().is_some() {
        return Err(PatternError::syntax(extra));
    }
    Ok(matcher)
}

pub(crate) fn string_arg(name: &str, arg: &Value) -> Result<String, PatternError> {
    match arg {
        Value::String(s) => Ok(s.clone()),
        _ => Err(PatternError::syntax(format!(
            "{name} match pattern must be a string"
        ))),
    }
}

fn number_arg(dialect: Dialect, v: Option<&Value>, what: &str) -> Result<i64, PatternError> {
    match v.and_then(Value::as_f64) {
        Some(f) if v.is_some_and(Value::is_number) => fixed(dialect, f),
        _ => Err(PatternError::syntax(format!(
            "Value of {what} must be numeric"
        ))),
    }
}

/// `"numeric": ["=", n]`, `[">"|">=", n]`, `["<"|"<=", n]` or `[">"|">=", n, "<"|"<=", m]`.
fn numeric(dialect: Dialect, items: &[Value]) -> Result<Range, PatternError> {
    let Some(Value::String(op)) = items.first() else {
        let text = token_text(items.first());
        return Err(PatternError::syntax(format!(
            "Invalid member in numeric match: {text}"
        )));
    };
    let bounded = |n| Some((n, op.len() == 2));
    match op.as_str() {
        "=" => {
            let n = number_arg(dialect, items.get(1), "equals")?;
            no_more(items, 2, TOO_MANY_NUMERIC)?;
            Ok(Range {
                low: Some((n, true)),
                high: Some((n, true)),
            })
        }
        "<" | "<=" => {
            let n = number_arg(dialect, items.get(1), op)?;
            no_more(items, 2, TOO_MANY_NUMERIC)?;
            Ok(Range {
                low: None,
                high: bounded(n),
            })
        }
        ">" | ">=" => {
            let low = bounded(number_arg(dialect, items.get(1), op)?);
            if items.len() == 2 {
                return Ok(Range { low, high: None });
            }
            upper_bound(dialect, items, low)
        }
        _ => Err(PatternError::syntax(format!(
            "Unrecognized numeric range operator: {op}"
        ))),
    }
}

/// The `"<"|"<=", m` half of a two-sided range, after its lower bound.
fn upper_bound(
    dialect: Dialect,
    items: &[Value],
    low: Option<(i64, bool)>,
) -> Result<Range, PatternError> {
    let Some(Value::String(op)) = items.get(2) else {
        let text = token_text(items.get(2));
        return Err(PatternError::syntax(format!(
            "Bad value in numeric range: {text}"
        )));
    };
    if op != "<" && op != "<=" {
        return Err(PatternError::syntax(format!(
            "Bad numeric range operator: {op}"
        )));
    }
    let top = number_arg(dialect, items.get(3), op)?;
    no_more(items, 4, "Too many terms in numeric range expression")?;
    if low.is_some_and(|(bottom, _)| bottom >= top) {
        return Err(PatternError::syntax("Bottom must be less than top"));
    }
    Ok(Range {
        low,
        high: Some((top, op == "<=")),
    })
}

fn no_more(items: &[Value], len: usize, text: &'static str) -> Result<(), PatternError> {
    if items.len() > len {
        return Err(PatternError::syntax(text));
    }
    Ok(())
}

impl Range {
    pub(crate) fn contains(&self, v: i64) -> bool {
        let above = self.low.is_none_or(|(b, inc)| v > b || (inc && v == b));
        let below = self.high.is_none_or(|(t, inc)| v < t || (inc && v == t));
        above && below
    }
}

impl Matcher {
    /// Whether one document leaf (a string, number, bool or null) satisfies this matcher.
    /// `exists` is decided per key, not per leaf, and never reaches here.
    pub(crate) fn test(&self, dialect: Dialect, leaf: &Value) -> bool {
        match (self, leaf) {
            (Matcher::Exact(lit), _) => exact(dialect, lit, leaf),
            (Matcher::Prefix(p), Value::String(s)) => s.starts_with(p.as_str()),
            (Matcher::Suffix(p), Value::String(s)) => s.ends_with(p.as_str()),
            (Matcher::EqualsIgnoreCase(l), Value::String(s)) => s.to_lowercase() == *l,
            (Matcher::AnythingBut(ex), _) => !anything_but::excluded(dialect, ex, leaf),
            (Matcher::Numeric(r), Value::Number(n)) => {
                fixed_of(dialect, n).is_some_and(|v| r.contains(v))
            }
            (Matcher::Cidr(net), Value::String(s)) => net.contains_text(s),
            _ => false,
        }
    }
}

fn exact(dialect: Dialect, lit: &Literal, leaf: &Value) -> bool {
    match (lit, leaf) {
        (Literal::Str(a), Value::String(b)) => a == b,
        (Literal::Bool(a), Value::Bool(b)) => a == b,
        (Literal::Null, Value::Null) => true,
        // Lambda compares number texts ("300, 300.0 and 3.0e2 are not equal", Lambda guide);
        // SNS compares values (its guide: 301.5 matches 3.015e2).
        (Literal::Number(text, value), Value::Number(n)) => match dialect {
            Dialect::Lambda => *text == n.to_string(),
            Dialect::Sns => {
                value.is_some_and(|v| Some(v) == fixed_of(dialect, n)) || *text == n.to_string()
            }
        },
        _ => false,
    }
}
