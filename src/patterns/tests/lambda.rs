//! The Lambda dialect: EventBridge's operators, its number rules, FilterCriteria and SQS bodies.

use serde_json::json;

use crate::patterns::limits::LAMBDA_DEFAULT_MAX_FILTERS;
use crate::patterns::{FilterCriteria, FilterPolicy, PatternErrorKind};

fn lambda(p: &serde_json::Value) -> FilterPolicy {
    FilterPolicy::parse_lambda(&p.to_string()).expect("pattern parses")
}

#[test]
fn plain_numbers_compare_as_text_in_lambda() {
    let p = lambda(&json!({"n": [300]}));
    assert!(p.matches(&json!({"n": 300})));
    assert!(!p.matches(&json!({"n": 300.0})));
}

#[test]
fn numeric_operators_compare_values_in_lambda() {
    let p = lambda(&json!({"n": [{"numeric": ["=", 300]}]}));
    assert!(p.matches(&json!({"n": 3.0e2})));
}

#[test]
fn lambda_numbers_reach_five_billion_with_six_decimals() {
    let p = lambda(&json!({"n": [{"numeric": [">", 4.0e9]}]}));
    assert!(p.matches(&json!({"n": 4.5e9})));
    let fine = lambda(&json!({"n": [{"numeric": ["=", 1.000_001]}]}));
    assert!(!fine.matches(&json!({"n": 1.0})));
    let err = FilterPolicy::parse_lambda(r#"{"n":[{"numeric":[">",6e9]}]}"#).unwrap_err();
    assert_eq!(
        err.reason(),
        "Value must be between -5.0E9 and 5.0E9, inclusive"
    );
}

#[test]
fn lambda_takes_anything_but_suffix_and_equals_ignore_case() {
    let p = lambda(&json!({"k": [{"anything-but": {"suffix": ".tmp"}}]}));
    assert!(p.matches(&json!({"k": "a.txt"})) && !p.matches(&json!({"k": "a.tmp"})));
    let q = lambda(&json!({"k": [{"anything-but": {"equals-ignore-case": ["Red", "BLUE"]}}]}));
    assert!(q.matches(&json!({"k": "green"})) && !q.matches(&json!({"k": "blue"})));
}

#[test]
fn lambda_anything_but_on_an_array_needs_one_allowed_element() {
    let p = lambda(&json!({"k": [{"anything-but": ["a"]}]}));
    assert!(p.matches(&json!({"k": ["a", "b"]})));
}

#[test]
fn lambda_exists_counts_null_leaves() {
    let p = lambda(&json!({"k": [{"exists": true}]}));
    assert!(p.matches(&json!({"k": null})));
}

#[test]
fn lambda_has_no_sns_key_limit() {
    let p = json!({"a": ["1"], "b": ["2"], "c": ["3"], "d": ["4"], "e": ["5"], "f": ["6"]});
    assert!(FilterPolicy::parse_lambda(&p.to_string()).is_ok());
}

#[test]
fn lambda_patterns_over_4096_characters_are_refused() {
    let long = format!("{{\"k\": [\"{}\"]}}", "x".repeat(4096));
    assert_eq!(
        FilterPolicy::parse_lambda(&long).unwrap_err().kind(),
        PatternErrorKind::TooLong
    );
}

#[test]
fn filter_criteria_matches_when_any_pattern_does() {
    let c = FilterCriteria::parse(
        [r#"{"a":["1"]}"#, r#"{"b":["2"]}"#],
        LAMBDA_DEFAULT_MAX_FILTERS,
    )
    .unwrap();
    assert!(c.matches(&json!({"b": "2"})));
    assert!(!c.matches(&json!({"c": "3"})));
    assert!(
        FilterCriteria::default().matches(&json!({})),
        "no patterns let everything through"
    );
}

#[test]
fn filter_criteria_refuses_more_than_the_quota() {
    let six = vec![r#"{"a":["1"]}"#; 6];
    let err = FilterCriteria::parse(six, LAMBDA_DEFAULT_MAX_FILTERS).unwrap_err();
    assert_eq!(err.kind(), PatternErrorKind::TooManyFilters);
}

fn record() -> serde_json::Value {
    json!({"messageId": "m-1", "eventSource": "aws:sqs", "attributes": {"ApproximateReceiveCount": "1"}})
}

#[test]
fn sqs_json_body_pattern_matches_json_bodies() {
    let p = lambda(&json!({"body": {"RequestCode": ["BBBB"]}}));
    assert!(p.matches_sqs_record(&record(), r#"{"RequestCode": "BBBB"}"#));
    assert!(!p.matches_sqs_record(&record(), r#"{"RequestCode": "AAAA"}"#));
}

#[test]
fn sqs_json_body_pattern_drops_plain_bodies() {
    let p = lambda(&json!({"body": {"RequestCode": ["BBBB"]}}));
    assert!(!p.matches_sqs_record(&record(), "RequestCode BBBB"));
}

#[test]
fn sqs_plain_body_pattern_matches_plain_bodies_only() {
    let p = lambda(&json!({"body": [{"prefix": "ERROR"}]}));
    assert!(p.matches_sqs_record(&record(), "ERROR: disk full"));
    assert!(!p.matches_sqs_record(&record(), r#"{"ERROR": 1}"#));
}

#[test]
fn sqs_pattern_without_body_ignores_the_body() {
    let p = lambda(&json!({"eventSource": ["aws:sqs"]}));
    assert!(p.matches_sqs_record(&record(), "not json"));
    assert!(p.matches_sqs_record(&record(), "{\"x\": 1}"));
}
