//! The mapping rules' small checks: ARN shapes, response types and ranges, in Lambda's words.

use super::*;

#[test]
fn arns_follow_lambdas_pattern() {
    for ok in [
        "arn:aws:sqs:us-east-1:000000000000:orders",
        "arn:aws-us-gov:sqs:us-gov-west-1:000000000000:q.fifo",
        "arn:aws:sqs:::x",
    ] {
        assert!(arn_matches(ok), "{ok}");
    }
    for bad in [
        "orders",
        "arn:aws:sqs:us-east-1:0000:orders",
        "arn:aws:sqs:us-east-12:000000000000:orders",
        "arn:gcp:sqs:us-east-1:000000000000:orders",
        "arn:aws::us-east-1:000000000000:orders",
    ] {
        assert!(!arn_matches(bad), "{bad}");
    }
    assert!(check_arn("orders")
        .unwrap_err()
        .message
        .ends_with(ARN_PATTERN));
}

#[test]
fn response_types_take_one_known_value() {
    assert_eq!(
        response_types(&["ReportBatchItemFailures".into()]).unwrap(),
        vec![FunctionResponseType::ReportBatchItemFailures]
    );
    assert!(response_types(&[]).unwrap().is_empty());
    let err = response_types(&["Nope".into()]).unwrap_err();
    assert_eq!(err.code(), "ValidationException");
    assert!(err
        .message
        .contains("Value '[Nope]' at 'functionResponseTypes'"));
}

#[test]
fn settings_check_ranges_in_the_validators_words() {
    let input = MappingRequest::decode(br#"{"BatchSize": -1}"#).unwrap();
    assert_eq!(
        settings(&input, Settings::default()).unwrap_err().message,
        "1 validation error detected: Value '-1' at 'batchSize' failed to satisfy constraint: Member must have value greater than or equal to 1"
    );
    let input = MappingRequest::decode(br#"{"ScalingConfig": {}}"#).unwrap();
    let base = Settings {
        maximum_concurrency: Some(5),
        ..Settings::default()
    };
    assert_eq!(settings(&input, base).unwrap().maximum_concurrency, None);
}
