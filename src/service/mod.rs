//! One HTTP request: decode -> apply -> encode, plus `/health`; admin paths go to [`crate::admin`].

use std::future::Future;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, ACCEPT, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};

use crate::admin::ui;
use crate::app::App;
use crate::clock::Stopwatch;
use crate::http::guard::{self, Route};
use crate::http::request_body::{read_body, MAX_BODY_BYTES};
use crate::http::service::Service;
use crate::http::DropConnection;
use crate::sqs::actions::Action;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::{self, Context, HttpResponse, Params, Protocol};

mod execute;
use execute::{execute, Ran};

pub async fn handle(
    app: &Arc<App>,
    req: Request<Incoming>,
    peer: Option<IpAddr>,
) -> Result<HttpResponse, DropConnection> {
    if req.uri().path() == "/health" && req.method() == Method::GET {
        return Ok(plain_json(StatusCode::OK, r#"{"status":"ok"}"#));
    }
    // SNS's SigningCertURL: public, as AWS's certificates are.
    if req.uri().path() == crate::sns::engine::signing::CERT_PATH && req.method() == Method::GET {
        return Ok(crate::sns::protocol::certificate());
    }
    let accept = req.headers().get(ACCEPT).and_then(|v| v.to_str().ok());
    if app.config.admin.enabled && ui::wants_dashboard(req.method(), req.uri(), accept) {
        return Ok(ui::redirect());
    }
    let route = if ui::is_asset(req.uri().path()) {
        Route::Page
    } else if crate::admin::owns(req.uri().path()) {
        Route::Admin
    } else {
        Route::Sqs
    };
    let origin = match guard::admit(&app.config, route, req.method(), req.headers()) {
        Ok(origin) => origin,
        Err(refusal) => return Ok(refused(route, &req, &refusal)),
    };
    let mut response = match (&origin, req.method()) {
        (Some(_), &Method::OPTIONS) => {
            let mut r = Response::new(Bytes::new().into());
            *r.status_mut() = StatusCode::NO_CONTENT;
            guard::preflight(r.headers_mut(), req.headers());
            r
        }
        _ if route != Route::Sqs => {
            let (method, path) = (req.method().clone(), req.uri().path().to_owned());
            // Boxed, as every path but SQS's is: a future holds the largest of the futures it
            // awaits, and the one each request moves into place would otherwise carry the
            // admin API's, SNS's and the durable log's states (15 KB) on every SendMessage.
            let response = Box::pin(crate::admin::handle(app.clone(), req)).await;
            tracing::debug!(%method, %path, status = response.status().as_u16(), "admin request");
            response
        }
        _ => sqs(app, req, peer).await?,
    };
    if let Some(origin) = origin {
        guard::add_cors(response.headers_mut(), origin);
    }
    Ok(response)
}

/// A refused request, answered in the caller's own terms: an SQS error or an admin JSON error.
fn refused(route: Route, req: &Request<Incoming>, refusal: &guard::Refusal) -> HttpResponse {
    tracing::debug!(status = %refusal.status, reason = %refusal.message, "request refused");
    if route != Route::Sqs {
        return crate::admin::error_response(refusal.status, &refusal.message);
    }
    let (protocol, _) = protocol::detect(req.method(), req.headers(), &Params::default());
    let request_id = crate::sqs::engine::message::id_text(&uuid::Uuid::new_v4());
    let err = SqsError::new(ErrorKind::AccessDenied, refusal.message.clone());
    protocol::encode_error(protocol, &request_id, &err)
}

/// One line per request of every service at debug (`SQSLITE_LOG=debug`), failures with
/// their code and message.
fn log_outcome(service: &str, name: &str, err: Option<(&str, &str)>, took: Duration) {
    let ms = took.as_secs_f64() * 1000.0;
    match err {
        None => tracing::debug!(service, action = %name, ms, "request ok"),
        Some((code, message)) => tracing::debug!(
            service,
            action = %name,
            ms,
            code,
            message,
            "request failed"
        ),
    }
}

/// The refusal of a request for a service sqslite does not serve, told by its signature's
/// scope or its `X-Amz-Target`.
fn foreign(
    parts: &hyper::http::request::Parts,
    signed: &crate::http::auth::AuthResult<Option<crate::http::auth::Signed>>,
    request_id: &str,
) -> Option<HttpResponse> {
    let scope = signed.as_ref().ok().and_then(Option::as_ref);
    let service = protocol::foreign::foreign_service(parts, scope.map(|s| s.service.as_str()))?;
    tracing::debug!(%service, "request for a service sqslite does not serve");
    Some(protocol::foreign::refuse(parts, &service, request_id))
}

/// The front door's work for a service beside SQS, done once as for SQS: the one signature
/// reading verified for the service's signing name, the request's context, the durable scope
/// (with `--data-dir` the answer waits until its records are stored: an SNS publish's
/// deliveries into durable queues, a mapping the Lambda API changed; a write that failed is
/// answered in the service's own terms), the request log and the metrics. The service
/// authenticates by the verdict and authorizes each operation by its action list.
async fn further<S: Service>(
    app: &Arc<App>,
    service: &S,
    parts: &hyper::http::request::Parts,
    body: &Bytes,
    (request_id, signed): (
        &str,
        &crate::http::auth::AuthResult<Option<crate::http::auth::Signed>>,
    ),
    (peer, started): (Option<IpAddr>, Stopwatch),
) -> Result<HttpResponse, DropConnection> {
    let scope = signed.as_ref().ok().and_then(Option::as_ref);
    let verdict = crate::http::auth::verify_for(
        &app.keys(),
        || app.now(),
        parts,
        body,
        signed.as_ref().map_err(Clone::clone).map(Option::as_ref),
        S::SIGNING_NAME,
    );
    let mut ctx = Context::new(
        &app.config.defaults(),
        &parts.headers,
        "/",
        scope,
        request_id.to_owned(),
    );
    ctx.peer = peer;
    unverified_issued(app, &mut ctx, scope);
    let handled = service.handle(ctx, verdict, parts, body);
    let answered = if app.durable.is_none() {
        handled.await?
    } else {
        let stored = crate::durable::journal::durable(async { Ok(handled.await) }).await;
        // A publish's deliveries and a mapping's change grow the log as sends do.
        app.maybe_compact();
        match stored {
            Ok(answer) => answer?,
            Err(e) => service.unstored(request_id, &e.message),
        }
    };
    let took = started.elapsed();
    let error = answered
        .error
        .as_ref()
        .map(|(code, message)| (*code, message.as_str()));
    log_outcome(S::NAME, answered.action, error, took);
    let mut response = answered.response;
    (app.metrics).observe_service(S::NAME, answered.action, response.status().as_u16(), took);
    stamp_date(app, &mut response);
    Ok(response)
}

/// A request's answer still to come, boxed.
type Answering<'a> =
    std::pin::Pin<Box<dyn Future<Output = Result<HttpResponse, DropConnection>> + Send + 'a>>;

/// A request another service claims (Lambda's, SNS's, STS's), handled by [`further`]; `None`: SQS's.
/// Boxed, so the SQS path's future carries none of the other services' state.
fn beside_sqs<'a>(
    app: &'a Arc<App>,
    parts: &'a hyper::http::request::Parts,
    body: &'a Bytes,
    ids: (
        &'a str,
        &'a crate::http::auth::AuthResult<Option<crate::http::auth::Signed>>,
    ),
    at: (Option<IpAddr>, Stopwatch),
) -> Option<Answering<'a>> {
    let scope = ids.1.as_ref().ok().and_then(Option::as_ref);
    if crate::triggers::Service::claims(parts, body, scope) {
        return Some(Box::pin(further(app, &*app.triggers, parts, body, ids, at)));
    }
    if crate::sns::Service::claims(parts, body, scope) {
        return Some(Box::pin(further(app, &*app.sns, parts, body, ids, at)));
    }
    if crate::sts::Service::claims(parts, body, scope) {
        return Some(Box::pin(further(app, &*app.sts, parts, body, ids, at)));
    }
    None
}

/// One SQS API request: decode, apply, encode.
async fn sqs(
    app: &Arc<App>,
    req: Request<Incoming>,
    peer: Option<IpAddr>,
) -> Result<HttpResponse, DropConnection> {
    let started = Stopwatch::start();
    let (parts, body) = req.into_parts();
    let request_id = crate::sqs::engine::message::id_text(&uuid::Uuid::new_v4());
    let limit = app.config.connections.header_timeout;
    let Some(body) = read_body(body, &parts.headers, limit).await else {
        return Ok(unread_body(&parts, &request_id, limit));
    };
    // One reading of the signature serves the router, the context and the check alike.
    let signed = crate::http::auth::read(&parts);
    let ids = (request_id.as_str(), &signed);
    if let Some(other) = beside_sqs(app, &parts, &body, ids, (peer, started)) {
        return other.await;
    }
    let (params, protocol, action_name) = read_action(&parts, &body);
    if let Some(refusal) = foreign(&parts, &signed, &request_id) {
        return Ok(refusal);
    }
    let mut ctx = Context::new(
        &app.config.defaults(),
        &parts.headers,
        parts.uri.path(),
        signed.as_ref().ok().and_then(Option::as_ref),
        request_id,
    );
    ctx.peer = peer;
    unverified_issued(app, &mut ctx, signed.as_ref().ok().and_then(Option::as_ref));
    // Authentication comes first: an unsigned caller learns nothing about the request.
    let verified = crate::http::auth::verify(
        &app.keys(),
        || app.now(),
        &parts,
        &body,
        signed.as_ref().map_err(Clone::clone).map(Option::as_ref),
    );
    // A refused request is logged and counted under the action it named, when it named one.
    let (name, named) = match action_name {
        Ok(name) => (name, Ok(())),
        Err(e) => (String::new(), Err(e)),
    };
    let ready = verified
        .map_err(SqsError::from)
        .and_then(|principal| named.map(|()| act_as(&mut ctx, principal, &name)));
    let no_action = matches!(&ready, Err(e) if e.kind == ErrorKind::InvalidAction);
    if protocol.is_query() && no_action && ctx.path_queue.is_some() {
        return Ok(protocol::unknown_operation(&ctx.request_id));
    }
    let result = match ready {
        Ok(()) => match execute(app, &ctx, protocol, &name, &body, &params) {
            Ran::Now(answer) => answer,
            Ran::Waiting(waiting) => waiting.await,
            Ran::Later(pending) => pending.await?,
        },
        Err(e) => Err(e),
    };
    record(app, &name, result.as_ref().err(), started.elapsed());
    let mut response = protocol::encode(protocol, &ctx.request_id, result);
    stamp_date(app, &mut response);
    Ok(response)
}

/// An SQS request's log line and metrics, and the alarms' nudge.
#[inline]
fn record(app: &App, name: &str, error: Option<&SqsError>, took: Duration) {
    let logged = error.map(|e| (e.kind.query_code(), &*e.message));
    log_outcome("sqs", name, logged, took);
    app.metrics.observe(name, error, took);
    app.alarms.touch(&app.ticker);
}

/// The answer to a body too large, or too slow to arrive.
fn unread_body(
    parts: &hyper::http::request::Parts,
    request_id: &str,
    limit: Duration,
) -> HttpResponse {
    let (protocol, _) = protocol::detect(&parts.method, &parts.headers, &Params::default());
    let err = SqsError::invalid_parameter(format!(
        "The request body is larger than {MAX_BODY_BYTES} bytes, or did not arrive in full \
         within {limit:?} (--header-timeout)."
    ));
    protocol::encode_error(protocol, request_id, &err)
}

/// Without declared credentials nothing is verified, yet a key STS issued still acts as whom
/// it was issued for (a role's session in the role's account). A declared server verifies it
/// instead, in `http::auth::verify`.
#[inline]
fn unverified_issued(app: &App, ctx: &mut Context, scope: Option<&crate::http::auth::Signed>) {
    if !app.config.credentials.is_empty() {
        return;
    }
    if let Some(key) = scope.and_then(|s| app.temporary_keys.find(&s.access_key)) {
        ctx.act_as_issued(&key.principal);
    }
}

/// A signed request acts as its key's principal for the operation it names.
#[inline]
fn act_as(ctx: &mut Context, principal: Option<crate::http::auth::Principal>, name: &str) {
    if let Some(principal) = principal {
        let operation = Action::NAMES.iter().find(|n| **n == name).map_or("", |n| n);
        ctx.authenticate(principal, operation);
    }
}

/// The Query parameters (none for JSON, whose input is the body) and the action they name;
/// too many parameters is the request's error.
#[inline]
fn read_action<'a>(
    parts: &'a hyper::http::request::Parts,
    body: &'a [u8],
) -> (Params<'a>, Protocol, SqsResult<String>) {
    let params = if parts.headers.contains_key(protocol::X_AMZ_TARGET) {
        Ok(Params::default())
    } else {
        protocol::query_params(parts.uri.query(), &parts.headers, body)
    };
    let (params, too_many) = match params {
        Ok(p) => (p, None),
        Err(e) => (Params::default(), Some(e)),
    };
    let (protocol, action_name) = protocol::detect(&parts.method, &parts.headers, &params);
    let action_name = match too_many {
        Some(e) => Err(e),
        None => action_name,
    };
    (params, protocol, action_name)
}

/// On a manual clock the Date header tells the server's time, as SQS's does: the SDKs
/// correct their signing clock by it, so signed requests keep working as the clock moves.
fn stamp_date(app: &App, response: &mut HttpResponse) {
    if let Some(clock) = app.clock.as_manual() {
        use crate::clock::Clock;
        if let Ok(date) = HeaderValue::from_str(&crate::http::auth::http_date(clock.now())) {
            response.headers_mut().insert(hyper::header::DATE, date);
        }
    }
}

pub fn plain_json(status: StatusCode, body: &str) -> HttpResponse {
    let mut response = Response::new(Bytes::from(body.to_owned()).into());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, crate::http::APPLICATION_JSON);
    response
}

/// The router is what the accept loop serves.
impl crate::http::server::Handler for App {
    fn handle(
        app: &Arc<Self>,
        req: Request<Incoming>,
        peer: Option<IpAddr>,
    ) -> impl std::future::Future<Output = Result<HttpResponse, DropConnection>> + Send + '_ {
        handle(app, req, peer)
    }

    async fn health(app: &Arc<Self>, req: Request<Incoming>) -> HttpResponse {
        handle(app, req, None)
            .await
            .unwrap_or_else(|DropConnection| plain_json(StatusCode::OK, "{}"))
    }

    fn refuse_over_cap(&self, req: &Request<Incoming>, message: &str) -> HttpResponse {
        if crate::admin::owns(req.uri().path()) {
            return crate::admin::error_response(StatusCode::SERVICE_UNAVAILABLE, message);
        }
        let (protocol, _) = protocol::detect(req.method(), req.headers(), &Params::default());
        let request_id = crate::sqs::engine::message::id_text(&uuid::Uuid::new_v4());
        let err = SqsError::new(ErrorKind::ServiceUnavailable, message);
        protocol::encode_error(protocol, &request_id, &err)
    }

    fn closing(&self) {
        self.sqs.waiters.close();
    }
}
