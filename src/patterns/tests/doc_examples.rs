//! The SNS developer guide's filter-policy examples, retold as fixtures: a shop's
//! transaction message (example-filter-policies), payload-based filtering of an S3-style
//! event (sns-message-filtering), and the `$or` operator (and-or-logic).

use serde_json::json;

use super::{attr_policy, attrs_match, body_policy};

/// The guide's transaction: interests as a String.Array, store, event and a Number price.
const SALE: &[(&str, &str, &str)] = &[
    (
        "customer_interests",
        "String.Array",
        r#"["soccer", "rugby", "hockey"]"#,
    ),
    ("store", "String", "example_corp"),
    ("event", "String", "order_placed"),
    ("price_usd", "Number", "210.75"),
];

#[test]
fn guide_policy_that_accepts_the_transaction() {
    let p = attr_policy(&json!({
        "store": ["example_corp"],
        "event": [{"anything-but": "order_cancelled"}],
        "customer_interests": ["rugby", "football", "baseball"],
        "price_usd": [{"numeric": [">=", 100]}]
    }));
    assert!(attrs_match(&p, SALE));
}

#[test]
fn guide_policy_that_rejects_the_transaction() {
    // `encrypted` is absent from the message, so the policy fails whatever else matches.
    let p = attr_policy(&json!({
        "store": ["example_corp"],
        "event": ["order_cancelled"],
        "encrypted": [false],
        "customer_interests": ["basketball", "baseball"]
    }));
    assert!(!attrs_match(&p, SALE));
    let without_encrypted =
        attr_policy(&json!({"store": ["example_corp"], "customer_interests": ["rugby"]}));
    assert!(attrs_match(&without_encrypted, SALE));
}

#[test]
fn guide_exists_example_on_attributes() {
    let present = attr_policy(&json!({"store": [{"exists": true}]}));
    assert!(attrs_match(&present, SALE));
    let absent = attr_policy(&json!({"store": [{"exists": false}]}));
    assert!(!attrs_match(&absent, SALE));
    assert!(attrs_match(&absent, &SALE[..1]));
}

/// An S3-style notification: records of object events, one object key each.
fn s3_event(name: &str, key: &str) -> serde_json::Value {
    json!({"Records": [{"eventSource": "aws:s3", "eventName": name, "s3": {"object": {"key": key, "size": 17}}}]})
}

#[test]
fn guide_payload_policy_on_nested_records() {
    let p = body_policy(&json!({
        "Records": {
            "s3": {"object": {"key": [{"prefix": "auto-"}]}},
            "eventName": [{"prefix": "ObjectCreated:"}]
        }
    }));
    assert!(p.matches(&s3_event("ObjectCreated:Put", "auto-insurance-2314.xml")));
    assert!(!p.matches(&s3_event("ObjectRemoved:Delete", "auto-insurance-2314.xml")));
    assert!(!p.matches(&s3_event("ObjectCreated:Put", "home-insurance-2314.xml")));
}

#[test]
fn payload_policy_keeps_fields_within_one_record() {
    // AWS delivered this one (LocalStack's AWS-validated array-of-objects test): the created
    // record holds an auto- key inside nested arrays, the removed one a home- key.
    let p = body_policy(&json!({
        "Records": {"s3": {"object": {"key": [{"prefix": "auto-"}]}}, "eventName": [{"prefix": "ObjectCreated:"}]}
    }));
    let mixed = json!({"Records": [
        {"eventName": "ObjectCreated:Put", "s3": {"object": [[{"key": "auto-insurance-2314.xml"}]]}},
        {"eventName": "ObjectRemoved:Delete", "s3": {"object": {"key": "home-insurance-2314.xml"}}}
    ]});
    assert!(p.matches(&mixed));
    let crossed = json!({"Records": [
        {"eventName": "ObjectCreated:Put", "s3": {"object": {"key": "home-insurance.xml"}}},
        {"eventName": "ObjectRemoved:Delete", "s3": {"object": {"key": "auto-insurance.xml"}}}
    ]});
    assert!(!p.matches(&crossed));
}

#[test]
fn guide_or_example_on_a_body_with_a_nested_or() {
    let p = body_policy(&json!({
        "$or": [{"metricName": ["CPUUtilization", "ReadLatency"]}, {"namespace": ["AWS/EC2", "AWS/ES"]}],
        "detail": {"scope": ["Service"], "$or": [{"source": ["aws.cloudwatch"]}, {"type": ["CloudWatch Alarm State Change"]}]}
    }));
    let pass = [
        json!({"metricName": "ReadLatency", "detail": {"scope": "Service", "source": "aws.cloudwatch"}}),
        json!({"namespace": "AWS/ES", "detail": {"scope": "Service", "source": "aws.cloudwatch"}}),
        json!({"metricName": "CPUUtilization", "detail": {"scope": "Service", "type": "CloudWatch Alarm State Change"}}),
    ];
    let fail = [
        json!({"metricName": "CPUUtilization", "detail": {"scope": "aws.cloudwatch", "type": "CloudWatch Alarm State Change"}}),
        json!({"metricName": "CPUUtilization", "detail": {"scope": "Service", "type": "CPUUtilization"}}),
        json!({"metricName": "CPUUtilization", "detail": {"type": "CloudWatch Alarm State Change"}}),
        json!({"metricName": "CPUUtilization", "detail": {"scope": "Service"}}),
        json!({"metricName": "CPUUtilization", "scope": "Service"}),
    ];
    for doc in &pass {
        assert!(p.matches(doc), "should pass: {doc}");
    }
    for doc in &fail {
        assert!(!p.matches(doc), "should fail: {doc}");
    }
}

#[test]
fn guide_numeric_anything_but_on_a_body_array() {
    // A body array passes when one element is neither 100 nor 500 (the guide's `[100, 50]`).
    let p = body_policy(&json!({"price": [{"anything-but": [100, 500]}]}));
    assert!(p.matches(&json!({"price": [100, 50]})));
    assert!(!p.matches(&json!({"price": [100, 500]})));
    assert!(!p.matches(&json!({"price": 100})));
}
