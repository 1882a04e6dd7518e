//! Lambda's event-source-mapping API on sqslite's port: CreateEventSourceMapping,
//! GetEventSourceMapping, ListEventSourceMappings, UpdateEventSourceMapping and
//! DeleteEventSourceMapping in Lambda's REST-JSON protocol, so `aws lambda
//! create-event-source-mapping`, the SDKs, Terraform and CDK deployments can wire a queue to
//! a declared function as they would on AWS.
//!
//! [`route`] turns the method and path into one typed [`route::Operation`] (its body decoded
//! by [`input`]); [`actions`] apply it to the triggers model after [`rules`] checked it;
//! [`output`] renders Lambda's `EventSourceMappingConfiguration`; [`error`] is the API's
//! error table.
// Request and response types are read field by field against AWS's API reference.
#![warn(clippy::missing_docs_in_private_items)]

pub mod actions;
pub mod error;
pub mod input;
pub mod output;
pub mod route;
pub mod rules;
#[cfg(test)]
mod rules_tests;

use bytes::Bytes;
use hyper::http::request::Parts;

use crate::http::auth::{AuthResult, Principal};
use crate::http::service::{Answered, Refusal};
use crate::http::Context;
use crate::http::{DropConnection, HttpResponse};
use crate::triggers::Service;
use error::{json_response, LambdaError, LambdaResult};
use route::Operation;

/// Lambda's event-source-mapping API at the router's front door: requests whose credential
/// scope names `lambda`, or, unsigned, whose path is under Lambda's API version
/// (`/2015-03-31/`), which neither SQS nor SNS uses.
impl crate::http::service::Service for Service {
    const NAME: &'static str = "lambda";
    const SIGNING_NAME: &'static str = "lambda";
    const ACTIONS: &'static [&'static str] = Operation::NAMES;
    type Body<'a> = &'a Bytes;

    fn names(parts: &Parts, _: &[u8]) -> bool {
        parts.uri.path().starts_with(route::VERSION_PREFIX)
    }

    fn refuse(_: &Parts, request_id: &str, refusal: Refusal, message: &str) -> HttpResponse {
        let kind = match refusal {
            Refusal::Origin => error::LambdaErrorKind::AccessDenied,
            Refusal::Body => error::LambdaErrorKind::RequestTooLarge,
            Refusal::Busy => error::LambdaErrorKind::TooManyRequests,
        };
        LambdaError::new(kind, message.to_owned()).response(request_id)
    }

    async fn handle<'a>(
        &'a self,
        mut ctx: Context,
        verdict: AuthResult<Option<Principal>>,
        parts: &'a Parts,
        body: &'a Bytes,
    ) -> Result<Answered, DropConnection> {
        let mut name = "";
        Ok(match run(self, &mut ctx, verdict, parts, body, &mut name) {
            Ok((status, json)) => Answered::ok(json_response(status, &ctx.request_id, &json), name),
            Err(e) => failed(&ctx.request_id, name, &e),
        })
    }

    fn unstored(&self, request_id: &str, message: &str) -> Answered {
        let e = LambdaError::new(error::LambdaErrorKind::Service, message.to_owned());
        failed(request_id, "", &e)
    }
}

/// A Lambda error as its JSON answer.
fn failed(request_id: &str, action: &'static str, e: &LambdaError) -> Answered {
    Answered::failed(e.response(request_id), action, e.code(), &e.message)
}

/// Authenticates by the router's verdict, routes the request and runs its operation.
fn run(
    app: &Service,
    ctx: &mut Context,
    verdict: AuthResult<Option<Principal>>,
    parts: &Parts,
    body: &[u8],
    name: &mut &'static str,
) -> LambdaResult<(hyper::StatusCode, serde_json::Value)> {
    // Authentication first: an unsigned caller learns nothing about the request.
    let principal = verdict.map_err(|e| LambdaError::from_auth(&e))?;
    let operation = Operation::decode(&parts.method, parts.uri.path(), parts.uri.query(), body)?;
    *name = operation.name();
    if let Some(principal) = principal {
        ctx.authenticate(principal);
    }
    let caller = rules::Caller {
        region: &ctx.region,
        account: &ctx.account,
        principal: ctx.principal.as_ref(),
    };
    let (status, json) = operation.apply(app, &caller)?;
    Ok((status, json))
}
