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
pub mod faults;
pub mod protocol;
pub mod service;

use bytes::Bytes;
use hyper::http::request::Parts;

use crate::http::auth::{AuthErrorKind, AuthResult, Principal};
use crate::http::service::{Answered, Refusal};
use crate::http::Context;
use crate::http::{DropConnection, HttpResponse};
use actions::Action;
use error::{SnsError, SnsResult};
use protocol::xml::Xml;
use protocol::Form;
pub use service::Service;

/// SNS at the router's front door: requests whose credential scope names `sns` (or, unsigned,
/// whose `Version` or action is SNS's).
impl crate::http::service::Service for Service {
    const NAME: &'static str = "sns";
    const SIGNING_NAME: &'static str = "sns";
    const ACTIONS: &'static [&'static str] = Action::NAMES;
    type Body<'a> = &'a Bytes;

    fn names(parts: &Parts, body: &[u8]) -> bool {
        protocol::names_sns(parts, body)
    }

    fn refuse(_: &Parts, request_id: &str, refusal: Refusal, message: &str) -> HttpResponse {
        let kind = match refusal {
            Refusal::Origin => error::SnsErrorKind::AuthorizationError,
            Refusal::Body => error::SnsErrorKind::InvalidParameter,
            Refusal::Busy => error::SnsErrorKind::ServiceUnavailable,
        };
        protocol::error_response(request_id, &SnsError::new(kind, message.to_owned()))
    }

    async fn handle<'a>(
        &'a self,
        mut ctx: Context,
        verdict: AuthResult<Option<Principal>>,
        parts: &'a Parts,
        body: &'a Bytes,
    ) -> Result<Answered, DropConnection> {
        let mut name = "";
        let result = match Form::parse(parts.uri.query(), Some(body)) {
            Ok(form) => run(self, verdict, &form, &mut ctx, &mut name).await?,
            Err(e) => Err(e),
        };
        Ok(match result {
            Ok(xml) => {
                let body = protocol::xml::success(name, &ctx.request_id, &xml);
                Answered::ok(protocol::respond(200, &ctx.request_id, body), name)
            }
            Err(e) => failed(&ctx.request_id, name, &e),
        })
    }

    fn unstored(&self, request_id: &str, message: &str) -> Answered {
        let err = SnsError::new(error::SnsErrorKind::InternalError, message.to_owned());
        failed(request_id, "", &err)
    }
}

/// An SNS error as its XML answer.
fn failed(request_id: &str, action: &'static str, e: &SnsError) -> Answered {
    let response = protocol::error_response(request_id, e);
    Answered::failed(response, action, e.code(), &e.message)
}

/// Decodes, checks the fault rules and applies; `name` is the action's once it is known.
async fn run(
    app: &Service,
    verdict: AuthResult<Option<Principal>>,
    form: &Form,
    ctx: &mut Context,
    name: &mut &'static str,
) -> Result<SnsResult<Xml>, DropConnection> {
    // A request refused before it is decoded is still logged under the action it named.
    let named = form.get("Action").unwrap_or_default();
    *name = Action::NAMES
        .iter()
        .find(|n| **n == named)
        .map_or("", |n| n);
    let action = match decode(verdict, form, ctx) {
        Ok(action) => action,
        Err(e) => return Ok(Err(e)),
    };
    *name = action.name();
    if app.faults.armed() {
        if let Some(e) = faults::on_call(&app.faults, name, form).await? {
            return Ok(Err(e));
        }
    }
    Ok(action.apply(app, ctx).await)
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
    if let Some(principal) = principal {
        ctx.authenticate(principal);
    }
    Ok(action)
}
