//! Amazon SNS beside SQS on the same port: topics whose subscriptions fan messages out into
//! sqslite's queues, to HTTP endpoints ([`actions::http`]) and into the delivery records
//! (email, SMS, push, Lambda, Firehose). The service owns its wire protocol ([`protocol`]:
//! AWS Query in, XML out), its [`actions`] and its [`engine`]; it reaches SQS only through
//! the SQS engine's own send ([`actions::deliver`]). [`error`] is its error table;
//! [`declare`] creates the topics a configuration declares.

pub mod actions;
pub mod declare;
pub mod engine;
pub mod error;
pub mod protocol;
pub mod service;

use bytes::Bytes;
use hyper::http::request::Parts;

use crate::http::auth::{AuthErrorKind, AuthResult, Principal};
use crate::http::DropConnection;
use crate::http::{Context, HttpResponse};
use actions::Action;
use error::{SnsError, SnsResult};
use protocol::xml::Xml;
use protocol::Form;
pub use service::{FaultRules, Service};

/// One SNS request, past the router's front door: its context is made and its signature
/// verified there (`verdict`); here it is decoded, authenticated, applied (unless a fault rule
/// hits it) and encoded.
pub async fn handle(
    app: &Service,
    mut ctx: Context,
    verdict: AuthResult<Option<Principal>>,
    parts: &Parts,
    body: &Bytes,
) -> Result<HttpResponse, DropConnection> {
    let result = match Form::parse(parts.uri.query(), Some(body)) {
        Ok(form) => run(app, verdict, &form, &mut ctx).await?,
        Err(e) => Err(e),
    };
    let (name, result) = match result {
        Ok((name, xml)) => (name, Ok(xml)),
        Err(e) => ("", Err(e)),
    };
    Ok(match &result {
        Ok(xml) => {
            tracing::debug!(action = name, "sns request ok");
            protocol::respond(
                200,
                &ctx.request_id,
                protocol::xml::success(name, &ctx.request_id, xml),
            )
        }
        Err(e) => {
            tracing::debug!(code = e.code(), message = %e.message, "sns request failed");
            protocol::error_response(&ctx.request_id, e)
        }
    })
}

async fn run(
    app: &Service,
    verdict: AuthResult<Option<Principal>>,
    form: &Form,
    ctx: &mut Context,
) -> Result<SnsResult<(&'static str, Xml)>, DropConnection> {
    let action = match decode(verdict, form, ctx) {
        Ok(action) => action,
        Err(e) => return Ok(Err(e)),
    };
    let name = action.name();
    if app.faults.armed() {
        if let Some(e) = app.faults.on_call(name, form).await? {
            return Ok(Err(e));
        }
    }
    Ok(action.apply(app, ctx).await.map(|xml| (name, xml)))
}

/// Authenticates the caller by the router's verdict and decodes the action.
fn decode(
    verdict: AuthResult<Option<Principal>>,
    form: &Form,
    ctx: &mut Context,
) -> SnsResult<Action> {
    let name = form.get("Action").unwrap_or_default();
    // The SubscribeURL and UnsubscribeURL of SNS's messages are followed by plain GETs, so
    // these two are served unsigned, as on AWS; signed, they are checked like any other.
    let link = matches!(name, "ConfirmSubscription" | "Unsubscribe");
    // Authentication first: an unsigned caller learns nothing about the request.
    let principal = match verdict {
        Ok(principal) => principal,
        Err(e) if link && e.kind == AuthErrorKind::MissingAuthenticationToken => None,
        Err(e) => return Err(SnsError::from_auth(&e)),
    };
    let action = Action::decode(name, form)?;
    let name = action.name();
    if let Some(principal) = principal {
        ctx.authenticate(principal, name);
    }
    Ok(action)
}

/// An SNS answer for a request whose changes could not be stored (`--data-dir`): the root
/// runs SNS requests inside the durable log's scope, as it does SQS's, and this is their 500.
pub fn unstored(request_id: &str, error: &crate::sqs::error::SqsError) -> HttpResponse {
    let err = SnsError::new(error::SnsErrorKind::InternalError, error.message.clone());
    tracing::debug!(code = err.code(), message = %err.message, "sns request failed");
    protocol::error_response(request_id, &err)
}
