//! One test per refusal. Texts marked "recorded" are AWS's (LocalStack's AWS-validated
//! snapshots of `test_sns_filter_policy.py`, 2024-05, Jackson's position suffix aside).

use serde_json::json;

use super::{refusal, sns_refusal};
use crate::patterns::{FilterPolicy, PatternErrorKind, Scope, SnsVia};

const LEAD: &str = "Invalid parameter: FilterPolicy: ";

fn says(policy: &serde_json::Value, reason: &str) {
    assert_eq!(
        refusal(policy),
        format!("{LEAD}{reason}"),
        "policy {policy}"
    );
}

#[test]
fn subscribe_words_the_lead_with_attributes_reason() {
    let err =
        FilterPolicy::parse_sns(r#"{"key":[["value"]]}"#, Scope::MessageAttributes).unwrap_err();
    assert_eq!(
        err.sns_message(SnsVia::Subscribe),
        "Invalid parameter: Attributes Reason: FilterPolicy: Match value must be String, number, true, false, or null"
    );
    assert_eq!(err.kind(), PatternErrorKind::Syntax);
}

#[test]
fn nested_array_value_is_refused_recorded() {
    says(
        &json!({"key": [["value"]]}),
        "Match value must be String, number, true, false, or null",
    );
}

#[test]
fn unknown_operator_is_refused_recorded() {
    says(
        &json!({"key": [{"wrong-operator": true}]}),
        "Unrecognized match type wrong-operator",
    );
}

#[test]
fn two_operators_in_one_expression_are_refused_recorded() {
    says(
        &json!({"key": [{"suffix": "value", "prefix": "value2"}]}),
        "Only one key allowed in match expression",
    );
}

#[test]
fn non_string_suffix_is_refused_recorded() {
    for arg in [json!(100), json!(null), json!([]), json!(["test", "test2"])] {
        says(
            &json!({"key": [{"suffix": arg}]}),
            "suffix match pattern must be a string",
        );
    }
}

#[test]
fn non_string_prefix_and_equals_ignore_case_are_refused() {
    says(
        &json!({"key": [{"prefix": 1}]}),
        "prefix match pattern must be a string",
    );
    says(
        &json!({"key": [{"equals-ignore-case": 1}]}),
        "equals-ignore-case match pattern must be a string",
    );
}

#[test]
fn a_key_holding_a_scalar_is_refused_recorded() {
    says(
        &json!({"key": {"suffix": "value"}}),
        "\"suffix\" must be an object or an array",
    );
    says(
        &json!({"key_a": "value_one"}),
        "\"key_a\" must be an object or an array",
    );
}

#[test]
fn numeric_without_members_is_refused_recorded() {
    says(
        &json!({"key": [{"numeric": []}]}),
        "Invalid member in numeric match: ]",
    );
    says(
        &json!({"key": [{"numeric": [1, "<="]}]}),
        "Invalid member in numeric match: 1",
    );
}

#[test]
fn numeric_unknown_operator_is_refused_recorded() {
    says(
        &json!({"key": [{"numeric": ["operator"]}]}),
        "Unrecognized numeric range operator: operator",
    );
}

#[test]
fn numeric_non_number_values_are_refused_recorded() {
    says(
        &json!({"key": [{"numeric": ["=", "000"]}]}),
        "Value of equals must be numeric",
    );
    says(
        &json!({"key": [{"numeric": [">="]}]}),
        "Value of >= must be numeric",
    );
    says(
        &json!({"key": [{"numeric": [">", "20", "<", "30"]}]}),
        "Value of > must be numeric",
    );
    says(
        &json!({"key": [{"numeric": [">", 20, "<", "30"]}]}),
        "Value of < must be numeric",
    );
    says(
        &json!({"key": [{"numeric": [">", 20, "<="]}]}),
        "Value of <= must be numeric",
    );
}

#[test]
fn numeric_range_shape_errors_are_refused_recorded() {
    says(
        &json!({"key": [{"numeric": ["<", 100, ">", 10]}]}),
        "Too many elements in numeric expression",
    );
    says(
        &json!({"key": [{"numeric": [">=", 1, ">", 2]}]}),
        "Bad numeric range operator: >",
    );
    says(
        &json!({"key": [{"numeric": [">", 20, "test"]}]}),
        "Bad numeric range operator: test",
    );
    says(
        &json!({"key": [{"numeric": [">", 20, 30]}]}),
        "Bad value in numeric range: 30",
    );
    says(
        &json!({"key": [{"numeric": [">", 20, "<", 30, "<", 50]}]}),
        "Too many terms in numeric range expression",
    );
}

#[test]
fn numeric_bottom_above_top_is_refused_recorded() {
    says(
        &json!({"key": [{"numeric": [">", 3, "<", 1]}]}),
        "Bottom must be less than top",
    );
}

#[test]
fn numeric_not_an_array_is_refused() {
    says(
        &json!({"key": [{"numeric": 5}]}),
        "Value of numeric must be an array.",
    );
}

#[test]
fn numeric_beyond_sns_range_is_refused() {
    says(
        &json!({"key": [{"numeric": [">", 2.0e9]}]}),
        "Value must be between -1.0E9 and 1.0E9, inclusive",
    );
}

#[test]
fn exists_needs_a_boolean_recorded() {
    for arg in [json!(null), json!("no")] {
        says(
            &json!({"key": [{"exists": arg}]}),
            "exists match pattern must be either true or false.",
        );
    }
}

#[test]
fn anything_but_unknown_or_suffix_pattern_is_refused_in_sns_recorded() {
    says(
        &json!({"key": [{"anything-but": {"wrong-operator": null}}]}),
        "Unsupported anything-but pattern: wrong-operator",
    );
    says(
        &json!({"key": [{"anything-but": {"suffix": "test"}}]}),
        "Unsupported anything-but pattern: suffix",
    );
    says(
        &json!({"key": [{"anything-but": {"exists": false}}]}),
        "Unsupported anything-but pattern: exists",
    );
}

#[test]
fn anything_but_prefix_needs_a_string_recorded() {
    says(
        &json!({"key": [{"anything-but": {"prefix": false}}]}),
        "prefix match pattern must be a string",
    );
    says(
        &json!({"key": [{"anything-but": {"prefix": ""}}]}),
        "Null prefix/suffix not allowed",
    );
}

#[test]
fn anything_but_lists_must_be_all_strings_or_all_numbers() {
    let mixed = "Inside anything but list, either all values are number or string, mixed type is not supported";
    says(&json!({"key": [{"anything-but": ["a", 1]}]}), mixed);
    says(&json!({"key": [{"anything-but": []}]}), mixed);
    says(
        &json!({"key": [{"anything-but": [true]}]}),
        "Inside anything but list, start|null|boolean is not supported.",
    );
    says(
        &json!({"key": [{"anything-but": null}]}),
        "Value of anything-but must be an array or single string/number value.",
    );
}

#[test]
fn empty_arrays_and_objects_are_refused() {
    says(&json!({"key": []}), "Empty arrays are not allowed");
    says(&json!({}), "Empty objects are not allowed");
    says(&json!({"key": [{}]}), "Match expression name not found");
}

#[test]
fn a_policy_that_is_not_an_object_is_refused() {
    says(&json!(["a"]), "Filter is not an object");
}

#[test]
fn text_that_is_not_json_is_refused_as_invalid_json() {
    let err = FilterPolicy::parse_sns("{\"a\": [", Scope::MessageBody).unwrap_err();
    assert_eq!(err.kind(), PatternErrorKind::InvalidJson);
    assert!(err
        .to_string()
        .starts_with("Invalid parameter: FilterPolicy: "));
}

#[test]
fn or_must_hold_two_or_more_objects() {
    says(
        &json!({"$or": [{"a": ["x"]}]}),
        "There must have at least 2 Objects in $or relationship.",
    );
    says(
        &json!({"$or": {"a": ["x"]}}),
        "It must be an Array followed with $or.",
    );
    says(
        &json!({"$or": [{"a": ["x"]}, "b"]}),
        "Only JSON object is allowed in array of $or relationship.",
    );
    says(
        &json!({"$or": [{"prefix": ["x"]}, {"b": ["y"]}]}),
        "prefix is Ruler reserved fieldName which cannot be used inside $or.",
    );
}

#[test]
fn nested_policy_under_message_attributes_is_refused_recorded() {
    let text = json!({"object": {"key": [{"prefix": "auto-"}]}}).to_string();
    assert_eq!(
        sns_refusal(&text, Scope::MessageAttributes),
        "Invalid parameter: Filter policy scope MessageAttributes does not support nested filter policy"
    );
    assert!(FilterPolicy::parse_sns(&text, Scope::MessageBody).is_ok());
}
