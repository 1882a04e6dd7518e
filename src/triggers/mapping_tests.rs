//! The mapping rules: defaults, batch sizes by queue kind, windows and concurrency, the function name.

use super::*;

#[test]
fn defaults_pass_for_both_queue_kinds() {
    assert_eq!(Settings::default().validate(false), Ok(()));
    assert_eq!(Settings::default().validate(true), Ok(()));
}

#[test]
fn batch_sizes_follow_the_queue_kind() {
    let big = Settings {
        batch_size: 10_000,
        maximum_batching_window_seconds: 1,
        ..Settings::default()
    };
    assert_eq!(big.validate(false), Ok(()));
    let err = Settings {
        maximum_batching_window_seconds: 0,
        ..big.clone()
    }
    .validate(false)
    .unwrap_err();
    assert_eq!(err.code(), "InvalidParameterValueException");
    assert!(Settings {
        batch_size: 11,
        ..Settings::default()
    }
    .validate(true)
    .is_err());
    let over = Settings {
        batch_size: 10_001,
        ..big
    };
    assert_eq!(
        over.validate(false).unwrap_err().message(),
        "1 validation error detected: Value '10001' at 'batchSize' failed to satisfy constraint: Member must have value less than or equal to 10000"
    );
}

#[test]
fn windows_and_concurrency_have_bounds() {
    let window = |s| Settings {
        maximum_batching_window_seconds: s,
        ..Settings::default()
    };
    assert!(window(300).validate(false).is_ok());
    assert_eq!(
        window(301).validate(false).unwrap_err().code(),
        "ValidationException"
    );
    assert_eq!(
        window(1).validate(true).unwrap_err().code(),
        "InvalidParameterValueException"
    );
    let cap = |c| Settings {
        maximum_concurrency: Some(c),
        ..Settings::default()
    };
    assert!(cap(2).validate(false).is_ok() && cap(1000).validate(false).is_ok());
    assert!(cap(1).validate(false).is_err() && cap(1001).validate(false).is_err());
}

#[test]
fn function_name_is_the_arn_tail() {
    let m = Mapping::new(
        "arn:aws:lambda:us-east-1:000000000000:function:orders".into(),
        "arn:aws:sqs:us-east-1:000000000000:orders".into(),
        Settings::default(),
        true,
        5,
    );
    assert_eq!((m.function_name(), m.state), ("orders", State::Creating));
    assert_eq!(m.settled_state(), State::Enabled);
}
