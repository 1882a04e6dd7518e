//! Fault rules against explicit instants: counts, windows, validation, targets.

use super::*;
use crate::config::FAULT_TARGETS;

fn spec(json: &str) -> FaultSpec {
    serde_json::from_str(json).unwrap()
}

#[test]
fn count_retires_the_rule_and_disarms() {
    let faults = Faults::new(FAULT_TARGETS);
    faults
        .add(
            spec(r#"{"action":"SendMessage","error":"RequestThrottled","count":2}"#),
            0,
        )
        .unwrap();
    assert!(faults.check("ReceiveMessage", None, 0).is_none());
    assert!(faults.check("SendMessage", Some("q"), 0).is_some());
    assert!(faults.check("SendMessage", Some("q"), 0).is_some());
    assert!(faults.check("SendMessage", Some("q"), 0).is_none());
    assert!(!faults.armed());
}

#[test]
fn window_follows_the_server_clock() {
    let faults = Faults::new(FAULT_TARGETS);
    faults
        .add(
            spec(r#"{"queue":"q","drop_connection":true,"after_seconds":10,"for_seconds":5}"#),
            1_000,
        )
        .unwrap();
    assert!(faults.check("SendMessage", Some("q"), 10_999).is_none());
    assert!(faults.check("SendMessage", Some("other"), 11_000).is_none());
    assert!(faults.check("SendMessage", Some("q"), 11_000).is_some());
    assert!(faults.check("SendMessage", Some("q"), 16_000).is_none());
    assert!(!faults.armed());
}

#[test]
fn bad_rules_name_the_problem() {
    let err = |j: &str| spec(j).validate(&FAULT_TARGETS).unwrap_err();
    assert!(err(r#"{"action":"SendMesage","error":"InternalError"}"#).contains("SendMessage"));
    assert!(err(r#"{"error":"NoSuchCode"}"#).contains("NoSuchCode"));
    assert!(err(r#"{"action":"SendMessage"}"#).contains("effect"));
    assert!(err(r#"{"error":"InternalError","probability":2}"#).contains("probability"));
}

#[test]
fn rules_keep_to_their_service() {
    let faults = Faults::new(FAULT_TARGETS);
    let sns = |action, topic| Call::Sns { action, topic };
    faults
        .add(spec(r#"{"topic":"orders","error":"Throttled"}"#), 0)
        .unwrap();
    assert!(faults.check("SendMessage", Some("orders"), 0).is_none());
    assert!(faults
        .check_call(&sns("Publish", Some("other")), 0)
        .is_none());
    let hit = faults
        .check_call(&sns("Publish", Some("orders")), 0)
        .unwrap();
    assert_eq!(hit.error.unwrap().code, "Throttled");
    faults.clear();
    faults
        .add(
            spec(r#"{"action":"Deliver","queue":"audit","error":"InternalError"}"#),
            0,
        )
        .unwrap();
    assert!(faults.check("SendMessage", Some("audit"), 0).is_none());
    let delivery = |queue| Call::Delivery { topic: "t", queue };
    assert!(faults.check_call(&delivery("other"), 0).is_none());
    assert!(faults
        .check_call(&delivery("audit"), 0)
        .unwrap()
        .error
        .is_some());
}

#[test]
fn a_code_must_be_in_the_table_of_the_service_it_targets() {
    let err = |j: &str| spec(j).validate(&FAULT_TARGETS).unwrap_err();
    assert!(err(r#"{"action":"Publish","error":"RequestThrottled"}"#).contains("SNS error table"));
    assert!(err(r#"{"action":"SendMessage","error":"Throttled"}"#).contains("SQS error table"));
    assert!(err(r#"{"action":"Publis","error":"Throttled"}"#).contains("`Publish`"));
    assert!(
        err(r#"{"action":"SendMessage","topic":"t","error":"InternalError"}"#).contains("topic")
    );
    // Named by neither, a code either table has is fine.
    assert!(spec(r#"{"error":"Throttled"}"#)
        .validate(&FAULT_TARGETS)
        .is_ok());
}
