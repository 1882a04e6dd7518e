//! Requests for a service sqslite does not serve (a Route 53 call, another service's
//! `X-Amz-Target`): answered with an error that names sqslite and what it serves, in the shape
//! the caller's SDK reads (JSON for the JSON protocols, Query's `<ErrorResponse>` for a form,
//! REST-XML's root `<Error>` otherwise), instead of an SQS error or an empty 404 that an SDK
//! reports as `UnknownError`. sqslite's own refusal: AWS has no counterpart, since each AWS
//! endpoint serves one service.

use hyper::http::request::Parts;
use hyper::StatusCode;

use super::{respond, HttpResponse, X_AMZ_TARGET};

/// What the error says is served.
const SERVES: &str = "Amazon SQS (AWS JSON 1.0 and AWS Query), Amazon SNS (AWS Query), Amazon S3 (REST-XML), Lambda's event source mappings (REST-JSON) and AWS STS (AWS Query)";
/// The error code SDKs show.
const CODE: &str = "UnknownService";

/// The refusal for a request for `service`.
pub fn refuse(parts: &Parts, service: &str, request_id: &str) -> HttpResponse {
    let message = format!(
        "sqslite serves {SERVES} on this endpoint; this request is for '{service}', which it does not serve."
    );
    if parts.headers.contains_key(X_AMZ_TARGET) {
        let body = serde_json::json!({ "__type": CODE, "message": message });
        return respond(
            StatusCode::BAD_REQUEST,
            crate::http::AMZ_JSON,
            request_id,
            body.to_string().into_bytes(),
        );
    }
    let mut escaped = String::with_capacity(message.len());
    super::xml::escape_into(&mut escaped, &message);
    let error = format!("<Code>{CODE}</Code><Message>{escaped}</Message>");
    // The Query SDKs (IAM's, STS's, SNS's) read the code only inside `<ErrorResponse><Error>`;
    // the REST-XML ones (Route 53's) read it from an `<Error>` at the root.
    let body = if is_query(parts) {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ErrorResponse><Error><Type>Sender</Type>{error}</Error><RequestId>{request_id}</RequestId></ErrorResponse>"
        )
    } else {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>{error}<RequestId>{request_id}</RequestId></Error>"
        )
    };
    respond(
        StatusCode::BAD_REQUEST,
        crate::http::APPLICATION_XML,
        request_id,
        body.into_bytes(),
    )
}

/// Whether a request is AWS Query's: a form body, or `Action=` in a GET's query string.
fn is_query(parts: &Parts) -> bool {
    let form = parts
        .headers
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let action = parts
        .uri
        .query()
        .is_some_and(|q| q.split('&').any(|kv| kv.starts_with("Action=")));
    form || action
}
