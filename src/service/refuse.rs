//! Refusals the router makes before a service runs (a browser origin, a body over the bound,
//! the connection cap), answered in the words of the service the request names, or the admin
//! API's.

use hyper::body::Incoming;
use hyper::http::request::Parts;
use hyper::Request;

use super::claim::{self, Claim, Served};
use super::new_request_id;
use crate::http::guard::{self, Route};
use crate::http::service::Refusal;
use crate::http::HttpResponse;

/// A refused request, answered in the caller's own terms: the admin API's JSON error, or the
/// error of the service the request names.
pub(super) fn refused(
    route: Route,
    req: &Request<Incoming>,
    refusal: &guard::Refusal,
) -> HttpResponse {
    tracing::debug!(status = %refusal.status, reason = %refusal.message, "request refused");
    if route != Route::Sqs {
        return crate::admin::error_response(refusal.status, &refusal.message);
    }
    refuse_as_named(&head_of(req), Refusal::Origin, &refusal.message)
}

/// The request line and headers of `req`, for a refusal made before its body is read.
pub(super) fn head_of<B>(req: &Request<B>) -> Parts {
    let (mut parts, ()) = Request::new(()).into_parts();
    parts.method = req.method().clone();
    parts.uri = req.uri().clone();
    parts.headers = req.headers().clone();
    parts
}

/// `refusal` in the words of the service the request's head names (a form's `Action` is in
/// its body, so an unsigned Query request gets SQS's words).
pub(super) fn refuse_as_named(parts: &Parts, refusal: Refusal, message: &str) -> HttpResponse {
    use crate::http::service::Service as _;
    let request_id = new_request_id();
    let signed = crate::http::auth::read(parts);
    let scope = signed.as_ref().ok().and_then(Option::as_ref);
    match claim::Head::read(parts).claim(parts, &[], scope) {
        Claim::Served(Served::Sns) => {
            crate::sns::Service::refuse(parts, &request_id, refusal, message)
        }
        Claim::Served(Served::Lambda) => {
            crate::triggers::Service::refuse(parts, &request_id, refusal, message)
        }
        Claim::Served(Served::Sts) => {
            crate::sts::Service::refuse(parts, &request_id, refusal, message)
        }
        Claim::Served(Served::S3) => {
            crate::s3::Service::refuse(parts, &request_id, refusal, message)
        }
        Claim::Served(Served::Sqs) | Claim::Foreign(_) => {
            crate::sqs::service::Service::refuse(parts, &request_id, refusal, message)
        }
    }
}
