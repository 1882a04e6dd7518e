//! The two SQS wire protocols on one port: telling them apart, decoding a request into an
//! action name, its input and the caller's context, and encoding results and errors.

pub mod foreign;
pub mod json;
pub mod json_out;
pub mod query;
pub mod query_de;
pub mod query_json;
pub mod queue_urls;
pub mod xml;

pub use crate::http::{Context, HttpResponse};
use crate::http::{AMZ_JSON, APPLICATION_JSON, TEXT_XML};
use crate::sqs::error::{ErrorKind, Fault, SqsError, SqsResult};
use bytes::Bytes;
use hyper::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE};
use hyper::{Method, Response, StatusCode};
pub use query::Params;
pub use queue_urls::QueueUrls;
use serde::de::DeserializeOwned;
use serde::Serialize;

// Built once: a name given as text is parsed and hashed again on every use.
pub use crate::http::X_AMZ_TARGET;
const X_AMZN_REQUEST_ID: HeaderName = HeaderName::from_static("x-amzn-requestid");
const X_AMZN_QUERY_ERROR: HeaderName = HeaderName::from_static("x-amzn-query-error");

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Json,
    /// AWS Query, answered in XML.
    Query,
    /// AWS Query from a client that asked for JSON (`Accept: application/json`).
    QueryJson,
}

impl Protocol {
    /// Whether the request came in AWS Query form, whatever the answer's format.
    pub fn is_query(self) -> bool {
        matches!(self, Protocol::Query | Protocol::QueryJson)
    }
}

/// A request's input in its wire form, decoded into the action's type on demand.
#[derive(Debug, Clone, Copy)]
pub enum Input<'a> {
    Json(&'a [u8]),
    Query {
        params: &'a Params<'a>,
        action: &'a str,
        /// The request path when it names a queue (path-style Query requests).
        path_queue: Option<&'a str>,
    },
}

impl Input<'_> {
    pub fn decode<T: DeserializeOwned>(self) -> SqsResult<T> {
        match self {
            Input::Json(body) => json::decode(body),
            Input::Query {
                params,
                action,
                path_queue,
            } => query_de::decode(params, action, path_queue),
        }
    }
}

/// The protocol of a request and, when it names one, its action.
pub fn detect(
    method: &Method,
    headers: &HeaderMap,
    params: &Params<'_>,
) -> (Protocol, SqsResult<String>) {
    if let Some(target) = headers.get(X_AMZ_TARGET) {
        let target = target.to_str().unwrap_or_default();
        let action = target
            .strip_prefix("AmazonSQS.")
            .filter(|a| !a.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| {
                SqsError::new(
                    ErrorKind::UnknownOperation,
                    format!("Operation {target} is not recognised."),
                )
            });
        return (Protocol::Json, action);
    }
    let content_type = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if content_type.starts_with("application/x-amz-json") && method == Method::POST {
        return (
            Protocol::Json,
            Err(SqsError::new(
                ErrorKind::UnknownOperation,
                "The X-Amz-Target header is missing.",
            )),
        );
    }
    let action = params.action().map(str::to_owned).ok_or_else(|| {
            SqsError::new(
                ErrorKind::InvalidAction,
                "The action or operation requested is invalid. Verify that the action is typed correctly.",
            )
        });
    let accepts_json = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("application/json"));
    let protocol = if accepts_json {
        Protocol::QueryJson
    } else {
        Protocol::Query
    };
    (protocol, action)
}

/// Query parameters from the URL and, for form posts, the body (form values win), within
/// [`query::MAX_PARAMS`].
pub fn query_params<'a>(
    uri_query: Option<&'a str>,
    headers: &HeaderMap,
    body: &'a [u8],
) -> SqsResult<Params<'a>> {
    let is_form = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
    let form = is_form
        || (headers.get(X_AMZ_TARGET).is_none() && !body.is_empty() && !body.starts_with(b"{"));
    let parse = || Params::parse(uri_query, form.then_some(body));
    // Scanning megabytes of keys takes a worker thread for tens of milliseconds: hand its
    // other connections to another worker meanwhile, so that they are not stalled.
    let multi_thread = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if form && body.len() > LARGE_FORM_BYTES && multi_thread {
        tokio::task::block_in_place(parse)
    } else {
        parse()
    }
}

/// Above this a form body is parsed off the worker's other tasks; valid requests other than
/// large messages stay well below it.
const LARGE_FORM_BYTES: usize = 256 * 1024;

/// SQS's answer to a request at a queue URL that names no action: 404 and this one element,
/// XML even for a client that accepts JSON [aws-recorded].
pub fn unknown_operation(request_id: &str) -> HttpResponse {
    respond(
        StatusCode::NOT_FOUND,
        TEXT_XML,
        request_id,
        b"<UnknownOperationException/>".to_vec(),
    )
}

/// The actions without output that AWS answers in JSON with no body at all
/// (`Content-Length: 0`): DeleteQueue and SetQueueAttributes in go-cloud's recordings
/// (`pubsub/awssnssqs/testdata`, 2025-03). The other actions without output answer `{}`
/// \[unverified: no recording shows them\].
const EMPTY_BODY: &[&str] = &["DeleteQueue", "SetQueueAttributes"];

/// Renders an action's typed output: JSON straight from the type; XML through its JSON shape.
/// `()` (no output) becomes `{}` or no body ([`EMPTY_BODY`]), or a response without a
/// `Result` element.
pub fn render<T: Serialize>(
    protocol: Protocol,
    action: &str,
    request_id: &str,
    output: &T,
) -> SqsResult<Vec<u8>> {
    let failed = |e: serde_json::Error| SqsError::new(ErrorKind::InternalError, e.to_string());
    match protocol {
        Protocol::Json => {
            // Room for a typical answer up front, instead of growing from empty in steps.
            let mut body = Vec::with_capacity(1024);
            json_out::write(&mut body, output)
                .map_err(|e| SqsError::new(ErrorKind::InternalError, e.to_string()))?;
            Ok(match body.as_slice() {
                b"null" if EMPTY_BODY.contains(&action) => Vec::new(),
                b"null" => b"{}".to_vec(),
                _ => body,
            })
        }
        Protocol::Query => {
            let value = serde_json::to_value(output).map_err(failed)?;
            Ok(xml::success(action, request_id, &value).into_bytes())
        }
        Protocol::QueryJson => {
            let value = serde_json::to_value(output).map_err(failed)?;
            Ok(query_json::success(action, request_id, value))
        }
    }
}

/// The HTTP response for a rendered success body or an error.
pub fn encode(protocol: Protocol, request_id: &str, result: SqsResult<Vec<u8>>) -> HttpResponse {
    match result {
        Ok(body) => {
            let content_type = match protocol {
                Protocol::Json => AMZ_JSON,
                Protocol::Query => TEXT_XML,
                Protocol::QueryJson => APPLICATION_JSON,
            };
            respond(StatusCode::OK, content_type, request_id, body)
        }
        Err(err) => encode_error(protocol, request_id, &err),
    }
}

pub fn encode_error(protocol: Protocol, request_id: &str, err: &SqsError) -> HttpResponse {
    let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::BAD_REQUEST);
    match protocol {
        Protocol::Json => {
            // Coral's bare errors (a malformed body) carry no message at all.
            let body = if err.message.is_empty() {
                serde_json::json!({"__type": err.kind.json_type()})
            } else {
                serde_json::json!({"__type": err.kind.json_type(), "message": err.message})
            };
            let mut response = respond(status, AMZ_JSON, request_id, body.to_string().into_bytes());
            let fault = match err.kind.fault() {
                Fault::Sender => "Sender",
                Fault::Receiver => "Receiver",
            };
            if let Ok(v) = HeaderValue::from_str(&format!("{};{fault}", err.kind.query_code())) {
                response.headers_mut().insert(X_AMZN_QUERY_ERROR, v);
            }
            response
        }
        Protocol::Query => respond(
            status,
            TEXT_XML,
            request_id,
            xml::error(request_id, err).into_bytes(),
        ),
        Protocol::QueryJson => respond(
            status,
            APPLICATION_JSON,
            request_id,
            query_json::error(request_id, err),
        ),
    }
}

fn respond(
    status: StatusCode,
    content_type: HeaderValue,
    request_id: &str,
    body: Vec<u8>,
) -> HttpResponse {
    let mut response = Response::new(Bytes::from(body).into());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, content_type);
    if let Ok(v) = HeaderValue::from_str(request_id) {
        headers.insert(X_AMZN_REQUEST_ID, v);
    }
    response
}
