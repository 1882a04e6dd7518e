//! SNS's key, combination and size limits; the refused/accepted pairs are AWS's
//! (LocalStack's AWS-validated `test_policy_complexity*`, `..._nested_property_constraints`).

use serde_json::{json, Value};

use super::{body_policy, refusal, sns_refusal};
use crate::patterns::limits::SNS_MAX_POLICY_BYTES;
use crate::patterns::{FilterPolicy, PatternErrorKind, Scope};

const TOO_COMPLEX: &str = "Invalid parameter: FilterPolicy: Filter policy is too complex";

fn values(prefix: &str, n: usize) -> Value {
    Value::Array((0..n).map(|i| json!(format!("{prefix}{i}"))).collect())
}

#[test]
fn one_key_with_151_values_is_too_complex() {
    assert_eq!(refusal(&json!({"key": values("v", 151)})), TOO_COMPLEX);
    assert_eq!(
        body_policy(&json!({"key": values("v", 150)})).combinations(),
        150
    );
}

#[test]
fn two_keys_multiply_their_value_counts() {
    let p = json!({"key1": values("a", 100), "key2": values("b", 51)});
    assert_eq!(refusal(&p), TOO_COMPLEX);
    assert_eq!(
        body_policy(&json!({"a": values("a", 3), "b": ["x"], "c": values("c", 2)})).combinations(),
        6
    );
}

#[test]
fn six_keys_are_too_many() {
    let p = json!({"k1": ["1"], "k2": ["2"], "k3": ["3"], "k4": ["4"], "k5": ["5"], "k6": ["6"]});
    assert_eq!(
        sns_refusal(&p.to_string(), Scope::MessageAttributes),
        "Invalid parameter: FilterPolicy: Filter policy can not have more than 5 keys"
    );
}

#[test]
fn body_scope_counts_only_top_level_keys() {
    // The guide's example: six leaves under four top-level keys.
    let p = json!({
        "state": ["SUCCESS"], "severity": [{"exists": true}], "message": [{"exists": true}],
        "finding": {"standard_control": [{"exists": true}], "region": [{"exists": true}], "account": [{"exists": true}]}
    });
    assert!(FilterPolicy::parse_sns(&p.to_string(), Scope::MessageBody).is_ok());
}

/// source × ($or: metricName | metricType × ($or: metricId | spaceId)).
fn or_policy(sources: usize, space_ids: usize) -> Value {
    json!({
        "source": values("s", sources),
        "$or": [
            {"metricName": values("m", 6)},
            {"metricType": values("t", 4), "$or": [{"metricId": [1234, 4321, 5678, 9012]}, {"spaceId": values("x", space_ids)}]}
        ]
    })
}

#[test]
fn or_branches_add_their_products() {
    // 4×6 + 4×4×4 + 4×4×4 = 152: refused by AWS.
    assert_eq!(
        sns_refusal(&or_policy(4, 4).to_string(), Scope::MessageAttributes),
        TOO_COMPLEX
    );
    // 3×6 + 3×4×4 + 3×4×7 = 150: accepted by AWS.
    let accepted =
        FilterPolicy::parse_sns(&or_policy(3, 7).to_string(), Scope::MessageAttributes).unwrap();
    assert_eq!(accepted.combinations(), 150);
}

#[test]
fn nested_keys_weigh_their_depth() {
    // The guide's example: 3×4 × 2×3 × 1×3 = 216.
    let p = json!({
        "key_a": {"key_b": {"key_c": values("v", 4)}},
        "key_d": {"key_e": values("v", 3)},
        "key_f": values("v", 3)
    });
    assert_eq!(refusal(&p), TOO_COMPLEX);
}

#[test]
fn nested_or_adds_weighted_products() {
    // (3×4×2) + (3×4×6) + (2×4×2) + (2×4×6) = 160: refused by AWS.
    let p = json!({
        "$or": [{"metricName": values("m", 3)}, {"namespace": values("n", 2)}],
        "detail": {"scope": values("s", 2), "$or": [{"source": ["aws.cloudwatch"]}, {"type": values("t", 3)}]}
    });
    assert_eq!(refusal(&p), TOO_COMPLEX);
}

#[test]
fn a_policy_over_256_kb_is_too_long() {
    let long = format!("{{\"k\": [\"{}\"]}}", "x".repeat(SNS_MAX_POLICY_BYTES));
    let err = FilterPolicy::parse_sns(&long, Scope::MessageAttributes).unwrap_err();
    assert_eq!(err.kind(), PatternErrorKind::TooLong);
}

#[test]
fn or_expansion_is_bounded_before_it_explodes() {
    let alt = json!([{"a": ["1"]}, {"b": ["2"]}, {"c": ["3"]}, {"d": ["4"]}]);
    let p = json!({"x": {"$or": alt}, "y": {"$or": alt}, "z": {"$or": alt}, "w": {"$or": alt}});
    let err = FilterPolicy::parse_sns(&p.to_string(), Scope::MessageBody).unwrap_err();
    assert_eq!(err.kind(), PatternErrorKind::TooComplex);
}
