//! What a failed SDK call says: its error code and message, and the one-step check that a
//! call failed with a given code.

/// The error of a call that must fail with error code `want` (call, unwrap the error,
/// compare its code in one step), handed back for checks of its message or status.
#[track_caller]
pub fn expect_code<T, E, R>(
    result: Result<T, aws_sdk_sqs::error::SdkError<E, R>>,
    want: &str,
) -> aws_sdk_sqs::error::SdkError<E, R>
where
    T: std::fmt::Debug,
    E: aws_sdk_sqs::error::ProvideErrorMetadata + std::fmt::Debug,
    R: std::fmt::Debug,
{
    expect_code_for(result, want, "the call")
}

/// [`expect_code`] for one case of several (a loop's input, say): `context` names it in
/// the panic message.
#[track_caller]
pub fn expect_code_for<T, E, R>(
    result: Result<T, aws_sdk_sqs::error::SdkError<E, R>>,
    want: &str,
    context: impl std::fmt::Display,
) -> aws_sdk_sqs::error::SdkError<E, R>
where
    T: std::fmt::Debug,
    E: aws_sdk_sqs::error::ProvideErrorMetadata + std::fmt::Debug,
    R: std::fmt::Debug,
{
    let err = result.expect_err(&format!("{context} should fail with {want}"));
    assert_eq!(code(&err), want, "{context}: {err:?}");
    err
}

/// The error code the SDK reports for a failed call.
pub fn code<E, R>(err: &aws_sdk_sqs::error::SdkError<E, R>) -> String
where
    E: aws_sdk_sqs::error::ProvideErrorMetadata,
{
    err.as_service_error()
        .and_then(|e| e.code())
        .unwrap_or("<not a service error>")
        .to_owned()
}

pub fn message<E, R>(err: &aws_sdk_sqs::error::SdkError<E, R>) -> String
where
    E: aws_sdk_sqs::error::ProvideErrorMetadata,
{
    err.as_service_error()
        .and_then(|e| e.message())
        .unwrap_or_default()
        .to_owned()
}
