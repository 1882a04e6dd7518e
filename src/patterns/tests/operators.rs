//! One test per SNS operator, on bodies and on message attributes.

use serde_json::json;

use super::{attr_policy, attrs_match, body_policy};

#[test]
fn exact_string_is_case_sensitive() {
    let p = body_policy(&json!({"k": ["Rugby"]}));
    assert!(p.matches(&json!({"k": "Rugby"})));
    assert!(!p.matches(&json!({"k": "rugby"})));
}

#[test]
fn exact_number_compares_values_in_sns() {
    let p = body_policy(&json!({"price": [301.5]}));
    assert!(p.matches(&json!({"price": 3.015e2})));
    assert!(!p.matches(&json!({"price": "301.5"})));
}

#[test]
fn exact_null_and_booleans_match_their_literals() {
    let p = body_policy(&json!({"a": [null], "b": [true]}));
    assert!(p.matches(&json!({"a": null, "b": true})));
    assert!(!p.matches(&json!({"a": "null", "b": true})));
    assert!(
        !p.matches(&json!({"b": true})),
        "null does not match an absent key"
    );
}

#[test]
fn empty_string_value_matches_an_empty_string() {
    let p = body_policy(&json!({"last": [""]}));
    assert!(p.matches(&json!({"last": ""})));
    assert!(!p.matches(&json!({"last": "x"})));
}

#[test]
fn prefix_matches_string_starts_only() {
    let p = body_policy(&json!({"k": [{"prefix": "bas"}]}));
    assert!(p.matches(&json!({"k": "basketball"})));
    assert!(!p.matches(&json!({"k": "rugby"})));
    assert!(!p.matches(&json!({"k": 123})));
}

#[test]
fn suffix_matches_string_ends_only() {
    let p = body_policy(&json!({"k": [{"suffix": "ball"}]}));
    assert!(p.matches(&json!({"k": "baseball"})));
    assert!(!p.matches(&json!({"k": "ballet"})));
}

#[test]
fn equals_ignore_case_folds_both_sides() {
    let p = body_policy(&json!({"k": [{"equals-ignore-case": "SoCcEr"}]}));
    assert!(p.matches(&json!({"k": "soccer"})));
    assert!(p.matches(&json!({"k": "SOCCER"})));
    assert!(!p.matches(&json!({"k": "socce"})));
}

#[test]
fn anything_but_single_string_excludes_that_value() {
    let p = body_policy(&json!({"k": [{"anything-but": "rugby"}]}));
    assert!(p.matches(&json!({"k": "tennis"})));
    assert!(!p.matches(&json!({"k": "rugby"})));
    assert!(
        !p.matches(&json!({"other": 1})),
        "an absent key is not 'anything but'"
    );
}

#[test]
fn anything_but_string_list_excludes_each_value() {
    let p = body_policy(&json!({"k": [{"anything-but": ["rugby", "tennis"]}]}));
    assert!(p.matches(&json!({"k": "baseball"})));
    assert!(!p.matches(&json!({"k": "tennis"})));
}

#[test]
fn anything_but_number_list_compares_values() {
    let p = body_policy(&json!({"price": [{"anything-but": [100, 500]}]}));
    assert!(p.matches(&json!({"price": 100.1})));
    assert!(!p.matches(&json!({"price": 1.0e2})));
}

#[test]
fn anything_but_single_number_excludes_it() {
    let p = body_policy(&json!({"price": [{"anything-but": 100}]}));
    assert!(p.matches(&json!({"price": 101})));
    assert!(!p.matches(&json!({"price": 100})));
}

#[test]
fn anything_but_prefix_excludes_the_prefix() {
    let p = body_policy(&json!({"event": [{"anything-but": {"prefix": "order-"}}]}));
    assert!(p.matches(&json!({"event": "data-entry"})));
    assert!(p.matches(&json!({"event": "order_number"})));
    assert!(!p.matches(&json!({"event": "order-cancelled"})));
}

#[test]
fn anything_but_on_a_string_array_needs_every_element_allowed() {
    let p = attr_policy(&json!({"interests": [{"anything-but": ["rugby", "tennis"]}]}));
    assert!(attrs_match(
        &p,
        &[("interests", "String.Array", r#"["soccer","baseball"]"#)]
    ));
    assert!(!attrs_match(
        &p,
        &[("interests", "String.Array", r#"["rugby","baseball"]"#)]
    ));
}

#[test]
fn anything_but_combines_with_exists_false() {
    let p = body_policy(&json!({"k": [{"anything-but": "x"}, {"exists": false}]}));
    assert!(p.matches(&json!({"other": 1})));
    assert!(p.matches(&json!({"k": "y"})));
    assert!(!p.matches(&json!({"k": "x"})));
}

#[test]
fn numeric_equals_matches_equal_values_in_any_notation() {
    let p = body_policy(&json!({"price_usd": [{"numeric": ["=", 301.5]}]}));
    assert!(p.matches(&json!({"price_usd": 301.5})));
    assert!(p.matches(&json!({"price_usd": 3.015e2})));
    assert!(!p.matches(&json!({"price_usd": "301.5"})));
}

#[test]
fn numeric_single_bounds_are_strict_or_inclusive_as_written() {
    let lt = body_policy(&json!({"n": [{"numeric": ["<", 0]}]}));
    assert!(lt.matches(&json!({"n": -0.5})) && !lt.matches(&json!({"n": 0})));
    let le = body_policy(&json!({"n": [{"numeric": ["<=", 0]}]}));
    assert!(le.matches(&json!({"n": 0})));
    let gt = body_policy(&json!({"n": [{"numeric": [">", 10]}]}));
    assert!(gt.matches(&json!({"n": 10.5})) && !gt.matches(&json!({"n": 10})));
    let ge = body_policy(&json!({"n": [{"numeric": [">=", 10]}]}));
    assert!(ge.matches(&json!({"n": 10})));
}

#[test]
fn numeric_range_with_two_bounds() {
    let p = body_policy(&json!({"price_usd": [{"numeric": [">", 0, "<=", 150]}]}));
    assert!(p.matches(&json!({"price_usd": 150})));
    assert!(p.matches(&json!({"price_usd": 0.00001})));
    assert!(!p.matches(&json!({"price_usd": 0})));
    assert!(!p.matches(&json!({"price_usd": 150.00001})));
}

#[test]
fn numeric_precision_is_five_decimals_in_sns() {
    let p = body_policy(&json!({"n": [{"numeric": ["=", 1.000_001]}]}));
    assert!(
        p.matches(&json!({"n": 1.0})),
        "beyond 5 decimals the values are equal"
    );
    assert!(!p.matches(&json!({"n": 1.00001})));
}

#[test]
fn numeric_values_beyond_a_billion_never_match_in_sns() {
    let p = body_policy(&json!({"n": [{"numeric": [">", 0]}]}));
    assert!(p.matches(&json!({"n": 1.0e9})));
    assert!(!p.matches(&json!({"n": 1.5e9})));
}

#[test]
fn exists_true_needs_a_non_null_non_empty_leaf() {
    let p = body_policy(&json!({"store": [{"exists": true}]}));
    assert!(p.matches(&json!({"store": "fans"})));
    assert!(!p.matches(&json!({"other": "fans"})));
    assert!(!p.matches(&json!({"store": null})));
    assert!(
        !p.matches(&json!({"store": {"nested": 1}})),
        "exists only sees leaves"
    );
}

#[test]
fn exists_false_matches_absent_keys_only() {
    let p = body_policy(&json!({"store": [{"exists": false}]}));
    assert!(p.matches(&json!({"other": 1})));
    assert!(!p.matches(&json!({"store": "fans"})));
}

#[test]
fn cidr_matches_ipv4_addresses_in_the_network() {
    let p = body_policy(&json!({"source_ip": [{"cidr": "10.0.0.0/24"}]}));
    assert!(p.matches(&json!({"source_ip": "10.0.0.0"})));
    assert!(p.matches(&json!({"source_ip": "10.0.0.255"})));
    assert!(!p.matches(&json!({"source_ip": "10.1.1.0"})));
    assert!(!p.matches(&json!({"source_ip": "not-an-ip"})));
}

#[test]
fn cidr_matches_ipv6_addresses_in_the_network() {
    let p = body_policy(&json!({"ip": [{"cidr": "2001:db8::/32"}]}));
    assert!(p.matches(&json!({"ip": "2001:db8:1::7"})));
    assert!(!p.matches(&json!({"ip": "2001:db9::1"})));
    assert!(!p.matches(&json!({"ip": "10.0.0.1"})));
}

#[test]
fn or_operator_matches_either_alternative() {
    let p = body_policy(&json!({
        "source": ["aws.cloudwatch"],
        "$or": [{"metricName": ["CPUUtilization"]}, {"namespace": ["AWS/EC2"]}]
    }));
    assert!(p.matches(&json!({"source": "aws.cloudwatch", "namespace": "AWS/EC2"})));
    assert!(p.matches(&json!({"source": "aws.cloudwatch", "metricName": "CPUUtilization"})));
    assert!(!p.matches(&json!({"source": "aws.cloudwatch"})));
    assert!(!p.matches(&json!({"namespace": "AWS/EC2"})));
}

#[test]
fn nested_keys_match_nested_bodies_and_dotted_keys() {
    let p = body_policy(&json!({"object": {"nested": ["string.value"]}}));
    assert!(p.matches(&json!({"object": {"nested": "string.value"}})));
    assert!(p.matches(&json!({"object.nested": "string.value"})));
    assert!(!p.matches(&json!({"object": "string.value"})));
}

#[test]
fn a_body_array_matches_when_any_element_does() {
    let p = body_policy(&json!({"headers": {"route-to": ["queue2"]}}));
    assert!(p.matches(&json!({"headers": {"route-to": ["queue1", "queue2"]}})));
    assert!(!p.matches(&json!({"headers": {"route-to": ["queue1"]}})));
}

#[test]
fn arrays_of_objects_match_within_one_element() {
    let p = body_policy(&json!({"employees": {"first": ["Anna"], "last": ["Jones"]}}));
    let split = json!({"employees": [{"first": "Anna", "last": "Smith"}, {"first": "Peter", "last": "Jones"}]});
    assert!(!p.matches(&split));
    let together =
        json!({"employees": [[{"first": "Peter"}], [{"first": "Anna", "last": "Jones"}]]});
    assert!(p.matches(&together));
}

#[test]
fn string_array_attribute_matches_when_any_element_does() {
    let p = attr_policy(&json!({"interests": ["rugby", "tennis"]}));
    assert!(attrs_match(
        &p,
        &[("interests", "String.Array", r#"["rugby","tennis"]"#)]
    ));
    assert!(!attrs_match(
        &p,
        &[("interests", "String.Array", r#"["baseball"]"#)]
    ));
}

#[test]
fn number_attributes_compare_numerically() {
    let p = attr_policy(&json!({"price_usd": [{"numeric": ["=", 301.5]}]}));
    assert!(attrs_match(&p, &[("price_usd", "Number", "3.015e2")]));
    assert!(
        !attrs_match(&p, &[("price_usd", "String", "301.5")]),
        "a String attribute is not a number"
    );
}

#[test]
fn binary_attributes_never_match_by_value() {
    let p = attr_policy(&json!({"blob": ["AAEC"]}));
    assert!(!attrs_match(&p, &[("blob", "Binary", "AAEC")]));
    let absent = attr_policy(&json!({"blob": [{"exists": false}]}));
    assert!(attrs_match(&absent, &[("blob", "Binary", "AAEC")]));
}

#[test]
fn attributes_of_the_wrong_type_do_not_match() {
    let p = attr_policy(&json!({"k": [{"prefix": "1"}]}));
    assert!(!attrs_match(&p, &[("k", "Number", "123")]));
    assert!(attrs_match(&p, &[("k", "String", "123")]));
}

#[test]
fn and_logic_needs_every_key() {
    let p = attr_policy(
        &json!({"customer_interests": ["rugby"], "price_usd": [{"numeric": [">", 100]}]}),
    );
    assert!(attrs_match(
        &p,
        &[
            ("customer_interests", "String", "rugby"),
            ("price_usd", "Number", "101")
        ]
    ));
    assert!(!attrs_match(
        &p,
        &[
            ("customer_interests", "String", "rugby"),
            ("price_usd", "Number", "100")
        ]
    ));
    assert!(!attrs_match(
        &p,
        &[("customer_interests", "String", "rugby")]
    ));
}

#[test]
fn numbers_beyond_the_numeric_range_still_match_exactly_by_text() {
    let p = body_policy(&json!({"account": [123_456_789_012_u64]}));
    assert!(p.matches(&json!({"account": 123_456_789_012_u64})));
    assert!(!p.matches(&json!({"account": 123_456_789_013_u64})));
}

#[test]
fn a_body_that_is_not_json_matches_no_body_policy() {
    let p = body_policy(&json!({"k": [{"exists": false}]}));
    assert!(p.matches_body(r#"{"other": 1}"#));
    assert!(!p.matches_body("plain text"));
}
