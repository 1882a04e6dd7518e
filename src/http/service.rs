//! What the router asks of a service beside SQS: which requests it claims, the signing name
//! their signature must carry, its operations' names, and one request handled past the front
//! door. The router does the rest once for every service: the bounded body, the one reading
//! and verification of the signature, the context, the durable scope, the request log and
//! the metrics.

use std::future::Future;

use bytes::Bytes;
use hyper::http::request::Parts;

use super::auth::{AuthResult, Principal, Signed};
use super::{Context, DropConnection, HttpResponse};

/// A service's answer, with what the router logs and counts of it.
#[derive(Debug)]
pub struct Answered {
    pub response: HttpResponse,
    /// The operation the request named, `""` when it named none the service knows.
    pub action: &'static str,
    /// The failure's code and message, for the request log.
    pub error: Option<(&'static str, String)>,
}

impl Answered {
    /// A success of `action`.
    pub fn ok(response: HttpResponse, action: &'static str) -> Self {
        Answered {
            response,
            action,
            error: None,
        }
    }

    /// A failure, rendered as `response`, with its code and message for the log.
    pub fn failed(
        response: HttpResponse,
        action: &'static str,
        code: &'static str,
        message: &str,
    ) -> Self {
        Answered {
            response,
            action,
            error: Some((code, message.to_owned())),
        }
    }
}

/// See the module docs. Dispatched statically: the router names each service once.
pub trait Service: Send + Sync {
    /// The service's name in logs and metrics (`sns`, `lambda`).
    const NAME: &'static str;
    /// The SigV4 signing name its requests' credential scope carries.
    const SIGNING_NAME: &'static str;
    /// Its operations, in the action list its dispatch is generated from.
    const ACTIONS: &'static [&'static str];

    /// Whether a request on the shared port is this service's, by its one signature reading.
    fn claims(parts: &Parts, body: &[u8], scope: Option<&Signed>) -> bool;

    /// One request: authenticated by the router's verdict (`verdict`), decoded, authorized by
    /// its action list's rule, applied and encoded.
    fn handle<'a>(
        &'a self,
        ctx: Context,
        verdict: AuthResult<Option<Principal>>,
        parts: &'a Parts,
        body: &'a Bytes,
    ) -> impl Future<Output = Result<Answered, DropConnection>> + Send + 'a;

    /// The answer to a request whose changes could not be stored (`--data-dir`), in the
    /// service's own terms.
    fn unstored(&self, request_id: &str, message: &str) -> Answered;
}
