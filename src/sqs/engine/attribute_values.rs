//! How the text rows of [`attribute_table`](super::attribute_table) read their values, and
//! SQS's messages for a name or value it refuses.

use std::sync::Arc;

use super::attributes::QueueAttributes;
use crate::policy::Policy;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

/// Policy: parsed (and so validated) once when set, so each request's authorization reads a parsed
/// policy; empty removes it.
pub(super) fn set_policy(a: &mut QueueAttributes, _: &str, value: &str, _: bool) -> SqsResult<()> {
    a.policy = non_empty(value)
        .map(|text| Policy::parse(&text).map(Arc::new))
        .transpose()?;
    Ok(())
}

/// Restating a FIFO queue's type is accepted; changing it never is [aws-recorded:
/// SetQueueAttributes FifoQueue=true on a FIFO queue succeeds].
pub(super) fn set_fifo_queue(
    a: &mut QueueAttributes,
    name: &str,
    value: &str,
    creating: bool,
) -> SqsResult<()> {
    if boolean(name, value)? == a.fifo_queue {
        return Ok(());
    }
    Err(if creating {
        invalid_value(name)
    } else {
        SqsError::new(
            ErrorKind::InvalidAttributeValue,
            "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.",
        )
    })
}

/// InvalidAttributeName for a name SQS does not know, or one it computes and so refuses to set.
pub(super) fn unknown_attribute(name: &str) -> SqsError {
    SqsError::new(
        ErrorKind::InvalidAttributeName,
        format!("Unknown Attribute {name}."),
    )
}

/// InvalidAttributeValue in SQS's wording, for a value out of range or of the wrong form.
pub(super) fn invalid_value(name: &str) -> SqsError {
    SqsError::new(
        ErrorKind::InvalidAttributeValue,
        format!("Invalid value for the parameter {name}."),
    )
}

/// A boolean attribute: `true` or `false`, in any case.
pub(super) fn boolean(name: &str, value: &str) -> SqsResult<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(invalid_value(name)),
    }
}

/// An optional text attribute: SQS reads an empty value as removing it.
pub(super) fn non_empty(value: &str) -> Option<String> {
    (!value.is_empty()).then(|| value.to_owned())
}
