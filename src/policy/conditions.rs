//! Condition blocks: IAM's operators over the global keys SQS policies use in practice.
//!
//! Semantics from the IAM User Guide ("Condition operators"): a key missing from the request
//! makes a condition false, except that a negated operator (`StringNotEquals`…) is then true,
//! `…IfExists` is true and `Null` tests exactly that; several values of one key match if any
//! does (for a negated operator: if none does); every operator and key of a block must hold.
//! What sqslite does not evaluate is [`Truth::Unknown`]: the statement then fails closed.

use std::net::IpAddr;

use super::wildcard;
use super::Request;
use crate::clock::Millis;

/// A condition's outcome; `Unknown` for a key or operator sqslite does not evaluate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Truth {
    /// The condition holds.
    True,
    /// It does not.
    False,
    /// It cannot be told (an unsupported operator): the statement does not apply.
    Unknown,
}

/// How a Numeric or Date operator compares (its `Not...` form is [`Operator`]'s `negated`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    /// `...Equals`.
    Eq,
    /// `...LessThan`.
    Lt,
    /// `...LessThanEquals`.
    Le,
    /// `...GreaterThan`.
    Gt,
    /// `...GreaterThanEquals`.
    Ge,
}

/// The comparison an operator makes, by the type it reads values as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `StringEquals`.
    String,
    /// `StringEqualsIgnoreCase`.
    StringIgnoreCase,
    /// `StringLike`, with `*` and `?`.
    StringLike,
    /// `Numeric...`.
    Numeric(Cmp),
    /// `Date...`.
    Date(Cmp),
    /// `Bool`.
    Bool,
    /// `IpAddress`.
    Ip,
    /// `ArnEquals` and `ArnLike`.
    Arn,
    /// `Null`: whether the key is absent.
    Null,
    /// Any other operator.
    Unsupported,
}

/// `ForAnyValue:StringLikeIfExists` and the like, taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operator {
    /// The comparison.
    kind: Kind,
    /// A `Not...` operator.
    negated: bool,
    /// An `...IfExists` operator: true when the key is absent.
    if_exists: bool,
    /// `ForAllValues:` (true on a missing key) or `ForAnyValue:` (false on one); plain
    /// when neither.
    set: Option<Set>,
}

/// A set operator's prefix, for keys with several values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Set {
    /// `ForAnyValue:`: some request value matches.
    AnyValue,
    /// `ForAllValues:`: every request value matches.
    AllValues,
}

impl Operator {
    /// The operator a Condition block's key names, as IAM spells it; one sqslite does not know is
    /// `Unsupported`, never an error.
    pub fn parse(name: &str) -> Operator {
        let (set, rest) = if let Some(rest) = name.strip_prefix("ForAllValues:") {
            (Some(Set::AllValues), rest)
        } else if let Some(rest) = name.strip_prefix("ForAnyValue:") {
            (Some(Set::AnyValue), rest)
        } else {
            (None, name)
        };
        let (if_exists, base) = match rest.strip_suffix("IfExists") {
            Some(base) if base != "Null" => (true, base),
            _ => (false, rest),
        };
        let (kind, negated) = kind_of(base);
        Operator {
            kind,
            negated,
            if_exists,
            set,
        }
    }
}

/// The comparison an operator name without its prefix and `IfExists` suffix makes, and whether it
/// is negated.
fn kind_of(base: &str) -> (Kind, bool) {
    let cmp = |suffix: &str| match suffix {
        "Equals" => Some((Cmp::Eq, false)),
        "NotEquals" => Some((Cmp::Eq, true)),
        "LessThan" => Some((Cmp::Lt, false)),
        "LessThanEquals" => Some((Cmp::Le, false)),
        "GreaterThan" => Some((Cmp::Gt, false)),
        "GreaterThanEquals" => Some((Cmp::Ge, false)),
        _ => None,
    };
    if let Some((c, negated)) = base.strip_prefix("Numeric").and_then(cmp) {
        return (Kind::Numeric(c), negated);
    }
    if let Some((c, negated)) = base.strip_prefix("Date").and_then(cmp) {
        return (Kind::Date(c), negated);
    }
    match base {
        "StringEquals" => (Kind::String, false),
        "StringNotEquals" => (Kind::String, true),
        "StringEqualsIgnoreCase" => (Kind::StringIgnoreCase, false),
        "StringNotEqualsIgnoreCase" => (Kind::StringIgnoreCase, true),
        "StringLike" => (Kind::StringLike, false),
        "StringNotLike" => (Kind::StringLike, true),
        "Bool" => (Kind::Bool, false),
        "IpAddress" => (Kind::Ip, false),
        "NotIpAddress" => (Kind::Ip, true),
        // IAM treats ArnEquals and ArnLike alike: both take wildcards.
        "ArnEquals" | "ArnLike" => (Kind::Arn, false),
        "ArnNotEquals" | "ArnNotLike" => (Kind::Arn, true),
        "Null" => (Kind::Null, false),
        _ => (Kind::Unsupported, false),
    }
}

/// The keys sqslite fills in (lower case: IAM's key names are case-insensitive).
const KEYS: &[&str] = &[
    "aws:sourcearn",
    "aws:sourceaccount",
    "aws:sourceip",
    "aws:securetransport",
    "aws:currenttime",
    "aws:epochtime",
    "aws:principalaccount",
    "aws:principalarn",
    "aws:sourceowner",
];

/// One operator over one key.
#[derive(Debug)]
pub struct Condition {
    /// The operator.
    op: Operator,
    /// The condition key, e.g. `aws:SourceArn`.
    key: String,
    /// The values it is compared with.
    values: Vec<String>,
}

impl Condition {
    /// Says once, when the policy is set, what will fail closed on every request.
    pub fn new(op: Operator, key: &str, values: Vec<String>) -> Condition {
        let key = key.to_ascii_lowercase();
        if op.kind == Kind::Unsupported || !KEYS.contains(&key.as_str()) {
            tracing::warn!(
                key = %key,
                "a queue policy condition uses an operator or key sqslite does not evaluate: \
                 its Allow statement never applies and its Deny statement always does"
            );
        }
        Condition { op, key, values }
    }
}

/// The value of `key` for this request: `None` when absent.
fn context(key: &str, req: &Request<'_>) -> Option<String> {
    match key {
        "aws:sourcearn" => req.source_arn.map(str::to_owned),
        "aws:sourceaccount" => req.source_account.map(str::to_owned),
        "aws:sourceip" => req.source_ip.map(|ip| ip.to_string()),
        "aws:securetransport" => Some(req.secure.to_string()),
        "aws:currenttime" => Some(iso8601(req.now)),
        "aws:epochtime" => Some((req.now / 1000).to_string()),
        "aws:principalaccount" => Some(req.caller.account.to_owned()),
        "aws:principalarn" => Some(req.caller.arn.to_owned()),
        // SNS's older key, in every topic's default policy: the account of the source, a
        // service's for the resource it acts for, else the caller's own \[unverified for the
        // direct case: the default policy grants the owner's account, which this reproduces\].
        "aws:sourceowner" => Some(req.source_account.unwrap_or(req.caller.account).to_owned()),
        _ => None,
    }
}

/// Whether every condition of a statement holds.
pub fn holds(conditions: &[Condition], req: &Request<'_>) -> Truth {
    let mut all = Truth::True;
    for c in conditions {
        match one(c, req) {
            Truth::False => return Truth::False,
            Truth::Unknown => all = Truth::Unknown,
            Truth::True => {}
        }
    }
    all
}

/// One condition against the request: a missing key decided by the operator's kind, then any value
/// matching.
fn one(c: &Condition, req: &Request<'_>) -> Truth {
    let op = &c.op;
    if op.kind == Kind::Unsupported || !KEYS.contains(&c.key.as_str()) {
        return Truth::Unknown;
    }
    let value = context(&c.key, req);
    if op.kind == Kind::Null {
        let wants_absent = c.values.iter().any(|v| v.eq_ignore_ascii_case("true"));
        return truth(wants_absent == value.is_none());
    }
    let Some(value) = value else {
        // The set operators decide a missing key themselves (IAM User Guide, "Set operators
        // for multivalued context keys"); every single-valued key here is a set of one.
        return truth(match op.set {
            _ if op.if_exists => true,
            Some(set) => set == Set::AllValues,
            None => op.negated,
        });
    };
    let (any, unknown) = c
        .values
        .iter()
        .fold((false, false), |(any, unknown), expected| {
            let m = matches(op.kind, &value, expected);
            (any || m == Some(true), unknown || m.is_none())
        });
    match (any, unknown) {
        (true, _) => truth(!op.negated),
        (false, true) => Truth::Unknown,
        (false, false) => truth(op.negated),
    }
}

/// A known outcome.
fn truth(b: bool) -> Truth {
    if b {
        Truth::True
    } else {
        Truth::False
    }
}

/// Whether the request's `value` matches the policy's `expected`; `None` when the policy's
/// value cannot be read as the operator's type.
fn matches(kind: Kind, value: &str, expected: &str) -> Option<bool> {
    Some(match kind {
        Kind::String => value == expected,
        Kind::StringIgnoreCase => value.to_lowercase() == expected.to_lowercase(),
        Kind::StringLike => wildcard(expected, value, false),
        Kind::Bool => value.eq_ignore_ascii_case(expected),
        Kind::Numeric(cmp) => compare(cmp, value.parse::<f64>().ok()?, expected.parse().ok()?),
        Kind::Date(cmp) => {
            let (v, e) = (date(value)?, date(expected)?);
            compare(cmp, v as f64, e as f64)
        }
        Kind::Ip => in_cidr(value.parse().ok()?, expected)?,
        Kind::Arn => arn_matches(expected, value),
        Kind::Null | Kind::Unsupported => return None,
    })
}

/// A Numeric or Date comparison of the request's value with the policy's (dates as epoch
/// milliseconds).
fn compare(cmp: Cmp, value: f64, expected: f64) -> bool {
    match cmp {
        Cmp::Eq => (value - expected).abs() < f64::EPSILON,
        Cmp::Lt => value < expected,
        Cmp::Le => value <= expected,
        Cmp::Gt => value > expected,
        Cmp::Ge => value >= expected,
    }
}

/// An ARN pattern matches segment by segment, each with `*` and `?`.
fn arn_matches(pattern: &str, arn: &str) -> bool {
    let p: Vec<&str> = pattern.splitn(6, ':').collect();
    let a: Vec<&str> = arn.splitn(6, ':').collect();
    p.len() == a.len() && p.iter().zip(&a).all(|(p, a)| wildcard(p, a, false))
}

/// `203.0.113.0/24`, `2001:db8::/32` or a single address.
fn in_cidr(ip: IpAddr, cidr: &str) -> Option<bool> {
    let (net, bits) = match cidr.split_once('/') {
        Some((net, bits)) => (net.parse::<IpAddr>().ok()?, Some(bits.parse::<u32>().ok()?)),
        None => (cidr.parse::<IpAddr>().ok()?, None),
    };
    let mask = |value: u128, width: u32| {
        let bits = bits.unwrap_or(width).min(width);
        if bits == 0 {
            0
        } else {
            value >> (width - bits)
        }
    };
    Some(match (ip, net) {
        (IpAddr::V4(ip), IpAddr::V4(net)) => {
            mask(u128::from(u32::from(ip)), 32) == mask(u128::from(u32::from(net)), 32)
        }
        (IpAddr::V6(ip), IpAddr::V6(net)) => {
            mask(u128::from(ip), 128) == mask(u128::from(net), 128)
        }
        _ => false,
    })
}

/// IAM's date forms: epoch seconds, `2026-12-01`, or ISO 8601 with a `Z` or `±hh:mm` offset
/// and optional fractional seconds; as milliseconds since the epoch.
fn date(text: &str) -> Option<i64> {
    if let Ok(seconds) = text.parse::<i64>() {
        return seconds.checked_mul(1000);
    }
    let num = |range: std::ops::Range<usize>| -> Option<i64> {
        let s = text.get(range)?;
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let b = text.as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let month = time::Month::try_from(u8::try_from(num(5..7)?).ok()?).ok()?;
    let day = time::Date::from_calendar_date(
        i32::try_from(num(0..4)?).ok()?,
        month,
        u8::try_from(num(8..10)?).ok()?,
    )
    .ok()?;
    let midnight = day.midnight().assume_utc().unix_timestamp() * 1000;
    if b.len() == 10 {
        return Some(midnight);
    }
    if b.len() < 20 || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (h, m, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    let mut rest = &text[19..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        rest = &fraction[digits..];
    }
    let offset = match rest.as_bytes() {
        b"Z" => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let minutes = rest[1..3].parse::<i64>().ok()? * 60 + rest[4..6].parse::<i64>().ok()?;
            if *sign == b'+' {
                minutes
            } else {
                -minutes
            }
        }
        _ => return None,
    };
    Some(midnight + ((h * 60 + m - offset) * 60 + s) * 1000)
}

/// `now` as aws:CurrentTime's value, `2026-12-01T19:37:54Z`: SigV4's basic format spelled out.
fn iso8601(now: Millis) -> String {
    let basic = crate::clock::format_amz_date(now);
    let at = |r: std::ops::Range<usize>| basic.get(r).unwrap_or_default();
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        at(0..4),
        at(4..6),
        at(6..8),
        at(9..11),
        at(11..13),
        at(13..15)
    )
}

#[cfg(test)]
#[path = "conditions_tests.rs"]
mod tests;
