//! The filter-policy / event-pattern matcher shared by SNS subscriptions and Lambda-style
//! event source mappings: parse a policy once, then match it against many documents.
//!
//! It imports nothing else from the crate, so both services can sit above it.
//!
//! # Use
//!
//! - SNS: [`FilterPolicy::parse_sns`] with the subscription's [`Scope`], then
//!   [`FilterPolicy::matches_attributes`] (scope `MessageAttributes`) or
//!   [`FilterPolicy::matches_body`] (scope `MessageBody`; a body that is not JSON matches no
//!   body policy). A refusal renders with [`PatternError::sns_message`].
//!   An empty `FilterPolicy` attribute value removes the policy; that is the caller's case.
//!   [`FilterPolicy::explain_body`] and [`FilterPolicy::explain_attributes`] say why a
//!   sample does not match (which key failed which condition), for the dashboard.
//! - Lambda: [`FilterCriteria::parse`] with the mapping's patterns, then
//!   [`FilterCriteria::matches_sqs_record`] with the record (its `body` field aside) and body.
//!
//! # Grammar
//!
//! ```text
//! policy      = object
//! object      = "{" member ("," member)* "}"            ; at least one member
//! member      = key ":" object                           ; nested key (MessageBody / Lambda)
//!             | key ":" "[" value ("," value)* "]"       ; any value may match
//!             | "$or" ":" "[" object "," object ("," object)* "]"
//! value       = string | number | true | false | null    ; exact match
//!             | "{" operator "}"                          ; exactly one operator
//! operator    = "prefix" ":" string | "suffix" ":" string
//!             | "equals-ignore-case" ":" string
//!             | "anything-but" ":" (string | number | [strings] | [numbers]
//!                                   | {"prefix": string} | {"suffix": string}*
//!                                   | {"equals-ignore-case": string | [strings]}*)
//!             | "numeric" ":" "[" ("=" n | "<" n | "<=" n | (">"|">=") n [("<"|"<=") m] ) "]"
//!             | "exists" ":" (true | false)
//!             | "cidr" ":" "a.b.c.d/len" | "ipv6/len"
//! ; * Lambda only: SNS refuses them ("Unsupported anything-but pattern: suffix", recorded).
//! ```
//!
//! Keys of an object must all match; the values of one key are alternatives; `$or` makes its
//! objects alternatives. A document key whose value is an array matches when any element
//! does. Strings compare case-sensitively. Numbers: SNS compares them as values within ±1e9
//! to 5 decimals; Lambda (EventBridge) within ±5e9 to 6 decimals, and its plain number
//! values compare as text (300 ≠ 300.0).
//!
//! # Operators and their references
//!
//! | Operator | SNS developer guide page (anchor) |
//! |---|---|
//! | `"v"`, `1`, `null`, `true` | string-value-matching (#string-exact-matching), numeric-value-matching (#numeric-exact-matching) |
//! | `prefix` | string-value-matching (#string-prefix-matching) |
//! | `suffix` | string-value-matching (suffix matching) |
//! | `equals-ignore-case` | string-value-matching (equals-ignore-case matching) |
//! | `anything-but` (value, list, `prefix`) | string-value-matching (#string-anything-but-matching, #string-anything-but-matching-prefix), numeric-value-matching (#numeric-anything-but-matching) |
//! | `numeric` `=` `<` `<=` `>` `>=`, ranges | numeric-value-matching (#numeric-value-range-matching) |
//! | `exists` | attribute-key-matching |
//! | `cidr` | string-value-matching (#ip-address-matching) |
//! | `$or`, AND/OR | and-or-logic (#or-operator) |
//! | nested keys, arrays | sns-message-filtering (payload-based filtering), example-filter-policies |
//! | limits (5 keys, 150 combinations, 256 KB) | subscription-filter-policy-constraints; see [`limits`] |
//! | Lambda differences | Lambda guide: invocation-eventfiltering, with-sqs-filtering |
//!
//! # Where the dialects differ ([`Dialect`])
//!
//! | Rule | SNS | Lambda |
//! |---|---|---|
//! | numeric range, precision | ±1e9, 5 decimals | ±5e9, 6 decimals (EventBridge) |
//! | plain number value `[300]` | equal values (`3.0e2` matches) | equal text (`300.0` does not) |
//! | `anything-but` with `suffix` / `equals-ignore-case` | refused | accepted |
//! | `anything-but` on a String.Array attribute | every element must pass | any element (bodies, both) |
//! | `exists: true` on `null` or `""` | absent ("non-null and non-empty") | present |
//! | keys, combinations | 5, 150 | no limit (sqslite bounds `$or` at 1024 branches) |
//! | policy length | 256 KB | 4096 characters, 5 filters per mapping |
//! | nested keys | `MessageBody` scope only | always; `body` shape must match the SQS body |
//!
//! Not covered: `wildcard` (EventBridge only; refused as an unrecognized match type) and
//! Jackson's `at [Source: …; line, column]` suffix on SNS syntax errors ([`errors`]).

mod anything_but;
mod attributes;
mod cidr;
pub mod errors;
mod explain;
pub mod limits;
mod matcher;
mod operators;
mod parse;
#[cfg(test)]
mod tests;

use serde_json::Value;

pub use attributes::{attributes_document, MessageAttribute};
pub use errors::{PatternError, PatternErrorKind, SnsVia};
pub use explain::Explanation;

use attributes::BodyShape;
use parse::Branch;

/// Whose rules a policy follows where SNS and Lambda differ (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SNS subscription filter policies.
    Sns,
    /// Lambda event source mapping `FilterCriteria` patterns (EventBridge syntax).
    Lambda,
}

/// What an SNS policy filters on (the subscription's `FilterPolicyScope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// The default: flat keys naming message attributes; nested objects are refused.
    #[default]
    MessageAttributes,
    /// Keys of the JSON message body, nested to any depth.
    MessageBody,
}

/// A parsed, validated policy: the branches of its `$or` expansion and its dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct FilterPolicy {
    dialect: Dialect,
    scope: Scope,
    branches: Vec<Branch>,
    body: BodyShape,
}

impl FilterPolicy {
    /// An SNS subscription's `FilterPolicy` under its `FilterPolicyScope`.
    pub fn parse_sns(text: &str, scope: Scope) -> Result<FilterPolicy, PatternError> {
        FilterPolicy::parse(text, Dialect::Sns, scope)
    }

    /// One Lambda `FilterCriteria` pattern (nested keys allowed, no SNS key limits).
    pub fn parse_lambda(text: &str) -> Result<FilterPolicy, PatternError> {
        FilterPolicy::parse(text, Dialect::Lambda, Scope::MessageBody)
    }

    fn parse(text: &str, dialect: Dialect, scope: Scope) -> Result<FilterPolicy, PatternError> {
        limits::check_length(dialect, text)?;
        // SNS's lead is recorded ("failed to parse JSON. "); what follows it is Jackson's
        // parser message, which sqslite cannot reproduce: serde's says what and where.
        let root: Value = serde_json::from_str(text).map_err(|e| {
            PatternError::new(
                PatternErrorKind::InvalidJson,
                format!("failed to parse JSON. {e}"),
            )
        })?;
        let branches = parse::branches(&root, dialect, scope, limits::max_branches(dialect))?;
        limits::check_policy(dialect, &branches)?;
        let body = body_shape(&branches);
        Ok(FilterPolicy {
            dialect,
            scope,
            branches,
            body,
        })
    }

    /// SNS's combination count for this policy (see [`limits`]).
    #[cfg(test)]
    pub fn combinations(&self) -> u64 {
        limits::combinations(&self.branches)
    }

    /// Whether the JSON document (a message body, an event record) matches.
    pub fn matches(&self, doc: &Value) -> bool {
        matcher::any_branch(
            self.dialect,
            self.every_element(),
            &self.branches,
            &matcher::Flat::new(doc),
        )
    }

    /// SNS's String.Array rule for `anything-but` (see [`matcher::any_branch`]).
    fn every_element(&self) -> bool {
        self.dialect == Dialect::Sns && self.scope == Scope::MessageAttributes
    }

    /// Whether an SNS message body matches (scope `MessageBody`). A body that is not a JSON
    /// object or array matches nothing, `exists: false` included: SNS's payload-based
    /// filtering reads JSON bodies \[unverified for the all-`exists: false` policy\].
    pub fn matches_body(&self, body: &str) -> bool {
        attributes::parse_json_body(body).is_some_and(|doc| self.matches(&doc))
    }

    /// Whether SNS message attributes match (scope `MessageAttributes`).
    pub fn matches_attributes<'a>(
        &self,
        attributes: impl IntoIterator<Item = (&'a str, MessageAttribute<'a>)>,
    ) -> bool {
        self.matches(&attributes_document(attributes))
    }

    /// Lambda's SQS rule: `record` is the event record (its `body` field is replaced) and
    /// `body` the message body. A pattern with `"body": {…}` matches only JSON bodies, one
    /// with `"body": [...]` only plain-string bodies; a mismatch drops the message.
    pub fn matches_sqs_record(&self, record: &Value, body: &str) -> bool {
        attributes::sqs_record(self.body, record, body).is_some_and(|doc| self.matches(&doc))
    }
}

/// Whether a body is one a `MessageBody` policy can read (a JSON object or array); SNS
/// counts the others as `NumberOfNotificationsFilteredOut-InvalidMessageBody`.
pub fn is_json_body(body: &str) -> bool {
    attributes::parse_json_body(body).is_some()
}

/// What the policy's `body` keys expect: nested keys under `body` mean a JSON body.
fn body_shape(branches: &[Branch]) -> BodyShape {
    let mut fields = branches.iter().flatten().filter(|f| f.top == "body");
    match fields.clone().next() {
        None => BodyShape::Absent,
        Some(_) if fields.any(|f| f.depth > 1) => BodyShape::Json,
        Some(_) => BodyShape::Plain,
    }
}

/// A Lambda mapping's `FilterCriteria`: a message passes when any pattern matches.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FilterCriteria {
    filters: Vec<FilterPolicy>,
}

impl FilterCriteria {
    /// Parses every pattern; more than `max_filters` (Lambda's quota,
    /// [`limits::LAMBDA_DEFAULT_MAX_FILTERS`] by default) is refused.
    pub fn parse<'a>(
        patterns: impl IntoIterator<Item = &'a str>,
        max_filters: usize,
    ) -> Result<FilterCriteria, PatternError> {
        let filters = patterns
            .into_iter()
            .map(FilterPolicy::parse_lambda)
            .collect::<Result<Vec<_>, _>>()?;
        if filters.len() > max_filters {
            // Lambda's text for this was not found [unverified].
            return Err(PatternError::new(
                PatternErrorKind::TooManyFilters,
                format!("The number of filters exceeds the limit of {max_filters}."),
            ));
        }
        Ok(FilterCriteria { filters })
    }

    /// Whether the criteria hold no patterns (every message passes).
    pub fn is_empty(&self) -> bool {
        self.filters.is_empty()
    }

    /// Whether the document passes: no patterns, or any pattern matching.
    pub fn matches(&self, doc: &Value) -> bool {
        self.is_empty() || self.filters.iter().any(|f| f.matches(doc))
    }

    /// [`FilterPolicy::matches_sqs_record`] over the patterns (any may match).
    pub fn matches_sqs_record(&self, record: &Value, body: &str) -> bool {
        self.is_empty()
            || self
                .filters
                .iter()
                .any(|f| f.matches_sqs_record(record, body))
    }
}
