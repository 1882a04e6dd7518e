//! STS's wire protocol: AWS Query only (STS's service model says `"protocol": "query"`, and the
//! SDKs post forms with `Action=` and `Version=2011-06-15`), answered in XML in STS's
//! namespace. Here: which requests on the shared port are STS's, their form input (read by
//! the shared Query deserializer, [`crate::http::query`]) and the documents they are answered
//! with.

use bytes::Bytes;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::http::request::Parts;
use hyper::{Response, StatusCode};
use serde::de::DeserializeOwned;

use super::error::{StsError, StsErrorKind, StsResult, Violations};
use crate::http::query::{Dialect, Expected, Refusal, Shape};
pub use crate::http::xml::Xml;
use crate::http::HttpResponse;

/// STS's API version, which every SDK sends as `Version`.
pub const VERSION: &str = "2011-06-15";
/// The namespace of STS's answers.
pub const NAMESPACE: &str = "https://sts.amazonaws.com/doc/2011-06-15/";
/// At most this many parameters per request: STS's largest input (AssumeRole with 50 tags
/// and 10 policy ARNs) has under 200. (Chosen: STS documents no such limit.)
const MAX_PARAMS: usize = 512;

/// Whether an unsigned request on the shared port is STS's: `Version=2011-06-15` and an
/// action STS has (sqslite's own rule: on AWS STS has an endpoint of its own). JSON requests
/// (`X-Amz-Target`) are never STS's; a signed one is STS's when its scope says `sts`.
pub fn names_sts(parts: &Parts, body: &[u8]) -> bool {
    if parts.headers.contains_key(crate::http::X_AMZ_TARGET) {
        return false;
    }
    let (mut version, mut action) = (None, None);
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
        && action.is_some_and(|a| super::actions::Action::NAMES.contains(&a.as_ref()))
}

/// A request's parameters (URL query, then form body; a later value wins), in arrival order.
#[derive(Debug, Default)]
pub struct Form {
    /// Each parameter's decoded name and value.
    pairs: Vec<(String, String)>,
}

impl Form {
    /// The parameters of a request, within [`MAX_PARAMS`].
    pub fn parse(uri_query: Option<&str>, body: &[u8]) -> StsResult<Form> {
        let mut pairs = Vec::new();
        for source in [uri_query.map(str::as_bytes), Some(body)]
            .into_iter()
            .flatten()
        {
            for (k, v) in form_urlencoded::parse(source) {
                if pairs.len() == MAX_PARAMS {
                    // [unverified] wording: STS's own refusal is not recorded.
                    return Err(StsError::validation(format!(
                        "The request has more than {MAX_PARAMS} parameters."
                    )));
                }
                pairs.push((k.into_owned(), v.into_owned()));
            }
        }
        Ok(Form { pairs })
    }

    /// The last value sent for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        let found = self.pairs.iter().rev().find(|(k, _)| k == key);
        found.map(|(_, v)| v.as_str())
    }

    /// The parameters as a `T`.
    pub fn decode<T: DeserializeOwned>(&self) -> StsResult<T> {
        let pairs = self.pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        crate::http::query::decode(pairs, Sts)
    }
}

/// STS's naming for the shared deserializer: the members sqslite reads are all scalars.
#[derive(Debug, Clone, Copy)]
struct Sts;

impl Dialect<'_> for Sts {
    type Error = StsError;

    fn shape(self, _: &str) -> Shape {
        Shape::Scalar
    }
}

/// The validator's words for a member serde could not read.
impl Refusal for StsError {
    fn missing(member: &'static str) -> Self {
        let mut found = Violations::default();
        found.null(&lower_first(member));
        found.finish().err().unwrap_or_else(|| unreachable!())
    }

    /// [unverified] wording: how STS refuses a number that is not one is not recorded.
    fn invalid(text: &str, member: &'static str, _: Expected) -> Self {
        let mut found = Violations::default();
        let rule = "Member must be a number";
        found.broken(&lower_first(member), text, rule);
        found.finish().err().unwrap_or_else(|| unreachable!())
    }

    fn unreadable() -> Self {
        StsError::validation("A parameter has the wrong shape. [sqslite]")
    }
}

/// `RoleArn` as the validator names it: `roleArn`.
pub fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_lowercase().chain(chars).collect::<String>()
    })
}

/// An XML answer with STS's headers.
fn respond(status: u16, request_id: &str, body: String) -> HttpResponse {
    let mut response = Response::new(Bytes::from(body).into());
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, crate::http::TEXT_XML);
    if let Ok(id) = HeaderValue::from_str(request_id) {
        headers.insert("x-amzn-requestid", id);
    }
    response
}

/// `<{Action}Response><{Action}Result>…</…Result><ResponseMetadata>…` with the result's
/// members, already written (see [`Xml`]).
pub fn success(action: &str, request_id: &str, result: &Xml) -> HttpResponse {
    let body = crate::http::xml::success(NAMESPACE, action, request_id, result);
    respond(200, request_id, body)
}

/// STS's error answer.
pub fn error_document(request_id: &str, err: &StsError) -> HttpResponse {
    respond(err.kind.status(), request_id, error_body(request_id, err))
}

/// STS's error document: Type, Code and Message inside Error, then the RequestId.
fn error_body(request_id: &str, err: &StsError) -> String {
    let code = (err.kind.fault(), err.code());
    crate::http::xml::error(NAMESPACE, request_id, code, &err.message)
}

/// The refusal of a form that names no action STS has: the wording of IAM's and SES's Query
/// endpoints [aws-recorded: fog/fog-aws#368, aws/aws-cli#37; unverified for STS].
pub fn unknown_action(name: &str) -> StsError {
    StsError::new(
        StsErrorKind::InvalidAction,
        format!("Could not find operation {name} for version {VERSION}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_document_has_stss_shape() {
        let err = StsError::new(StsErrorKind::AccessDenied, "no <way>");
        assert_eq!(error_document("rid", &err).status(), 403);
        assert_eq!(
            error_body("rid", &err),
            "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error>\
             <Type>Sender</Type><Code>AccessDenied</Code><Message>no &lt;way&gt;</Message>\
             </Error><RequestId>rid</RequestId></ErrorResponse>"
        );
    }
}
