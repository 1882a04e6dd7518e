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
use crate::http::{Context, HttpResponse};
use crate::triggers::Service;
use error::{json_response, LambdaError, LambdaResult};
use route::Operation;

/// The SigV4 signing name of Lambda.
pub const SIGNING_NAME: &str = "lambda";

/// Whether a request on the shared port is for Lambda: its credential scope names `lambda`,
/// or, unsigned, its path is under Lambda's API version (`/2015-03-31/`), which neither SQS
/// nor SNS uses. `signed` is the request's one reading of its signature.
pub fn is_lambda(parts: &Parts, signed: Option<&crate::http::auth::Signed>) -> bool {
    match signed {
        Some(signed) if !signed.service.is_empty() => signed.service == SIGNING_NAME,
        _ => parts.uri.path().starts_with(route::VERSION_PREFIX),
    }
}

/// One Lambda request, past the router's front door (which made its context and verified
/// its signature: `verdict`): authenticate, route, apply, encode.
pub async fn handle(
    app: &Service,
    mut ctx: Context,
    verdict: AuthResult<Option<Principal>>,
    parts: &Parts,
    body: &Bytes,
) -> HttpResponse {
    let result = run(app, &mut ctx, verdict, parts, body);
    match result {
        Ok((name, status, json)) => {
            tracing::debug!(action = name, status = status.as_u16(), "lambda request ok");
            json_response(status, &ctx.request_id, &json)
        }
        Err(e) => {
            tracing::debug!(code = e.code(), message = %e.message, "lambda request failed");
            e.response(&ctx.request_id)
        }
    }
}

/// The answer to a Lambda request whose mapping could not be stored (`--data-dir`): the
/// root runs Lambda requests inside the durable log's scope, as it does SQS's, and this is
/// their ServiceException.
pub fn unstored(request_id: &str, error: &crate::sqs::error::SqsError) -> HttpResponse {
    let e = LambdaError::new(error::LambdaErrorKind::Service, error.message.clone());
    tracing::debug!(code = e.code(), message = %e.message, "lambda request failed");
    e.response(request_id)
}

/// Authenticates by the router's verdict, routes the request and runs its operation.
fn run(
    app: &Service,
    ctx: &mut Context,
    verdict: AuthResult<Option<Principal>>,
    parts: &Parts,
    body: &[u8],
) -> LambdaResult<(&'static str, hyper::StatusCode, serde_json::Value)> {
    // Authentication first: an unsigned caller learns nothing about the request.
    let principal = verdict.map_err(|e| LambdaError::from_auth(&e))?;
    let operation = Operation::decode(&parts.method, parts.uri.path(), parts.uri.query(), body)?;
    let name = operation.name();
    if let Some(principal) = principal {
        ctx.authenticate(principal, name);
    }
    let caller = rules::Caller {
        region: &ctx.region,
        account: &ctx.account,
        principal: ctx.principal.as_ref(),
    };
    let (status, json) = operation.apply(app, &caller)?;
    Ok((name, status, json))
}
