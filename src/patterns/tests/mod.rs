//! Unit tests of the matcher: one per operator, error and limit, plus the guides' examples.

mod doc_examples;
mod errors;
mod lambda;
mod limits;
mod operators;

use serde_json::{json, Value};

use super::{FilterPolicy, MessageAttribute, PatternError, Scope, SnsVia};

/// An SNS `MessageBody` policy that must parse.
fn body_policy(policy: &Value) -> FilterPolicy {
    FilterPolicy::parse_sns(&policy.to_string(), Scope::MessageBody).expect("policy parses")
}

/// An SNS `MessageAttributes` policy that must parse.
fn attr_policy(policy: &Value) -> FilterPolicy {
    FilterPolicy::parse_sns(&policy.to_string(), Scope::MessageAttributes).expect("policy parses")
}

/// Whether an attributes policy matches attributes given as (name, type, value).
fn attrs_match(policy: &FilterPolicy, attrs: &[(&str, &str, &str)]) -> bool {
    policy.matches_attributes(
        attrs
            .iter()
            .map(|(name, data_type, value)| (*name, MessageAttribute { data_type, value })),
    )
}

/// The refusal of an SNS policy, rendered as SetSubscriptionAttributes words it.
fn sns_refusal(policy: &str, scope: Scope) -> String {
    let err: PatternError = FilterPolicy::parse_sns(policy, scope).expect_err("policy is refused");
    err.sns_message(SnsVia::SetSubscriptionAttributes)
}

/// The refusal of an SNS body-scope policy given as JSON.
fn refusal(policy: &Value) -> String {
    sns_refusal(&policy.to_string(), Scope::MessageBody)
}

#[test]
fn a_policy_matches_a_body_whose_values_it_lists() {
    let p = body_policy(&json!({"store": ["example_corp"]}));
    assert!(p.matches(&json!({"store": "example_corp", "other": 1})));
    assert!(!p.matches(&json!({"store": "other_corp"})));
}
