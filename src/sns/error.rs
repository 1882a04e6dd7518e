//! SNS's own error table: each kind's Query code, HTTP status and fault, rendered in one
//! place ([`super::protocol::xml::error`]); nothing else formats an SNS error.

use std::borrow::Cow;
use std::fmt;

use crate::http::auth::{AuthError, AuthErrorKind};
use crate::http::Fault;

macro_rules! kinds {
    ($($kind:ident => $code:literal, $status:literal, $fault:ident;)*) => {
        /// Every error SNS answers with here. Codes and statuses are the `error` blocks of
        /// SNS's service model (botocore `sns/2010-03-31/service-2.json`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum SnsErrorKind { $($kind),* }

        impl SnsErrorKind {
            pub fn code(self) -> &'static str {
                match self { $(SnsErrorKind::$kind => $code),* }
            }
            pub fn status(self) -> u16 {
                match self { $(SnsErrorKind::$kind => $status),* }
            }
            pub fn fault(self) -> Fault {
                match self { $(SnsErrorKind::$kind => Fault::$fault),* }
            }
            /// The kind with this code, as fault rules name them.
            pub fn from_name(code: &str) -> Option<SnsErrorKind> {
                [$(SnsErrorKind::$kind),*]
                    .into_iter()
                    .find(|k| !k.code().is_empty() && k.code() == code)
            }
        }
    };
}

kinds! {
    InvalidParameter => "InvalidParameter", 400, Sender;
    ParameterValueInvalid => "ParameterValueInvalid", 400, Sender;
    NotFound => "NotFound", 404, Sender;
    ResourceNotFound => "ResourceNotFound", 404, Sender;
    AuthorizationError => "AuthorizationError", 403, Sender;
    InternalError => "InternalError", 500, Receiver;
    TagLimitExceeded => "TagLimitExceeded", 400, Sender;
    TagPolicy => "TagPolicy", 400, Sender;
    BatchEntryIdsNotDistinct => "BatchEntryIdsNotDistinct", 400, Sender;
    BatchRequestTooLong => "BatchRequestTooLong", 400, Sender;
    EmptyBatchRequest => "EmptyBatchRequest", 400, Sender;
    InvalidBatchEntryId => "InvalidBatchEntryId", 400, Sender;
    TooManyEntriesInBatchRequest => "TooManyEntriesInBatchRequest", 400, Sender;
    // Failures SNS reports that sqslite makes only when a fault rule asks for them.
    Throttled => "Throttled", 429, Sender;
    KmsThrottling => "KMSThrottling", 400, Sender;
    KmsDisabled => "KMSDisabled", 400, Sender;
    KmsAccessDenied => "KMSAccessDenied", 400, Sender;
    KmsNotFound => "KMSNotFound", 400, Sender;
    KmsInvalidState => "KMSInvalidState", 400, Sender;
    KmsOptInRequired => "KMSOptInRequired", 403, Sender;
    EndpointDisabled => "EndpointDisabled", 400, Sender;
    InvalidSecurity => "InvalidSecurity", 403, Sender;
    SubscriptionLimitExceeded => "SubscriptionLimitExceeded", 403, Sender;
    TopicLimitExceeded => "TopicLimitExceeded", 403, Sender;
    FilterPolicyLimitExceeded => "FilterPolicyLimitExceeded", 403, Sender;
    ConcurrentAccess => "ConcurrentAccess", 400, Sender;
    // The generic AWS Query errors, not in SNS's model: an unknown action, a missing member,
    // a temporary failure (AWS's common errors).
    ServiceUnavailable => "ServiceUnavailable", 503, Receiver;
    InvalidAction => "InvalidAction", 400, Sender;
    ValidationError => "ValidationError", 400, Sender;
    // Signature failures: AWS's common errors, one row per kind of the auth floor's error
    // ([`SnsError::from_auth`]).
    MissingAuthenticationToken => "MissingAuthenticationToken", 403, Sender;
    IncompleteSignature => "IncompleteSignature", 400, Sender;
    InvalidClientTokenId => "InvalidClientTokenId", 403, Sender;
    SignatureDoesNotMatch => "SignatureDoesNotMatch", 403, Sender;
    RequestExpired => "RequestExpired", 400, Sender;
    // [aws-recorded as SQS's and IAM's Query answer; unverified for SNS]
    ExpiredToken => "ExpiredToken", 403, Sender;
}

/// One SNS error: its kind and SNS's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnsError {
    pub kind: SnsErrorKind,
    pub message: Cow<'static, str>,
}

pub type SnsResult<T> = Result<T, SnsError>;

impl SnsError {
    pub fn new(kind: SnsErrorKind, message: impl Into<Cow<'static, str>>) -> Self {
        SnsError {
            kind,
            message: crate::http::text::bounded_message(message.into()),
        }
    }

    /// `InvalidParameter` with SNS's "Invalid parameter: …" lead.
    pub fn invalid(detail: impl fmt::Display) -> Self {
        SnsError::new(
            SnsErrorKind::InvalidParameter,
            format!("Invalid parameter: {detail}"),
        )
    }

    pub fn topic_not_found() -> Self {
        SnsError::new(SnsErrorKind::NotFound, "Topic does not exist")
    }

    pub fn subscription_not_found() -> Self {
        SnsError::new(SnsErrorKind::NotFound, "Subscription does not exist")
    }

    /// A required member left out. AWS's generic validation wording [unverified for SNS].
    pub fn missing(member: &str) -> Self {
        SnsError::new(
            SnsErrorKind::ValidationError,
            format!(
                "1 validation error detected: Value null at '{}' failed to satisfy constraint: Member must not be null",
                lower_first(member)
            ),
        )
    }

    /// A signature refusal of the auth floor, in SNS's table.
    pub fn from_auth(err: &AuthError) -> Self {
        let kind = match err.kind {
            AuthErrorKind::MissingAuthenticationToken => SnsErrorKind::MissingAuthenticationToken,
            AuthErrorKind::IncompleteSignature => SnsErrorKind::IncompleteSignature,
            AuthErrorKind::InvalidClientTokenId => SnsErrorKind::InvalidClientTokenId,
            AuthErrorKind::SignatureDoesNotMatch => SnsErrorKind::SignatureDoesNotMatch,
            AuthErrorKind::RequestExpired => SnsErrorKind::RequestExpired,
            AuthErrorKind::ExpiredToken => SnsErrorKind::ExpiredToken,
        };
        SnsError::new(kind, err.message())
    }

    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    pub fn status(&self) -> u16 {
        self.kind.status()
    }
}

fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_lowercase().chain(chars).collect::<String>()
    })
}

impl fmt::Display for SnsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message)
    }
}

impl std::error::Error for SnsError {}
