//! The Lambda API's own error table, rendered in one place ([`LambdaError::response`]):
//! Lambda's REST-JSON errors carry the code in `x-amzn-ErrorType` and a JSON body with
//! `Type` (`User` or `Service`) and the message, under the member name each error shape
//! declares (`message` or `Message`: the shapes in Lambda's service model differ, and the
//! SDKs read either).

use std::borrow::Cow;
use std::fmt;

use bytes::Bytes;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Response, StatusCode};

use crate::http::auth::{AuthError, AuthErrorKind};
use crate::http::HttpResponse;

/// Declares `LambdaErrorKind` with each error's code, status and message member, from one table.
macro_rules! kinds {
    ($($kind:ident => $code:literal, $status:literal, $member:literal, $type:expr;)*) => {
        /// Every error the Lambda API answers with. Codes, statuses and message members are
        /// the error shapes of Lambda's service model (aws-sdk-lambda, botocore
        /// `lambda/2015-03-31/service-2.json`); `ValidationException` is the request
        /// validation Lambda answers before its own checks (recorded by LocalStack's
        /// AWS-validated snapshots, with no `Type`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum LambdaErrorKind { $($kind),* }

        impl LambdaErrorKind {
            /// The code SDKs show (`x-amzn-ErrorType`).
            pub fn code(self) -> &'static str {
                match self { $(LambdaErrorKind::$kind => $code),* }
            }
            pub fn status(self) -> u16 {
                match self { $(LambdaErrorKind::$kind => $status),* }
            }
            /// The body member the error shape names its message with.
            fn member(self) -> &'static str {
                match self { $(LambdaErrorKind::$kind => $member),* }
            }
            /// The body's `Type`, where the shape has one.
            fn type_(self) -> Option<&'static str> {
                match self { $(LambdaErrorKind::$kind => $type),* }
            }
        }
    };
}

kinds! {
    InvalidParameterValue => "InvalidParameterValueException", 400, "message", Some("User");
    ResourceNotFound => "ResourceNotFoundException", 404, "Message", Some("User");
    ResourceConflict => "ResourceConflictException", 409, "message", Some("User");
    ResourceInUse => "ResourceInUseException", 400, "Message", Some("User");
    InvalidRequestContent => "InvalidRequestContentException", 400, "message", Some("User");
    Validation => "ValidationException", 400, "message", None;
    Service => "ServiceException", 500, "Message", Some("Service");
    // The router's refusals before the API runs: a browser origin, a body over the bound, a
    // connection over the cap (Lambda's own codes; the words are sqslite's).
    AccessDenied => "AccessDeniedException", 403, "Message", Some("User");
    RequestTooLarge => "RequestTooLargeException", 413, "message", Some("User");
    TooManyRequests => "TooManyRequestsException", 429, "message", Some("User");
    // sqslite's own: a Lambda path or method it does not serve [no AWS counterpart].
    UnknownOperation => "UnknownOperationException", 404, "message", None;
    // Signature failures, one row per kind of the auth floor's error ([`LambdaError::from_auth`]),
    // in the codes AWS's JSON services answer [unverified for Lambda].
    MissingAuthenticationToken => "MissingAuthenticationTokenException", 403, "message", None;
    IncompleteSignature => "IncompleteSignatureException", 400, "message", None;
    UnrecognizedClient => "UnrecognizedClientException", 403, "message", None;
    InvalidSignature => "InvalidSignatureException", 403, "message", None;
    RequestExpired => "RequestExpired", 400, "message", None;
    ExpiredToken => "ExpiredTokenException", 403, "message", None;
}

/// One Lambda API error: its kind and Lambda's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LambdaError {
    /// The row of Lambda's error table: its `Type` and HTTP status.
    pub kind: LambdaErrorKind,
    /// Lambda's `Message`.
    pub message: Cow<'static, str>,
}

/// What a Lambda API operation returns.
pub type LambdaResult<T> = Result<T, LambdaError>;

impl LambdaError {
    /// An error of `kind` with Lambda's message.
    pub fn new(kind: LambdaErrorKind, message: impl Into<Cow<'static, str>>) -> Self {
        LambdaError {
            kind,
            message: crate::http::text::bounded_message(message.into()),
        }
    }

    /// `InvalidParameterValueException`, Lambda's answer to most refused settings.
    pub fn invalid(message: impl Into<Cow<'static, str>>) -> Self {
        LambdaError::new(LambdaErrorKind::InvalidParameterValue, message)
    }

    /// `ValidationException`, for a value outside the API's declared range or pattern.
    pub fn validation(message: impl Into<Cow<'static, str>>) -> Self {
        LambdaError::new(LambdaErrorKind::Validation, message)
    }

    /// A required member left out, in the request validator's words.
    pub fn missing(member: &str) -> Self {
        LambdaError::validation(format!(
            "1 validation error detected: Value null at '{member}' failed to satisfy constraint: Member must not be null"
        ))
    }

    /// An unknown mapping UUID: Lambda's generic not-found text \[unverified for mappings\].
    pub fn mapping_not_found() -> Self {
        LambdaError::new(
            LambdaErrorKind::ResourceNotFound,
            "The resource you requested does not exist.",
        )
    }

    /// A signature refusal of the auth floor, in Lambda's table.
    pub fn from_auth(err: &AuthError) -> Self {
        let kind = match err.kind {
            AuthErrorKind::MissingAuthenticationToken => {
                LambdaErrorKind::MissingAuthenticationToken
            }
            AuthErrorKind::IncompleteSignature => LambdaErrorKind::IncompleteSignature,
            AuthErrorKind::InvalidClientTokenId => LambdaErrorKind::UnrecognizedClient,
            AuthErrorKind::SignatureDoesNotMatch => LambdaErrorKind::InvalidSignature,
            AuthErrorKind::RequestExpired => LambdaErrorKind::RequestExpired,
            AuthErrorKind::ExpiredToken => LambdaErrorKind::ExpiredToken,
        };
        LambdaError::new(kind, err.message())
    }

    /// Lambda's error `Type`, as the `x-amzn-ErrorType` header names it.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.kind.status()
    }

    /// The HTTP response: status, `x-amzn-ErrorType`, request id and the JSON body.
    pub fn response(&self, request_id: &str) -> HttpResponse {
        let mut body = serde_json::Map::new();
        if let Some(type_) = self.kind.type_() {
            body.insert("Type".into(), type_.into());
        }
        body.insert(self.kind.member().into(), self.message.as_ref().into());
        let status = StatusCode::from_u16(self.status()).unwrap_or(StatusCode::BAD_REQUEST);
        let mut response = json_response(status, request_id, &serde_json::Value::Object(body));
        if let Ok(code) = HeaderValue::from_str(self.code()) {
            response.headers_mut().insert("x-amzn-errortype", code);
        }
        response
    }
}

impl fmt::Display for LambdaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message)
    }
}

impl std::error::Error for LambdaError {}

/// A JSON response with Lambda's headers.
pub fn json_response(
    status: StatusCode,
    request_id: &str,
    body: &serde_json::Value,
) -> HttpResponse {
    let mut response = Response::new(Bytes::from(body.to_string()).into());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, crate::http::APPLICATION_JSON);
    if let Ok(id) = HeaderValue::from_str(request_id) {
        headers.insert("x-amzn-requestid", id);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(r: HttpResponse) -> (u16, String, serde_json::Value) {
        use http_body_util::BodyExt;
        let status = r.status().as_u16();
        let code = r.headers()["x-amzn-errortype"].to_str().unwrap().to_owned();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let bytes = runtime
            .block_on(r.into_body().collect())
            .unwrap()
            .to_bytes();
        (status, code, serde_json::from_slice(&bytes).unwrap())
    }

    #[test]
    fn each_shape_names_its_message_member() {
        let (status, code, json) = body(LambdaError::invalid("bad").response("r"));
        assert_eq!(
            (status, code.as_str()),
            (400, "InvalidParameterValueException")
        );
        assert_eq!(json, serde_json::json!({"Type": "User", "message": "bad"}));
        let (status, _, json) = body(LambdaError::mapping_not_found().response("r"));
        assert_eq!(status, 404);
        assert_eq!(
            json["Message"],
            "The resource you requested does not exist."
        );
        let (_, code, json) = body(LambdaError::missing("functionName").response("r"));
        assert_eq!(code, "ValidationException");
        assert!(json.get("Type").is_none());
    }
}
