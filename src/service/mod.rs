//! The router: one path for every request to a service on the port (which service is one
//! table, [`claim`]; then the body, the signature, the context, the durable scope, the log and
//! the metrics, once for all), plus `/health`; admin paths go to [`crate::admin`].

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
use crate::http::service::{Refusal, Service};
use crate::http::{Context, DropConnection, HttpResponse};
use hyper::http::request::Parts;

mod claim;
mod refuse;
use claim::{Claim, Served};
use refuse::{head_of, refuse_as_named, refused};

pub async fn handle(
    app: &Arc<App>,
    req: Request<Incoming>,
    peer: Option<IpAddr>,
) -> Result<HttpResponse, DropConnection> {
    // The guard reads the request where it lies: each move of a `Request<Incoming>` is a
    // copy of it on every call (hyper's body grew with the HTTP/2 support s3s turns on).
    let origin = match door(app, &req) {
        Door::Answered(response) => return Ok(response),
        Door::Admin(origin) => {
            let (method, path) = (req.method().clone(), req.uri().path().to_owned());
            // Boxed, as every path but SQS's is: a future holds the largest of the futures it
            // awaits, and the one each request moves into place would otherwise carry the
            // admin API's, SNS's and the durable log's states (15 KB) on every SendMessage.
            let mut response = Box::pin(crate::admin::handle(app.clone(), req)).await;
            tracing::debug!(%method, %path, status = response.status().as_u16(), "admin request");
            with_cors(&mut response, origin);
            return Ok(response);
        }
        Door::Api(origin) => origin,
    };
    // The services' own path is this function's, not a further one's: each async layer the
    // request's future nests is one more copy of it on every request.
    let started = Stopwatch::start();
    let (parts, body) = req.into_parts();
    // One reading of the signature serves the router, the context and the check alike.
    let signed = crate::http::auth::read(&parts);
    let head = claim::Head::read(&parts);
    let scope = signed.as_ref().ok().and_then(Option::as_ref);
    if let Some(Served::S3) = head.streamed(&parts, scope) {
        // Claimed by its head: the body streams to S3 unread. Boxed, as the services but
        // SQS's are.
        let ids = (new_request_id(), signed);
        return Box::pin(s3(app, (parts, body), ids, (peer, started), origin)).await;
    }
    let limit = app.config.connections.header_timeout;
    let Some(body) = read_body(body, &parts.headers, limit).await else {
        let message = format!(
            "The request body is larger than {MAX_BODY_BYTES} bytes, or did not arrive in full \
             within {limit:?} (--header-timeout)."
        );
        return Ok(refuse_as_named(&parts, Refusal::Body, &message));
    };
    // Read again rather than held across the body's read: each value held there is one more
    // in every request's future (the pinned size in `future_size_tests`).
    let scope = signed.as_ref().ok().and_then(Option::as_ref);
    let claimed = head.claim(&parts, &body, scope);
    // Made once the body is in, for the same reason.
    let request_id = new_request_id();
    let ids = (request_id, &signed);
    let at = (peer, started);
    let mut response = match claimed {
        Claim::Served(Served::Sqs) => {
            further(app, &*app.sqs_service, &parts, &body, ids, at).await?
        }
        // Boxed, so the SQS path's future carries none of the other services' state.
        Claim::Served(Served::Sns) => {
            Box::pin(further(app, &*app.sns, &parts, &body, ids, at)).await?
        }
        Claim::Served(Served::Lambda) => {
            Box::pin(further(app, &*app.triggers, &parts, &body, ids, at)).await?
        }
        Claim::Served(Served::Sts) => {
            Box::pin(further(app, &*app.sts, &parts, &body, ids, at)).await?
        }
        // Never: S3's rule reads the head alone, which `head.streamed` read above.
        Claim::Served(Served::S3) => {
            let message = "sqslite read the body of a request it should have streamed.";
            crate::s3::Service::refuse(&parts, &ids.0, Refusal::Busy, message)
        }
        Claim::Foreign(service) => {
            tracing::debug!(%service, "request for a service sqslite does not serve");
            crate::sqs::protocol::foreign::refuse(&parts, &service, &ids.0)
        }
    };
    with_cors(&mut response, origin);
    Ok(response)
}

/// S3's request through [`further`], its body handed over unread.
async fn s3(
    app: &Arc<App>,
    (parts, body): (Parts, Incoming),
    (request_id, signed): (
        String,
        crate::http::auth::AuthResult<Option<crate::http::auth::Signed>>,
    ),
    at: (Option<IpAddr>, Stopwatch),
    origin: Option<HeaderValue>,
) -> Result<HttpResponse, DropConnection> {
    let body = crate::http::service::Streamed::new(body);
    let ids = (request_id, &signed);
    let mut response = further(app, &*app.s3, &parts, &body, ids, at).await?;
    with_cors(&mut response, origin);
    Ok(response)
}

/// Where a request goes once the guard has seen it.
enum Door {
    /// Answered already: health, the certificate, the dashboard's redirect, a refusal, a
    /// browser's preflight.
    Answered(HttpResponse),
    /// The admin API, the dashboard or `/metrics`, with the origin to allow.
    Admin(Option<HeaderValue>),
    /// A service's API, with the origin to allow.
    Api(Option<HeaderValue>),
}

/// What the request is for, and the guard's word on it (browser origins, the admin API's
/// Host and token).
fn door(app: &App, req: &Request<Incoming>) -> Door {
    let open = open_answer(app, req);
    let route = if open.is_some() {
        Route::Open
    } else if ui::is_asset(req.uri().path()) {
        Route::Page
    } else if crate::admin::owns(req.uri().path()) {
        Route::Admin
    } else {
        Route::Sqs
    };
    let origin = match guard::admit(&app.config, route, req.method(), req.headers()) {
        Ok(origin) => origin,
        Err(refusal) => return Door::Answered(refused(route, req, &refusal)),
    };
    if let Some(answer) = open {
        return Door::Answered(answer());
    }
    match (origin, req.method()) {
        (Some(origin), &Method::OPTIONS) => {
            let mut r = Response::new(Bytes::new().into());
            *r.status_mut() = StatusCode::NO_CONTENT;
            guard::preflight(r.headers_mut(), req.headers());
            guard::add_cors(r.headers_mut(), origin);
            Door::Answered(r)
        }
        (origin, _) if route != Route::Sqs => Door::Admin(origin),
        (origin, _) => Door::Api(origin),
    }
}

/// The answers with nothing in them a page could use, which only the Host rule guards: the
/// health probe, SNS's SigningCertURL (public, as AWS's certificates are), the dashboard's
/// redirect.
fn open_answer(app: &App, req: &Request<Incoming>) -> Option<fn() -> HttpResponse> {
    if req.method() != Method::GET {
        return None;
    }
    let path = req.uri().path();
    if path == "/health" {
        return Some(|| plain_json(StatusCode::OK, r#"{"status":"ok"}"#));
    }
    if path == crate::sns::engine::signing::CERT_PATH {
        return Some(crate::sns::protocol::certificate);
    }
    let accept = req.headers().get(ACCEPT).and_then(|v| v.to_str().ok());
    let dashboard =
        app.config.admin.enabled && ui::wants_dashboard(req.method(), req.uri(), accept);
    dashboard.then_some(ui::redirect as fn() -> HttpResponse)
}

/// The CORS headers of an allowed browser origin.
fn with_cors(response: &mut HttpResponse, origin: Option<HeaderValue>) {
    if let Some(origin) = origin {
        guard::add_cors(response.headers_mut(), origin);
    }
}

/// A request id as AWS writes them (a UUID).
fn new_request_id() -> String {
    crate::http::request_id()
}

/// One request line per request of every service at debug (`SQSLITE_LOG=debug`), failures
/// with their code and message.
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

/// The front door's work for the service a request is for, the same for every service: the
/// one signature reading verified for the service's signing name, the request's context, the
/// durable scope (with `--data-dir` the answer waits until its records are stored; a write
/// that failed is answered in the service's own terms), the request log and the metrics. The
/// service authenticates by the verdict and authorizes each operation by its action list.
async fn further<'a, S: Service>(
    app: &'a Arc<App>,
    service: &'a S,
    parts: &'a Parts,
    body: S::Body<'a>,
    (request_id, signed): (
        String,
        &crate::http::auth::AuthResult<Option<crate::http::auth::Signed>>,
    ),
    (peer, started): (Option<IpAddr>, Stopwatch),
) -> Result<HttpResponse, DropConnection> {
    let scope = signed.as_ref().ok().and_then(Option::as_ref);
    let verdict = crate::http::auth::verify_for(
        &app.keys(),
        || app.now(),
        parts,
        crate::http::service::RequestBody::payload(body),
        signed.as_ref().map_err(Clone::clone).map(Option::as_ref),
        S::SIGNING_NAME,
    );
    let answered = if app.durable.is_none() {
        let ctx = context(app, parts, scope, (peer, request_id));
        service.handle(ctx, verdict, parts, body).await?
    } else {
        // Boxed: only a data directory pays for the log's scope in the request's future.
        let at = (peer, request_id);
        Box::pin(stored(app, service, (parts, body), at, (scope, verdict))).await?
    };
    let took = started.elapsed();
    let error = answered
        .error
        .as_ref()
        .map(|(code, message)| (*code, message.as_str()));
    log_outcome(S::NAME, answered.action, error, took);
    let mut response = answered.response;
    let action = (answered.action, answered.index);
    (app.metrics).observe_service(S::NAME, action, response.status().as_u16(), took);
    app.alarms.touch(&app.ticker);
    stamp_date(app, &mut response);
    Ok(response)
}

/// The request's context: the one reading of its signature, its peer and its id.
fn context(
    app: &App,
    parts: &Parts,
    scope: Option<&crate::http::auth::Signed>,
    (peer, request_id): (Option<IpAddr>, String),
) -> Context {
    let mut ctx = Context::new(&app.config.defaults(), &parts.headers, scope, request_id);
    ctx.peer = peer;
    unverified_issued(app, &mut ctx, scope);
    ctx
}

/// [`further`]'s run of the service with a data directory: inside the log's scope, so the
/// answer waits until its records are stored (an SNS publish's deliveries into durable queues,
/// a mapping the Lambda API changed); a write that failed is answered in the service's own
/// terms. The log then compacts if it grew enough.
async fn stored<'a, S: Service>(
    app: &'a Arc<App>,
    service: &'a S,
    (parts, body): (&'a Parts, S::Body<'a>),
    (peer, request_id): (Option<IpAddr>, String),
    (scope, verdict): (
        Option<&crate::http::auth::Signed>,
        crate::http::auth::AuthResult<Option<crate::http::auth::Principal>>,
    ),
) -> Result<crate::http::service::Answered, DropConnection> {
    let id = request_id.clone();
    let ctx = context(app, parts, scope, (peer, request_id));
    // Called inside the scope: a service may answer within `handle` itself (SQS does for
    // every call that need not wait), and its records must be written there.
    let run = async { Ok(service.handle(ctx, verdict, parts, body).await) };
    let stored = crate::durable::journal::durable(run).await;
    app.maybe_compact();
    match stored {
        Ok(answer) => answer,
        Err(e) => Ok(service.unstored(&id, &e.message)),
    }
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
        refuse_as_named(&head_of(req), Refusal::Busy, message)
    }

    fn closing(&self) {
        self.sqs.waiters.close();
    }
}

#[cfg(test)]
mod future_size_tests;
