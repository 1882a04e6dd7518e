//! Unit tests of invoke.rs.

use super::*;

fn spec(json: &str) -> FaultSpec {
    serde_json::from_str(json).unwrap()
}

const T: InvokeTarget<'static> = InvokeTarget {
    function: "f",
    mapping: "m-1",
    queue: "orders",
};

#[test]
fn invoke_rules_match_invocations_only() {
    let faults = Faults::new(crate::config::FAULT_TARGETS);
    let rule = r#"{"action":"Invoke","function":"f","error":"Unhandled","count":1}"#;
    faults.add(spec(rule), 0).unwrap();
    faults.add(spec(r#"{"error":"InternalError"}"#), 0).unwrap();
    let other = InvokeTarget { function: "g", ..T };
    assert!(faults.check_invoke(&other, 0).is_none());
    let hit = faults.check_invoke(&T, 0).unwrap();
    assert_eq!(hit.error.as_deref(), Some("Unhandled"));
    // Retired after its one hit; the SQS rule never matches an invocation.
    assert!(faults.check_invoke(&T, 0).is_none());
    assert!(faults.check("SendMessage", Some("orders"), 0).is_some());
}

#[test]
fn delay_is_server_clock_milliseconds() {
    let faults = Faults::new(crate::config::FAULT_TARGETS);
    let rule = r#"{"action":"Invoke","mapping":"m-1","delay_seconds":2.5}"#;
    faults.add(spec(rule), 0).unwrap();
    let hit = faults.check_invoke(&T, 0).unwrap();
    assert_eq!((hit.delay, hit.error), (2_500, None));
}

#[test]
fn bad_invoke_rules_name_the_problem() {
    let err = |j: &str| spec(j).validate(&crate::config::FAULT_TARGETS).unwrap_err();
    assert!(err(r#"{"action":"Invoke"}"#).contains("effect"));
    assert!(err(r#"{"action":"Invoke","drop_connection":true}"#).contains("drop_connection"));
    assert!(err(r#"{"action":"Invoke","delay_seconds":-1}"#).contains("delay_seconds"));
    assert!(err(r#"{"function":"f","error":"InternalError"}"#).contains("Invoke"));
    assert!(err(r#"{"action":"SendMessage","delay_seconds":1}"#).contains("Invoke"));
}
