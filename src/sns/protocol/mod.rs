//! SNS's wire protocol: AWS Query only (SNS's service model lists `"protocols": ["query"]`,
//! and the SDKs send form posts with `Action=` and `Version=2010-03-31`), answered in XML.
//! Here: which requests on the shared port are SNS's, their form input (read in SNS's
//! dialect of the shared Query deserializer, [`query`]) and the responses.

pub mod form;
pub mod query;
pub mod xml;

use bytes::Bytes;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::http::request::Parts;
use hyper::{Response, StatusCode};

use crate::http::HttpResponse;
use crate::sns::error::SnsError;

pub use form::Form;

/// SNS's API version, which every SDK sends as `Version`.
pub const VERSION: &str = "2010-03-31";

/// Whether an unsigned request is for SNS: `Version=2010-03-31`, or an action only SNS has.
/// JSON requests (`X-Amz-Target`) are SQS's. A signed one says so in its credential scope.
pub fn names_sns(parts: &Parts, body: &[u8]) -> bool {
    if parts.headers.contains_key(crate::http::X_AMZ_TARGET) {
        return false;
    }
    let mut version = None;
    let mut action = None;
    let sources = [parts.uri.query().map(str::as_bytes), Some(body)];
    for (k, v) in sources
        .into_iter()
        .flatten()
        .flat_map(form_urlencoded::parse)
    {
        match k.as_ref() {
            "Version" => version = Some(v),
            "Action" => action = Some(v),
            _ => {}
        }
    }
    version.as_deref() == Some(VERSION)
        || action.is_some_and(|a| {
            crate::sns::actions::Action::NAMES.contains(&a.as_ref())
                && !crate::sqs::actions::Action::NAMES.contains(&a.as_ref())
        })
}

/// An XML response with SNS's headers.
pub fn respond(status: u16, request_id: &str, body: String) -> HttpResponse {
    let mut response = Response::new(Bytes::from(body).into());
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, crate::http::TEXT_XML);
    if let Ok(id) = HeaderValue::from_str(request_id) {
        headers.insert("x-amzn-requestid", id);
    }
    response
}

pub fn error_response(request_id: &str, err: &SnsError) -> HttpResponse {
    respond(err.status(), request_id, xml::error(request_id, err))
}

/// The certificate of the key that signs notifications ([`crate::sns::engine::signing`]).
pub fn certificate() -> HttpResponse {
    let pem = crate::sns::engine::signing::CERTIFICATE_PEM;
    let mut response = Response::new(Bytes::from_static(pem.as_bytes()).into());
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-x509-ca-cert"),
    );
    response
}
