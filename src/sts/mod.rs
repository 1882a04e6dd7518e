//! AWS STS beside SQS on the same port: GetCallerIdentity, AssumeRole and GetSessionToken.
//! The service owns its wire protocol ([`protocol`]: AWS Query in, XML out), its [`actions`],
//! its [`engine`] (the declared roles and the issued temporary keys) and its [`error`]
//! table. The keys it issues are accepted by every service: the composition root hands the
//! engine's store to the auth floor as its [`crate::http::auth::TemporaryKeys`].

pub mod actions;
pub mod engine;
pub mod error;
pub mod protocol;

use std::sync::Arc;

use bytes::Bytes;
use hyper::http::request::Parts;

use crate::clock::{Millis, SharedClock};
use crate::http::auth::{AuthResult, Principal, TemporaryKeys};
use crate::http::service::{Answered, Refusal};
use crate::http::{Context, DropConnection, HttpResponse};
use actions::Action;
use error::{StsError, StsErrorKind, StsResult};
use protocol::{Form, Xml};

/// The STS service: its engine and the server's clock, which sessions expire on.
pub struct Service {
    /// Roles and issued keys.
    pub sts: engine::Sts,
    /// The server's clock.
    clock: SharedClock,
}

impl Service {
    /// The service over the declared `roles`; `verified` when `[[credentials]]` are declared.
    pub fn new(roles: &[engine::Role], verified: bool, clock: SharedClock) -> Self {
        Service {
            sts: engine::Sts::new(roles, verified),
            clock,
        }
    }

    /// The issued keys, as the auth floor reads them.
    pub fn temporary_keys(&self) -> Arc<dyn TemporaryKeys> {
        self.sts.sessions.clone()
    }

    /// The server's time now.
    pub fn now(&self) -> Millis {
        self.clock.now()
    }
}

/// STS at the router's front door: requests whose credential scope names `sts` (or,
/// unsigned, whose `Version` and action are STS's).
impl crate::http::service::Service for Service {
    const NAME: &'static str = "sts";
    const SIGNING_NAME: &'static str = "sts";
    const ACTIONS: &'static [&'static str] = Action::NAMES;
    type Body<'a> = &'a Bytes;

    fn names(parts: &Parts, body: &[u8]) -> bool {
        protocol::names_sts(parts, body)
    }

    fn refuse(_: &Parts, request_id: &str, refusal: Refusal, message: &str) -> HttpResponse {
        let kind = match refusal {
            Refusal::Origin => StsErrorKind::AccessDenied,
            Refusal::Body => StsErrorKind::ValidationError,
            Refusal::Busy => StsErrorKind::ServiceUnavailable,
        };
        protocol::error_document(request_id, &StsError::new(kind, message.to_owned()))
    }

    async fn handle<'a>(
        &'a self,
        mut ctx: Context,
        verdict: AuthResult<Option<Principal>>,
        parts: &'a Parts,
        body: &'a Bytes,
    ) -> Result<Answered, DropConnection> {
        let mut name = "";
        let result = Form::parse(parts.uri.query(), body)
            .and_then(|form| run(self, verdict, &form, &mut ctx, &mut name));
        Ok(match result {
            Ok(xml) => Answered::ok(protocol::success(name, &ctx.request_id, &xml), name),
            Err(e) => failed(&ctx.request_id, name, &e),
        })
    }

    fn unstored(&self, request_id: &str, message: &str) -> Answered {
        let err = StsError::new(StsErrorKind::InternalFailure, message.to_owned());
        failed(request_id, "", &err)
    }
}

/// An STS error as its XML answer.
fn failed(request_id: &str, action: &'static str, e: &StsError) -> Answered {
    let response = protocol::error_document(request_id, e);
    Answered::failed(response, action, e.code(), &e.message)
}

/// Authenticates by the router's verdict, decodes and applies; `name` is the action's once
/// it is known.
fn run(
    app: &Service,
    verdict: AuthResult<Option<Principal>>,
    form: &Form,
    ctx: &mut Context,
    name: &mut &'static str,
) -> StsResult<Xml> {
    // A request refused before it is decoded is still logged under the action it named.
    let named = form.get("Action").unwrap_or_default();
    *name = Action::NAMES
        .iter()
        .find(|n| **n == named)
        .map_or("", |n| n);
    // Authentication first: an unsigned caller learns nothing about the request.
    let principal = verdict.map_err(|e| StsError::from_auth(&e))?;
    let action = Action::decode(named, form)?;
    if let Some(principal) = principal {
        ctx.authenticate(principal);
    }
    action.apply(app, ctx)
}
