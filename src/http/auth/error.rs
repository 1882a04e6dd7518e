//! Why a signature was refused: the auth floor's own error, in no service's language. Each
//! service maps it in one row per kind of its own error table: SQS's and SNS's query codes,
//! the Lambda API's exception names.

use std::borrow::Cow;
use std::fmt;

/// The ways a signature fails, as AWS's common errors name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthErrorKind {
    /// No signature where one is required.
    MissingAuthenticationToken,
    /// A signature that is not well-formed (its header, its date).
    IncompleteSignature,
    /// An access key no credential has.
    InvalidClientTokenId,
    /// A wrong signature, scope or time.
    SignatureDoesNotMatch,
    /// A presigned URL past its expiry.
    RequestExpired,
    /// A temporary key past its expiration.
    ExpiredToken,
}

/// One refusal: its kind, and the detail AWS gives beside the kind's own text, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthError {
    /// What failed.
    pub kind: AuthErrorKind,
    /// The message AWS gives for this case; `None` for the kind's standard one.
    pub detail: Option<Cow<'static, str>>,
}

/// A result of the auth floor.
pub type AuthResult<T> = Result<T, AuthError>;

impl AuthErrorKind {
    /// AWS's common text for this failure, where a case gives no detail of its own.
    pub fn standard_message(self) -> &'static str {
        match self {
            AuthErrorKind::MissingAuthenticationToken => "The request must contain either a valid (registered) AWS access key ID or X.509 certificate.",
            AuthErrorKind::IncompleteSignature => "The request signature does not conform to AWS standards.",
            AuthErrorKind::InvalidClientTokenId => "The security token included in the request is invalid.",
            AuthErrorKind::SignatureDoesNotMatch => super::SIGNATURE_MISMATCH,
            AuthErrorKind::RequestExpired => "Request has expired.",
            // [aws-recorded for SQS, e.g. pplu/aws-sdk-perl#166; IAM: cfn-sphere/cfn-sphere#55]
            AuthErrorKind::ExpiredToken => "The security token included in the request is expired",
        }
    }
}

impl AuthError {
    /// The message: the case's detail, else the kind's standard text.
    pub fn message(&self) -> Cow<'static, str> {
        self.detail
            .clone()
            .unwrap_or(Cow::Borrowed(self.kind.standard_message()))
    }

    /// The kind with its standard message.
    pub fn of(kind: AuthErrorKind) -> Self {
        AuthError { kind, detail: None }
    }

    /// The kind with AWS's message for this case.
    pub fn new(kind: AuthErrorKind, detail: impl Into<Cow<'static, str>>) -> Self {
        AuthError {
            kind,
            detail: Some(detail.into()),
        }
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.kind)?;
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        Ok(())
    }
}

impl std::error::Error for AuthError {}
