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
use claim::{Claim, Served};

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
        _ => serve(app, req, peer).await?,
    };
    if let Some(origin) = origin {
        guard::add_cors(response.headers_mut(), origin);
    }
    Ok(response)
}

/// A refused request, answered in the caller's own terms: the admin API's JSON error, or the
/// error of the service the request names.
fn refused(route: Route, req: &Request<Incoming>, refusal: &guard::Refusal) -> HttpResponse {
    tracing::debug!(status = %refusal.status, reason = %refusal.message, "request refused");
    if route != Route::Sqs {
        return crate::admin::error_response(refusal.status, &refusal.message);
    }
    refuse_as_named(&head_of(req), Refusal::Origin, &refusal.message)
}

/// The request line and headers of `req`, for a refusal made before its body is read.
fn head_of<B>(req: &Request<B>) -> Parts {
    let (mut parts, ()) = Request::new(()).into_parts();
    parts.method = req.method().clone();
    parts.uri = req.uri().clone();
    parts.headers = req.headers().clone();
    parts
}

/// `refusal` in the words of the service the request's head names (a form's `Action` is in
/// its body, so an unsigned Query request gets SQS's words).
fn refuse_as_named(parts: &Parts, refusal: Refusal, message: &str) -> HttpResponse {
    use crate::http::service::Service as _;
    let request_id = new_request_id();
    let signed = crate::http::auth::read(parts);
    let scope = signed.as_ref().ok().and_then(Option::as_ref);
    match claim::claim(parts, &[], scope) {
        Claim::Served(Served::Sns) => {
            crate::sns::Service::refuse(parts, &request_id, refusal, message)
        }
        Claim::Served(Served::Lambda) => {
            crate::triggers::Service::refuse(parts, &request_id, refusal, message)
        }
        Claim::Served(Served::Sts) => {
            crate::sts::Service::refuse(parts, &request_id, refusal, message)
        }
        Claim::Served(Served::Sqs) | Claim::Foreign(_) => {
            crate::sqs::service::Service::refuse(parts, &request_id, refusal, message)
        }
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

/// One API request, whatever its service: the bounded body, the one reading of the signature,
/// the service it is for (one table, [`claim`]), then [`further`].
async fn serve(
    app: &Arc<App>,
    req: Request<Incoming>,
    peer: Option<IpAddr>,
) -> Result<HttpResponse, DropConnection> {
    let started = Stopwatch::start();
    let (parts, body) = req.into_parts();
    let request_id = new_request_id();
    let limit = app.config.connections.header_timeout;
    let Some(body) = read_body(body, &parts.headers, limit).await else {
        let message = format!(
            "The request body is larger than {MAX_BODY_BYTES} bytes, or did not arrive in full \
             within {limit:?} (--header-timeout)."
        );
        return Ok(refuse_as_named(&parts, Refusal::Body, &message));
    };
    // One reading of the signature serves the router, the context and the check alike.
    let signed = crate::http::auth::read(&parts);
    let scope = signed.as_ref().ok().and_then(Option::as_ref);
    let ids = (request_id.as_str(), &signed);
    let at = (peer, started);
    match claim::claim(&parts, &body, scope) {
        Claim::Served(Served::Sqs) => further(app, &*app.sqs_service, &parts, &body, ids, at).await,
        // Boxed, so the SQS path's future carries none of the other services' state.
        Claim::Served(Served::Sns) => {
            Box::pin(further(app, &*app.sns, &parts, &body, ids, at)).await
        }
        Claim::Served(Served::Lambda) => {
            Box::pin(further(app, &*app.triggers, &parts, &body, ids, at)).await
        }
        Claim::Served(Served::Sts) => {
            Box::pin(further(app, &*app.sts, &parts, &body, ids, at)).await
        }
        Claim::Foreign(service) => {
            tracing::debug!(%service, "request for a service sqslite does not serve");
            Ok(crate::sqs::protocol::foreign::refuse(
                &parts,
                &service,
                &request_id,
            ))
        }
    }
}

/// The front door's work for the service a request is for, the same for every service: the
/// one signature reading verified for the service's signing name, the request's context, the
/// durable scope (with `--data-dir` the answer waits until its records are stored; a write
/// that failed is answered in the service's own terms), the request log and the metrics. The
/// service authenticates by the verdict and authorizes each operation by its action list.
async fn further<S: Service>(
    app: &Arc<App>,
    service: &S,
    parts: &Parts,
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
    // Built in a block of its own: a local once borrowed keeps its place in the future after
    // it is moved, and the context is a quarter of the request's future (the size test).
    let ctx = {
        let mut ctx = Context::new(
            &app.config.defaults(),
            &parts.headers,
            scope,
            request_id.to_owned(),
        );
        ctx.peer = peer;
        unverified_issued(app, &mut ctx, scope);
        ctx
    };
    let handled = service.handle(ctx, verdict, parts, body);
    let answered = if app.durable.is_none() {
        handled.await?
    } else {
        // Boxed: only a data directory pays for the log's scope in the request's future.
        let stored = Box::pin(crate::durable::journal::durable(async {
            Ok(handled.await)
        }))
        .await;
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
    app.alarms.touch(&app.ticker);
    stamp_date(app, &mut response);
    Ok(response)
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
