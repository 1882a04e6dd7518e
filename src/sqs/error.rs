//! The one SQS error type and its table: every code, status and fault lives here.

use std::fmt;

pub use crate::http::Fault;

macro_rules! error_table {
    ($( $kind:ident => ($shape:expr, $code:expr, $status:expr, $fault:ident, $msg:expr) ),* $(,)?) => {
        /// Every error sqslite can answer, one row of the SQS error table each.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorKind { $(#[doc = concat!("`", $code, "` (HTTP ", $status, "): ", $msg)] $kind),* }

        impl ErrorKind {
            /// Every row, in table order.
            pub const ALL: &'static [ErrorKind] = &[$(ErrorKind::$kind),*];

            /// The JSON `__type`: modelled shapes are `com.amazonaws.sqs#`, others coral's.
            pub fn json_type(self) -> &'static str {
                match self { $(ErrorKind::$kind => $shape),* }
            }
            /// The Query `<Code>`, also the first half of `x-amzn-query-error`.
            pub fn query_code(self) -> &'static str {
                match self { $(ErrorKind::$kind => $code),* }
            }
            /// The HTTP status SQS answers with.
            pub fn status(self) -> u16 {
                match self { $(ErrorKind::$kind => $status),* }
            }
            /// Whether the caller or the service is to blame (`Sender`/`Receiver`).
            pub fn fault(self) -> Fault {
                match self { $(ErrorKind::$kind => Fault::$fault),* }
            }
            /// The message used when the raising site has nothing more specific to say.
            pub fn default_message(self) -> &'static str {
                match self { $(ErrorKind::$kind => $msg),* }
            }
        }
    };
}

error_table! {
    QueueDoesNotExist => ("com.amazonaws.sqs#QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", 400, Sender, "The specified queue does not exist."),
    QueueNameExists => ("com.amazonaws.sqs#QueueNameExists", "QueueAlreadyExists", 400, Sender, "A queue already exists with the same name and a different value for an attribute."),
    QueueDeletedRecently => ("com.amazonaws.sqs#QueueDeletedRecently", "AWS.SimpleQueueService.QueueDeletedRecently", 400, Sender, "You must wait 60 seconds after deleting a queue before you can create another with the same name."),
    ReceiptHandleIsInvalid => ("com.amazonaws.sqs#ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid", 404, Sender, "The specified receipt handle isn't valid."),
    MessageNotInflight => ("com.amazonaws.sqs#MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight", 400, Sender, "The specified message isn't in flight."),
    PurgeQueueInProgress => ("com.amazonaws.sqs#PurgeQueueInProgress", "AWS.SimpleQueueService.PurgeQueueInProgress", 403, Sender, "Only one PurgeQueue operation is allowed every 60 seconds."),
    BatchEntryIdsNotDistinct => ("com.amazonaws.sqs#BatchEntryIdsNotDistinct", "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", 400, Sender, "Two or more batch entries in the request have the same Id."),
    TooManyEntriesInBatchRequest => ("com.amazonaws.sqs#TooManyEntriesInBatchRequest", "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", 400, Sender, "The batch request contains more entries than permissible."),
    EmptyBatchRequest => ("com.amazonaws.sqs#EmptyBatchRequest", "AWS.SimpleQueueService.EmptyBatchRequest", 400, Sender, "There should be at least one SendMessageBatchRequestEntry in the request."),
    InvalidBatchEntryId => ("com.amazonaws.sqs#InvalidBatchEntryId", "AWS.SimpleQueueService.InvalidBatchEntryId", 400, Sender, "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long."),
    BatchRequestTooLong => ("com.amazonaws.sqs#BatchRequestTooLong", "AWS.SimpleQueueService.BatchRequestTooLong", 400, Sender, "Batch requests cannot be longer than 1048576 bytes."),
    UnsupportedOperation => ("com.amazonaws.sqs#UnsupportedOperation", "AWS.SimpleQueueService.UnsupportedOperation", 400, Sender, "Error code 400. Unsupported operation."),
    InvalidAttributeName => ("com.amazonaws.sqs#InvalidAttributeName", "InvalidAttributeName", 400, Sender, "The specified attribute doesn't exist."),
    InvalidAttributeValue => ("com.amazonaws.sqs#InvalidAttributeValue", "InvalidAttributeValue", 400, Sender, "A queue attribute value is invalid."),
    InvalidMessageContents => ("com.amazonaws.sqs#InvalidMessageContents", "InvalidMessageContents", 400, Sender, "Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF"),
    InvalidIdFormat => ("com.amazonaws.sqs#InvalidIdFormat", "InvalidIdFormat", 400, Sender, "The specified receipt handle isn't valid for the current version."),
    InvalidAddress => ("com.amazonaws.sqs#InvalidAddress", "InvalidAddress", 404, Sender, "The specified ID is invalid."),
    InvalidSecurity => ("com.amazonaws.sqs#InvalidSecurity", "InvalidSecurity", 403, Sender, "The request was not made over HTTPS or did not use SigV4 for signing."),
    OverLimit => ("com.amazonaws.sqs#OverLimit", "OverLimit", 403, Sender, "The specified action violates a limit."),
    RequestThrottled => ("com.amazonaws.sqs#RequestThrottled", "RequestThrottled", 403, Sender, "Rate exceeded."),
    ResourceNotFound => ("com.amazonaws.sqs#ResourceNotFoundException", "ResourceNotFoundException", 404, Sender, "One or more specified resources don't exist."),
    KmsAccessDenied => ("com.amazonaws.sqs#KmsAccessDenied", "KMS.AccessDeniedException", 400, Sender, "The caller doesn't have the required KMS access."),
    KmsDisabled => ("com.amazonaws.sqs#KmsDisabled", "KMS.DisabledException", 400, Sender, "The request was denied due to request throttling."),
    KmsInvalidKeyUsage => ("com.amazonaws.sqs#KmsInvalidKeyUsage", "KMS.InvalidKeyUsageException", 400, Sender, "The request was rejected for one of the following reasons: the KeyUsage value of the KMS key is incompatible with the API operation."),
    KmsInvalidState => ("com.amazonaws.sqs#KmsInvalidState", "KMS.InvalidStateException", 400, Sender, "The request was rejected because the state of the specified resource is not valid for this request."),
    KmsNotFound => ("com.amazonaws.sqs#KmsNotFound", "KMS.NotFoundException", 400, Sender, "The request was rejected because the specified entity or resource could not be found."),
    KmsOptInRequired => ("com.amazonaws.sqs#KmsOptInRequired", "KMS.OptInRequired", 403, Sender, "The request was rejected because the specified key policy isn't syntactically or semantically correct."),
    KmsThrottled => ("com.amazonaws.sqs#KmsThrottled", "KMS.ThrottlingException", 400, Sender, "Amazon Web Services KMS throttles requests for the following conditions."),
    InvalidParameterValue => ("com.amazon.coral.service#InvalidParameterValueException", "InvalidParameterValue", 400, Sender, "An invalid or out-of-range value was supplied for the input parameter."),
    MissingParameter => ("com.amazon.coral.service#MissingRequiredParameterException", "MissingParameter", 400, Sender, "A required parameter is missing."),
    AccessDenied => ("com.amazon.coral.service#AccessDeniedException", "AccessDenied", 403, Sender, "Access to the resource is denied."),
    // SigV4 authentication (only with `[[credentials]]` configured). SQS answers JSON with
    // these as `com.amazonaws.sqs#` shapes; the codes and statuses are AWS's Common Errors.
    IncompleteSignature => ("com.amazonaws.sqs#IncompleteSignature", "IncompleteSignature", 400, Sender, "The request signature does not conform to AWS standards."),
    SignatureDoesNotMatch => ("com.amazonaws.sqs#SignatureDoesNotMatch", "SignatureDoesNotMatch", 403, Sender, "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."),
    InvalidClientTokenId => ("com.amazonaws.sqs#InvalidClientTokenId", "InvalidClientTokenId", 403, Sender, "The security token included in the request is invalid."),
    MissingAuthenticationToken => ("com.amazonaws.sqs#MissingAuthenticationToken", "MissingAuthenticationToken", 403, Sender, "The request must contain either a valid (registered) AWS access key ID or X.509 certificate."),
    RequestExpired => ("com.amazonaws.sqs#RequestExpired", "RequestExpired", 400, Sender, "Request has expired."),
    // A temporary key past its expiration: SQS's Query code and 403 [aws-recorded,
    // aws/aws-sdk-go#249], its JSON type as celery/kombu#2217 recorded it.
    ExpiredToken => ("com.amazon.coral.service#ExpiredTokenException", "ExpiredToken", 403, Sender, "The security token included in the request is expired"),
    InvalidAction => ("com.amazon.coral.service#InvalidActionException", "InvalidAction", 400, Sender, "The action is not valid for this endpoint."),
    UnknownOperation => ("com.amazon.coral.service#UnknownOperationException", "UnknownOperationException", 400, Sender, "The requested operation is not recognised."),
    SerializationException => ("com.amazon.coral.service#SerializationException", "SerializationException", 400, Sender, "The request body could not be parsed."),
    InternalError => ("com.amazon.coral.service#InternalFailure", "InternalError", 500, Receiver, "We encountered an internal error. Please try again."),
    ServiceUnavailable => ("com.amazon.coral.service#ServiceUnavailableException", "ServiceUnavailable", 503, Receiver, "The request has failed due to a temporary failure of the server."),
}

impl ErrorKind {
    /// Finds a row by its Query code or shape name, as fault rules name them.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.iter().copied().find(|k| {
            k.query_code() == name
                || k.json_type().rsplit('#').next() == Some(name)
                || format!("{k:?}") == name
        })
    }
}

/// An SQS error: a row of the table plus the message for this occurrence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqsError {
    /// The row: code, `__type`, status and fault.
    pub kind: ErrorKind,
    /// The text for this occurrence, sent as `Message` (`message` in JSON).
    pub message: String,
}

/// What an SQS operation returns.
pub type SqsResult<T> = Result<T, SqsError>;

impl SqsError {
    /// An error of `kind` with its own message.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        SqsError {
            kind,
            message: crate::http::text::bounded_message(message.into()).into_owned(),
        }
    }

    /// An error of `kind` with the table's default message.
    pub fn of(kind: ErrorKind) -> Self {
        SqsError::new(kind, kind.default_message())
    }

    /// The error a code of this table names (as a fault rule gives it), with `message` or
    /// the table's; an unknown code is an internal error.
    pub fn by_code(code: &str, message: Option<&str>) -> Self {
        let kind = ErrorKind::from_name(code).unwrap_or(ErrorKind::InternalError);
        match message {
            Some(m) => SqsError::new(kind, m.to_owned()),
            None => SqsError::of(kind),
        }
    }

    /// `InvalidParameterValue` with `message`.
    pub fn invalid_parameter(message: impl Into<String>) -> Self {
        SqsError::new(ErrorKind::InvalidParameterValue, message)
    }

    /// The common "Value X for parameter Y is invalid. Reason: Z." wording.
    pub fn invalid_value(value: impl fmt::Display, parameter: &str, reason: &str) -> Self {
        SqsError::invalid_parameter(format!(
            "Value {value} for parameter {parameter} is invalid. Reason: {reason}"
        ))
    }

    /// `MissingParameter`, naming the parameter as SQS does.
    pub fn missing(parameter: &str) -> Self {
        SqsError::new(
            ErrorKind::MissingParameter,
            format!("The request must contain the parameter {parameter}."),
        )
    }

    /// `QueueDoesNotExist` with SQS's message.
    pub fn queue_does_not_exist() -> Self {
        SqsError::of(ErrorKind::QueueDoesNotExist)
    }

    /// `ReceiptHandleIsInvalid`, quoting the handle as SQS does.
    pub fn receipt_handle_invalid(handle: &str) -> Self {
        SqsError::new(
            ErrorKind::ReceiptHandleIsInvalid,
            format!("The input receipt handle \"{handle}\" is not a valid receipt handle."),
        )
    }

    /// The HTTP status of its kind.
    pub fn status(&self) -> u16 {
        self.kind.status()
    }

    /// The Query protocol's message; only the missing-queue text differs from JSON.
    pub fn query_message(&self) -> &str {
        if self.kind == ErrorKind::QueueDoesNotExist
            && self.message == ErrorKind::QueueDoesNotExist.default_message()
        {
            "The specified queue does not exist for this wsdl version."
        } else {
            &self.message
        }
    }
}

impl fmt::Display for SqsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.query_code(), self.message)
    }
}

impl std::error::Error for SqsError {}

/// A Policy document the policy floor cannot use, in SQS's words (recorded, e.g.
/// hashicorp/terraform-provider-aws#42209).
impl From<crate::policy::Invalid> for SqsError {
    fn from(_: crate::policy::Invalid) -> Self {
        SqsError::new(
            ErrorKind::InvalidAttributeValue,
            "Invalid value for the parameter Policy.",
        )
    }
}

/// A refused signature in SQS's words: one row per kind of the auth floor's error.
impl From<crate::http::auth::AuthError> for SqsError {
    fn from(e: crate::http::auth::AuthError) -> Self {
        use crate::http::auth::AuthErrorKind as A;
        let kind = match e.kind {
            A::MissingAuthenticationToken => ErrorKind::MissingAuthenticationToken,
            A::IncompleteSignature => ErrorKind::IncompleteSignature,
            A::InvalidClientTokenId => ErrorKind::InvalidClientTokenId,
            A::SignatureDoesNotMatch => ErrorKind::SignatureDoesNotMatch,
            A::RequestExpired => ErrorKind::RequestExpired,
            A::ExpiredToken => ErrorKind::ExpiredToken,
        };
        match e.detail {
            Some(detail) => SqsError::new(kind, detail),
            None => SqsError::of(kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_findable() {
        for kind in ErrorKind::ALL {
            assert_eq!(ErrorKind::from_name(kind.query_code()), Some(*kind));
            assert!(kind.json_type().contains('#'));
        }
        assert_eq!(
            ErrorKind::from_name("QueueDoesNotExist"),
            Some(ErrorKind::QueueDoesNotExist)
        );
    }

    #[test]
    fn client_errors_are_never_5xx() {
        for kind in ErrorKind::ALL {
            assert_eq!(kind.status() >= 500, kind.fault() == Fault::Receiver);
        }
    }
}
