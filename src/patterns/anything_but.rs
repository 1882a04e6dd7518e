//! `anything-but`: what it excludes, how its argument is parsed, and whether a leaf is out.

use serde_json::{Map, Number, Value};

use super::errors::PatternError;
use super::operators::{fixed, fixed_of, string_arg, ONE_KEY};
use super::Dialect;

/// What `anything-but` excludes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Excluded {
    Strings(Vec<String>),
    Numbers(Vec<i64>),
    Prefix(String),
    Suffix(String),
    /// Lower-cased values of `{"anything-but": {"equals-ignore-case": …}}`.
    IgnoreCase(Vec<String>),
}

/// The argument of `anything-but`: a value, a list, or `{prefix|suffix|equals-ignore-case}`.
pub(crate) fn parse(dialect: Dialect, arg: &Value) -> Result<Excluded, PatternError> {
    match arg {
        Value::Object(inner) => anything_but_object(dialect, inner),
        Value::Array(items) => anything_but_list(dialect, items),
        Value::String(s) => Ok(Excluded::Strings(vec![s.clone()])),
        Value::Number(n) => Ok(Excluded::Numbers(vec![
            fixed_of(dialect, n).ok_or_else(|| out_of_range(dialect, n))?
        ])),
        _ => Err(PatternError::syntax(
            "Value of anything-but must be an array or single string/number value.",
        )),
    }
}

/// The refusal for a number `fixed_of` could not take (it is outside the dialect's range).
fn out_of_range(dialect: Dialect, n: &Number) -> PatternError {
    fixed(dialect, n.as_f64().unwrap_or(f64::INFINITY))
        .err()
        .unwrap_or_else(|| PatternError::syntax("Value of anything-but must be numeric"))
}

fn anything_but_list(dialect: Dialect, items: &[Value]) -> Result<Excluded, PatternError> {
    let (mut strings, mut numbers) = (Vec::new(), Vec::new());
    for item in items {
        match item {
            Value::String(s) => strings.push(s.clone()),
            Value::Number(n) => {
                numbers.push(fixed_of(dialect, n).ok_or_else(|| out_of_range(dialect, n))?);
            }
            _ => {
                return Err(PatternError::syntax(
                    "Inside anything but list, start|null|boolean is not supported.",
                ))
            }
        }
    }
    match (strings.is_empty(), numbers.is_empty()) {
        (false, true) => Ok(Excluded::Strings(strings)),
        (true, false) => Ok(Excluded::Numbers(numbers)),
        _ => Err(PatternError::syntax(
            "Inside anything but list, either all values are number or string, mixed type is not supported",
        )),
    }
}

fn anything_but_object(
    dialect: Dialect,
    inner: &Map<String, Value>,
) -> Result<Excluded, PatternError> {
    let mut entries = inner.iter();
    let Some((op, arg)) = entries.next() else {
        return Err(PatternError::syntax(
            "Anything-But expression name not found",
        ));
    };
    // SNS refused anything-but/suffix when recorded (2024-05); anything-but/equals-ignore-case
    // is not in SNS's guide, so it is refused the same way [unverified]. Lambda takes both
    // (EventBridge's pattern syntax).
    let supported = match op.as_str() {
        "prefix" => true,
        "suffix" | "equals-ignore-case" => dialect == Dialect::Lambda,
        _ => false,
    };
    if !supported {
        return Err(PatternError::syntax(format!(
            "Unsupported anything-but pattern: {op}"
        )));
    }
    let excluded = if op == "equals-ignore-case" {
        Excluded::IgnoreCase(ignore_case_list(arg)?)
    } else {
        let text = string_arg(op, arg)?;
        if text.is_empty() {
            return Err(PatternError::syntax("Null prefix/suffix not allowed"));
        }
        if op == "prefix" {
            Excluded::Prefix(text)
        } else {
            Excluded::Suffix(text)
        }
    };
    if entries.next().is_some() {
        return Err(PatternError::syntax(ONE_KEY));
    }
    Ok(excluded)
}

fn ignore_case_list(arg: &Value) -> Result<Vec<String>, PatternError> {
    let refuse = || {
        PatternError::syntax(
            "Inside anything-but/equals-ignore-case list, number|start|null|boolean is not supported.",
        )
    };
    match arg {
        Value::String(s) => Ok(vec![s.to_lowercase()]),
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map(str::to_lowercase).ok_or_else(refuse))
            .collect(),
        _ => Err(refuse()),
    }
}

/// Whether `anything-but` rules this leaf out. A leaf of the other type (a number against
/// a string list, a bool, null) is ruled out as well: anything-but never matches it
/// \[unverified, event-ruler compares typed values\].
pub(crate) fn excluded(dialect: Dialect, ex: &Excluded, leaf: &Value) -> bool {
    match (ex, leaf) {
        (Excluded::Strings(list), Value::String(s)) => list.contains(s),
        (Excluded::Numbers(list), Value::Number(n)) => {
            fixed_of(dialect, n).is_none_or(|v| list.contains(&v))
        }
        (Excluded::Prefix(p), Value::String(s)) => s.starts_with(p.as_str()),
        (Excluded::Suffix(p), Value::String(s)) => s.ends_with(p.as_str()),
        (Excluded::IgnoreCase(list), Value::String(s)) => list.contains(&s.to_lowercase()),
        _ => true,
    }
}
