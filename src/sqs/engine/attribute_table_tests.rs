//! Unit tests of the attribute table: round trips, defaults, ranges.

use super::*;

/// Every settable attribute is rendered once set (so a stored queue keeps it), and every
/// rendered one can be set back to the value it renders.
#[test]
fn the_table_round_trips() {
    let mut fifo = QueueAttributes::new(true);
    fifo.kms_master_key_id = Some("alias/aws/sqs".into());
    fifo.redrive_allow_policy =
        RedriveAllowPolicy::parse(r#"{"redrivePermission":"allowAll"}"#).unwrap();
    let rendered = render(&fifo);
    let names: Vec<&str> = rendered.iter().map(|(n, _)| *n).collect();
    let settable: Vec<&str> = settable()
        .filter(|n| !matches!(*n, "Policy" | "RedrivePolicy"))
        .collect();
    assert_eq!(names, settable);
    let mut again = QueueAttributes::new(true);
    for (name, value) in &rendered {
        set(&mut again, name, value, true).unwrap();
    }
    assert_eq!(render(&again), rendered);
    assert!(readable("All") && readable("QueueArn") && !readable("Nope"));
    let err = set(&mut again, "QueueArn", "x", false).unwrap_err();
    assert_eq!(err.message, "Unknown Attribute QueueArn.");
}

/// SQS's defaults for a new queue (the API reference's, as in `limits`),
/// each from its row.
#[test]
fn a_new_queue_takes_each_rows_default() {
    let a = QueueAttributes::new(false);
    let numbers = (
        a.delay_seconds,
        a.maximum_message_size,
        a.message_retention_period,
        a.receive_message_wait_time_seconds,
        a.visibility_timeout,
    );
    assert_eq!(numbers, (0, 1_048_576, 345_600, 0, 30));
    assert!(a.sqs_managed_sse_enabled && a.kms_data_key_reuse_period_seconds.is_none());
    let fifo = QueueAttributes::new(true);
    for (name, value) in render(&fifo) {
        if let Some(default) = spec(name).and_then(Spec::default_value) {
            assert_eq!(value, default, "{name}");
        }
    }
    assert_eq!(render(&fifo).len(), 10);
}

#[test]
fn a_number_outside_its_rows_range_is_refused_with_sqs_message() {
    let row = spec("VisibilityTimeout").unwrap();
    assert_eq!(row.range(), Some(limits::VISIBILITY_TIMEOUT));
    let mut a = QueueAttributes::new(false);
    set(&mut a, "VisibilityTimeout", "43200", false).unwrap();
    let err = set(&mut a, "VisibilityTimeout", "43201", false).unwrap_err();
    assert_eq!(
        err.message,
        "Invalid value for the parameter VisibilityTimeout."
    );
    assert_eq!(a.visibility_timeout, 43_200);
    assert!(spec("QueueArn").unwrap().range().is_none());
}
