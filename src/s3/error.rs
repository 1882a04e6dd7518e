//! S3's errors, in one table: the engine's refusals, the auth floor's and the front door's,
//! each as S3's code, status and message (S3 API reference, "Error responses"), rendered by
//! s3s as S3's XML error document.

use s3s::{S3Error, S3ErrorCode};

use super::engine::Refusal;
use crate::http::auth::{AuthError, AuthErrorKind};
use crate::http::service::Refusal as DoorRefusal;

/// An error of S3's with this code and message.
pub fn error(code: S3ErrorCode, message: impl Into<String>) -> S3Error {
    S3Error::with_message(code, message.into())
}

/// The engine's refusal as S3 words it.
pub fn refused(refusal: Refusal) -> S3Error {
    use S3ErrorCode as C;
    let (code, message): (C, &str) = match refusal {
        Refusal::NoSuchBucket => (C::NoSuchBucket, "The specified bucket does not exist"),
        Refusal::BucketAlreadyExists => (
            C::BucketAlreadyExists,
            "The requested bucket name is not available. The bucket namespace is shared by all \
             users of the system. Please select a different name and try again.",
        ),
        Refusal::BucketAlreadyOwnedByYou => (
            C::BucketAlreadyOwnedByYou,
            "Your previous request to create the named bucket succeeded and you already own it.",
        ),
        Refusal::BucketNotEmpty => (
            C::BucketNotEmpty,
            "The bucket you tried to delete is not empty",
        ),
        Refusal::InvalidBucketName => (C::InvalidBucketName, "The specified bucket is not valid."),
        Refusal::NoSuchKey => (C::NoSuchKey, "The specified key does not exist."),
        Refusal::NoSuchUpload => (
            C::NoSuchUpload,
            "The specified upload does not exist. The upload ID may be invalid, or the upload \
             may have been aborted or completed.",
        ),
        Refusal::NoSuchBucketPolicy => (C::NoSuchBucketPolicy, "The bucket policy does not exist"),
        Refusal::NoSuchTagSet => (C::NoSuchTagSet, "The TagSet does not exist"),
        Refusal::MalformedPolicy(why) => (C::MalformedPolicy, why),
        Refusal::PreconditionFailed => (
            C::PreconditionFailed,
            "At least one of the pre-conditions you specified did not hold",
        ),
        Refusal::NotModified => (C::NotModified, "Not Modified"),
        Refusal::InvalidRange => (C::InvalidRange, "The requested range is not satisfiable"),
        // The code is the one S3 answers (s3-tests expect it) [unverified: the message].
        Refusal::NoSuchPart => (
            C::InvalidPart,
            "The requested partnumber is not satisfiable",
        ),
        Refusal::InvalidPart => (
            C::InvalidPart,
            "One or more of the specified parts could not be found.  The part may not have been \
             uploaded, or the specified entity tag may not match the part's entity tag.",
        ),
        Refusal::InvalidPartOrder => (
            C::InvalidPartOrder,
            "The list of parts was not in ascending order. Parts must be ordered by part number.",
        ),
        Refusal::EntityTooSmall => (
            C::EntityTooSmall,
            "Your proposed upload is smaller than the minimum allowed object size.",
        ),
        Refusal::MalformedXml => (
            C::MalformedXML,
            "The XML you provided was not well-formed or did not validate against our published \
             schema",
        ),
        Refusal::EntityTooLarge(message) => return error(C::EntityTooLarge, message),
        Refusal::InvalidTag(message) => return error(C::InvalidTag, message),
        Refusal::InvalidArgument(message) => return error(C::InvalidArgument, message),
    };
    error(code, message)
}

/// The auth floor's refusal as S3 words it: S3 names an unknown key InvalidAccessKeyId, a
/// missing signature AccessDenied, an expired presigned URL AccessDenied "Request has
/// expired", a malformed signature InvalidRequest [unverified: S3 also answers
/// AuthorizationHeaderMalformed for some].
pub fn from_auth(e: &AuthError) -> S3Error {
    use S3ErrorCode as C;
    let message = e.message().into_owned();
    match e.kind {
        AuthErrorKind::MissingAuthenticationToken => error(C::AccessDenied, "Access Denied"),
        AuthErrorKind::IncompleteSignature => error(C::InvalidRequest, message),
        AuthErrorKind::InvalidClientTokenId => error(
            C::InvalidAccessKeyId,
            "The AWS Access Key Id you provided does not exist in our records.",
        ),
        AuthErrorKind::SignatureDoesNotMatch => error(C::SignatureDoesNotMatch, message),
        AuthErrorKind::RequestExpired => error(C::AccessDenied, "Request has expired"),
        AuthErrorKind::ExpiredToken => error(C::ExpiredToken, "The provided token has expired."),
    }
}

/// A refusal the front door made before S3 ran.
pub fn from_door(refusal: DoorRefusal, message: &str) -> S3Error {
    let code = match refusal {
        DoorRefusal::Origin => S3ErrorCode::AccessDenied,
        DoorRefusal::Body => S3ErrorCode::MaxMessageLengthExceeded,
        DoorRefusal::Busy => S3ErrorCode::SlowDown,
    };
    error(code, message)
}

/// S3's words for an error s3s raised without any (its routing's and parsing's), else
/// `given`.
pub fn worded(code: &str, given: &str) -> S3Error {
    let standard = match code {
        "InvalidBucketName" => "The specified bucket is not valid.",
        "NoSuchBucket" => "The specified bucket does not exist",
        "NoSuchKey" => "The specified key does not exist.",
        "MethodNotAllowed" => "The specified method is not allowed against this resource.",
        "InvalidURI" => "Couldn't parse the specified URI.",
        "KeyTooLongError" => "Your key is too long",
        "MalformedXML" => {
            "The XML you provided was not well-formed or did not validate against our published \
             schema"
        }
        "MissingContentLength" => "You must provide the Content-Length HTTP header.",
        "NotImplemented" => "A header you provided implies functionality that is not implemented",
        "AccessDenied" => "Access Denied",
        "InvalidArgument" => "Invalid Argument",
        "InvalidRequest" => "Invalid Request",
        _ => "",
    };
    let message = if given.is_empty() { standard } else { given };
    let code = S3ErrorCode::from_bytes(code.as_bytes())
        .unwrap_or_else(|| S3ErrorCode::Custom(code.to_owned().into()));
    error(code, message)
}

/// S3's refusal of what another account may not do.
pub fn access_denied() -> S3Error {
    error(S3ErrorCode::AccessDenied, "Access Denied")
}
