//! STS's own error table: each kind's Query code, HTTP status and fault, rendered in one
//! place ([`super::protocol::error_document`]); nothing else formats an STS error.

use std::borrow::Cow;
use std::fmt;

use crate::http::auth::{AuthError, AuthErrorKind};
use crate::http::Fault;

/// Declares `StsErrorKind` with each error's code, status and fault, from one table.
macro_rules! kinds {
    ($($kind:ident => $code:literal, $status:literal, $fault:ident;)*) => {
        /// Every error STS answers with here. Modelled errors are the `error` shapes of STS's
        /// service model (botocore `sts/2011-06-15/service-2.json`), the rest AWS's common
        /// Query errors.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum StsErrorKind { $($kind),* }

        impl StsErrorKind {
            /// The `<Code>` SDKs show.
            pub fn code(self) -> &'static str {
                match self { $(StsErrorKind::$kind => $code),* }
            }
            /// The HTTP status.
            pub fn status(self) -> u16 {
                match self { $(StsErrorKind::$kind => $status),* }
            }
            /// `Sender` or `Receiver`.
            pub fn fault(self) -> Fault {
                match self { $(StsErrorKind::$kind => Fault::$fault),* }
            }
        }
    };
}

kinds! {
    // The request validator's refusals (a member out of its range or pattern) and STS's own
    // checks of a valid request, both `ValidationError` [aws-recorded, e.g.
    // zalando-stups/aws-credentials-service#7, kreuzwerker/awsu#27].
    ValidationError => "ValidationError", 400, Sender;
    // A refused AssumeRole or GetSessionToken [aws-recorded: aws/aws-sdk-php#1876, 403].
    AccessDenied => "AccessDenied", 403, Sender;
    InvalidAction => "InvalidAction", 400, Sender;
    InternalFailure => "InternalFailure", 500, Receiver;
    // AWS's common error for a temporary failure: the router's answer over the connection cap.
    ServiceUnavailable => "ServiceUnavailable", 503, Receiver;
    // Signature failures: AWS's common errors, one row per kind of the auth floor's error.
    MissingAuthenticationToken => "MissingAuthenticationToken", 403, Sender;
    IncompleteSignature => "IncompleteSignature", 400, Sender;
    InvalidClientTokenId => "InvalidClientTokenId", 403, Sender;
    SignatureDoesNotMatch => "SignatureDoesNotMatch", 403, Sender;
    RequestExpired => "RequestExpired", 400, Sender;
    // An expired session key calling STS: IAM's and SQS's Query answer [aws-recorded,
    // cfn-sphere/cfn-sphere#55], not the model's ExpiredTokenException, which is about the
    // tokens AssumeRoleWithSAML and AssumeRoleWithWebIdentity take.
    ExpiredToken => "ExpiredToken", 403, Sender;
}

/// One STS error: its kind and STS's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StsError {
    /// The row of the table.
    pub kind: StsErrorKind,
    /// STS's `<Message>`.
    pub message: Cow<'static, str>,
}

/// What an STS operation returns.
pub type StsResult<T> = Result<T, StsError>;

impl StsError {
    /// An error of `kind` with STS's message.
    pub fn new(kind: StsErrorKind, message: impl Into<Cow<'static, str>>) -> Self {
        StsError {
            kind,
            message: crate::http::text::bounded_message(message.into()),
        }
    }

    /// `ValidationError` with STS's message.
    pub fn validation(message: impl Into<Cow<'static, str>>) -> Self {
        StsError::new(StsErrorKind::ValidationError, message)
    }

    /// A signature refusal of the auth floor, in STS's table.
    pub fn from_auth(err: &AuthError) -> Self {
        let kind = match err.kind {
            AuthErrorKind::MissingAuthenticationToken => StsErrorKind::MissingAuthenticationToken,
            AuthErrorKind::IncompleteSignature => StsErrorKind::IncompleteSignature,
            AuthErrorKind::InvalidClientTokenId => StsErrorKind::InvalidClientTokenId,
            AuthErrorKind::SignatureDoesNotMatch => StsErrorKind::SignatureDoesNotMatch,
            AuthErrorKind::RequestExpired => StsErrorKind::RequestExpired,
            AuthErrorKind::ExpiredToken => StsErrorKind::ExpiredToken,
        };
        StsError::new(kind, err.message())
    }

    /// The `<Code>`.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl fmt::Display for StsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message)
    }
}

impl std::error::Error for StsError {}

/// The request validator's findings about one input, reported together as AWS reports them:
/// "2 validation errors detected: Value '' at 'roleArn' failed to satisfy constraint: …; …"
/// [aws-recorded, newscorpaus/consigliere#18].
#[derive(Debug, Default)]
pub struct Violations(Vec<String>);

impl Violations {
    /// A required member not sent.
    pub fn null(&mut self, member: &str) {
        self.0.push(format!(
            "Value null at '{member}' failed to satisfy constraint: Member must not be null"
        ));
    }

    /// `value` of `member` breaks `constraint` ("Member must have length …").
    pub fn broken(&mut self, member: &str, value: impl fmt::Display, constraint: &str) {
        self.0.push(format!(
            "Value '{value}' at '{member}' failed to satisfy constraint: {constraint}"
        ));
    }

    /// A text member's length against its model's bounds, in the validator's words.
    pub fn length(&mut self, member: &str, value: &str, (min, max): (usize, usize)) {
        let len = value.chars().count();
        if len < min {
            let rule = format!("Member must have length greater than or equal to {min}");
            self.broken(member, value, &rule);
        } else if len > max {
            let rule = format!("Member must have length less than or equal to {max}");
            self.broken(member, value, &rule);
        }
    }

    /// A number member against its model's bounds.
    pub fn range(&mut self, member: &str, value: i64, (min, max): (i64, i64)) {
        if value < min {
            let rule = format!("Member must have value greater than or equal to {min}");
            self.broken(member, value, &rule);
        } else if value > max {
            let rule = format!("Member must have value less than or equal to {max}");
            self.broken(member, value, &rule);
        }
    }

    /// `Ok` when nothing was found, else the one ValidationError listing every finding.
    pub fn finish(self) -> StsResult<()> {
        match self.0.len() {
            0 => Ok(()),
            1 => Err(StsError::validation(format!(
                "1 validation error detected: {}",
                self.0[0]
            ))),
            n => Err(StsError::validation(format!(
                "{n} validation errors detected: {}",
                self.0.join("; ")
            ))),
        }
    }
}
