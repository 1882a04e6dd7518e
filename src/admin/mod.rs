//! The admin API for game days, JSON under `/_sqslite/...`: time control, fault rules,
//! inspection (queues, SNS topics and a filter-policy test, trigger mappings and their
//! switch), reset, alarms, SNS's recorded deliveries, at-least-once delivery on request and
//! the chart's series; plus
//! LocalStack's `/_aws/sqs/messages` and `/metrics`.
//! None of these paths can collide with SQS, whose paths are `/` or `/<account>/<queue>`.

mod advice;
mod buckets;
mod delivery;
mod inspect;
mod localstack;
mod mappings;
mod ops;
mod series;
mod shapes;
mod snapshot;
mod sns_deliveries;
mod topics;
pub mod ui;

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::App;
use crate::faults::FaultSpec;
use crate::http::body::{Body, ChunkWriter};
use crate::http::HttpResponse;

const MAX_ADMIN_BODY: usize = 64 * 1024;

/// Whether a path belongs here rather than to SQS.
pub fn owns(path: &str) -> bool {
    path == "/metrics" || path.starts_with("/_sqslite") || path.starts_with("/_aws/sqs/")
}

/// A failure the caller can fix: answered 400 with a JSON body naming the problem.
pub struct Problem(StatusCode, String);

impl Problem {
    pub fn bad(message: impl Into<String>) -> Self {
        Problem(StatusCode::BAD_REQUEST, message.into())
    }

    fn not_found(message: impl Into<String>) -> Self {
        Problem(StatusCode::NOT_FOUND, message.into())
    }
}

type Answer = Result<HttpResponse, Problem>;

pub async fn handle(app: Arc<App>, req: Request<Incoming>) -> HttpResponse {
    if req.uri().path() == "/metrics" && req.method() == Method::GET {
        return metrics(app);
    }
    if !app.config.admin.enabled {
        return error(&Problem::not_found(
            "the admin API is disabled (--no-admin)",
        ));
    }
    if req.method() == Method::GET {
        if let Some(page) = ui::serve(req.uri()) {
            return page;
        }
    }
    match AdminRequest::read(&app, req).await {
        Ok(call) => route(&app, &call).await.unwrap_or_else(|p| error(&p)),
        Err(p) => error(&p),
    }
}

fn metrics(app: Arc<App>) -> HttpResponse {
    if !app.config.access.metrics_on(app.config.admin.enabled) {
        return error(&Problem::not_found(
            "metrics are off (--metrics off, or --no-admin without --metrics on)",
        ));
    }
    streamed("text/plain; version=0.0.4; charset=utf-8", move |out| {
        app.metrics
            .write(&app.metric_sources(), out)
            .map_err(|_| std::io::Error::other("the client went away"))
    })
}

/// What a route reads of an admin request, the body already collected.
struct AdminRequest {
    method: Method,
    path: String,
    host: Option<String>,
    accept: String,
    params: Vec<(String, String)>,
    body: hyper::body::Bytes,
}

impl AdminRequest {
    async fn read(app: &App, req: Request<Incoming>) -> Result<Self, Problem> {
        let header = |name: &str| {
            req.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let host = header(hyper::header::HOST.as_str());
        let accept = header("accept").unwrap_or_default();
        let method = req.method().clone();
        let path = req.uri().path().to_owned();
        let params = form_urlencoded::parse(req.uri().query().unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
        let collect = Limited::new(req.into_body(), MAX_ADMIN_BODY).collect();
        let body =
            match tokio::time::timeout(app.config.connections.header_timeout, collect).await {
                Ok(Ok(b)) => b.to_bytes(),
                _ => return Err(Problem::bad(
                    "the request body is too large, unreadable, or slower than --header-timeout",
                )),
            };
        Ok(AdminRequest {
            method,
            path,
            host,
            accept,
            params,
            body,
        })
    }
}

async fn route(app: &Arc<App>, call: &AdminRequest) -> Answer {
    let (method, path, params, body) = (&call.method, &call.path, &call.params, &call.body);
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let app = app.clone();
    match (method, segments.as_slice()) {
        (_, ["_aws", "sqs", "messages", rest @ ..]) => {
            localstack::messages(&app, rest, params, &call.accept)
        }
        (&Method::GET, ["_sqslite", "clock"]) => Ok(clock(&app)),
        (&Method::GET, ["_sqslite", "delivery"]) => Ok(delivery::show(&app)),
        (&Method::PUT, ["_sqslite", "delivery"]) => delivery::set(&app, body),
        (&Method::PUT, ["_sqslite", "delivery", "queues", name]) => {
            delivery::set_queue(&app, name, params, body)
        }
        (&Method::GET, ["_sqslite", "waiters"]) => Ok(waiters(&app)),
        (&Method::GET, ["_sqslite", "sns", "deliveries"]) => Ok(sns_deliveries::deliveries(&app)),
        (&Method::POST, ["_sqslite", "clock", "advance"]) => advance(&app, body),
        (&Method::GET, ["_sqslite", "faults"]) => {
            Ok(ok(&json!({"faults": app.faults.list(app.now())})))
        }
        (&Method::POST, ["_sqslite", "faults"]) => add_fault(&app, body),
        (&Method::DELETE, ["_sqslite", "faults"]) => {
            app.faults.clear();
            Ok(ok(&json!({"faults": []})))
        }
        (&Method::DELETE, ["_sqslite", "faults", id]) => remove_fault(&app, id),
        (&Method::GET, ["_sqslite", "queues"]) => Ok(inspect::queues(&app)),
        (&Method::GET, ["_sqslite", "queues", name]) => inspect::queue(&app, name, params),
        (&Method::GET, ["_sqslite", "queues", name, "messages"]) => {
            inspect::messages(&app, name, params)
        }
        (&Method::GET, ["_sqslite", "queues", name, "series"]) => series::chart(&app, name, params),
        (&Method::GET, ["_sqslite", "queues", name, "dead-letters"]) => {
            shapes::dead_letters(&app, name, params)
        }
        (&Method::POST, ["_sqslite", "sqs", action]) => {
            stored(&app, ops::call(&app, action, body, params)).await
        }
        (&Method::POST, ["_sqslite", "reset"]) => {
            stored(&app, async { inspect::reset(&app) }).await
        }
        (&Method::POST, ["_sqslite", "snapshot"]) => snapshot::snapshot(app.clone(), body).await,
        (&Method::GET, ["_sqslite", "advice"]) => Ok(advice::advice(&app, call.host.as_deref())),
        (&Method::GET, ["_sqslite", "topics"]) => Ok(topics::topics(&app)),
        (&Method::POST, ["_sqslite", "topics", "test"]) => topics::test(&app, body),
        (&Method::GET, ["_sqslite", "alarms"]) => Ok(alarms(app.clone())),
        (&Method::GET, ["_sqslite", "mappings"]) => Ok(mappings::list(&app)),
        (&Method::GET, ["_sqslite", "buckets"]) => Ok(buckets::list(&app)),
        (&Method::GET, ["_sqslite", "mappings", uuid]) => mappings::one(&app, uuid),
        (&Method::POST, ["_sqslite", "mappings", uuid]) => mappings::switch(&app, uuid, body),
        _ => Err(Problem::not_found(format!(
            "no admin route {method} {path}; see the guide's admin API pages (docs/src/admin-api.md)"
        ))),
    }
}

/// Runs an admin action that changes state. With a data directory it is answered, like an
/// SQS request, only once its changes are stored, and with a 500 `InternalError` when they
/// cannot be (disk full, read-only): the dashboard must not report a change a restart loses.
async fn stored(app: &Arc<App>, action: impl std::future::Future<Output = Answer>) -> Answer {
    if app.durable.is_none() {
        return action.await;
    }
    let answer = crate::durable::journal::durable_with(action, |e| {
        let text = format!("{}: {}", e.kind.query_code(), e.message);
        Problem(StatusCode::INTERNAL_SERVER_ERROR, text)
    })
    .await;
    app.maybe_compact();
    answer
}

/// Every alarm brought up to now, streamed as JSON.
fn alarms(app: Arc<App>) -> HttpResponse {
    streamed("application/json", move |out| {
        let alarms = app.alarms.evaluate(&app.sqs.registry, app.now());
        crate::observe::alarms::render::write_json(&alarms, out)
    })
}

/// Long polls parked now, in all and by queue name, so a test can wait for one to park.
fn waiters(app: &App) -> HttpResponse {
    let busy: Vec<_> = app
        .sqs
        .registry
        .all()
        .into_iter()
        .map(|q| (q.waiting(), q))
        .filter(|(n, _)| *n > 0)
        .collect();
    let queues: Vec<Value> = busy
        .iter()
        .map(|(n, q)| {
            let k = &q.key;
            json!({"region": k.region, "account": k.account, "name": k.name, "parked": n})
        })
        .collect();
    let parked: usize = busy.iter().map(|(n, _)| n).sum();
    ok(&json!({"parked": parked, "queues": queues}))
}

fn clock(app: &App) -> HttpResponse {
    ok(&json!({
        "now": app.now(),
        "manual": app.clock.as_manual().is_some(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Advance {
    seconds: Option<serde_json::Number>,
    milliseconds: Option<serde_json::Number>,
}

impl Advance {
    /// The step in milliseconds; a negative, fractional-ms, non-finite or absurd step is a 400.
    fn millis(&self) -> Result<u64, Problem> {
        let limit = crate::clock::LATEST;
        match (&self.seconds, &self.milliseconds) {
            (Some(s), None) => match s.as_f64() {
                Some(s) if s.is_finite() && s >= 0.0 && s * 1000.0 <= limit as f64 => {
                    Ok((s * 1000.0).round() as u64)
                }
                _ => Err(Problem::bad(format!(
                    "`seconds` must be a number from 0 to {}, got {s}",
                    limit / 1000
                ))),
            },
            (None, Some(ms)) => ms.as_u64().filter(|ms| *ms <= limit).ok_or_else(|| {
                Problem::bad(format!(
                    "`milliseconds` must be a whole number from 0 to {limit}, got {ms}"
                ))
            }),
            _ => Err(Problem::bad(
                "give exactly one of `seconds` or `milliseconds`, e.g. {\"seconds\": 31}",
            )),
        }
    }
}

fn advance(app: &App, body: &[u8]) -> Answer {
    let Some(clock) = app.clock.as_manual() else {
        return Err(Problem::bad(
            "the server clock is not manual; start it with --clock manual to advance time",
        ));
    };
    let input: Advance = parse(body)?;
    let ms = input.millis()?;
    clock.try_advance(ms).map_err(|e| {
        Problem::bad(format!(
            "advancing {ms} ms would move the clock past 9999-12-31T23:59:59.999Z; \
             it can move at most {} ms more",
            e.room_ms
        ))
    })?;
    // Long polls wake through the clock's own channel; the ticker re-plans its deadlines.
    app.ticker.notify_one();
    Ok(clock_answer(app, ms))
}

fn clock_answer(app: &App, advanced_ms: u64) -> HttpResponse {
    ok(&json!({"now": app.now(), "manual": true, "advanced_ms": advanced_ms}))
}

fn add_fault(app: &App, body: &[u8]) -> Answer {
    let spec: FaultSpec = parse(body)?;
    let rule = app.faults.add(spec, app.now()).map_err(Problem::bad)?;
    tracing::info!(rule = rule.id, spec = ?rule.spec, "fault rule added");
    Ok(respond(StatusCode::CREATED, &json!(rule)))
}

fn remove_fault(app: &App, id: &str) -> Answer {
    let id: u64 = id
        .parse()
        .map_err(|_| Problem::bad(format!("`{id}` is not a fault rule id")))?;
    if app.faults.remove(id) {
        Ok(ok(&json!({"removed": id})))
    } else {
        Err(Problem::not_found(format!("no fault rule {id}")))
    }
}

/// A JSON body into `T`; serde's message names the field at fault.
pub fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Problem> {
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        body
    };
    serde_json::from_slice(body).map_err(|e| Problem::bad(format!("invalid JSON body: {e}")))
}

pub fn ok(value: &Value) -> HttpResponse {
    respond(StatusCode::OK, value)
}

fn respond(status: StatusCode, value: &Value) -> HttpResponse {
    let body = serde_json::to_vec_pretty(value).unwrap_or_default();
    with_type(status, "application/json", Bytes::from(body))
}

fn error(p: &Problem) -> HttpResponse {
    error_response(p.0, &p.1)
}

/// The admin API's error shape: `{"error": "..."}` with `status`.
pub fn error_response(status: StatusCode, message: &str) -> HttpResponse {
    respond(status, &json!({"error": message}))
}

/// 200 with a body `produce` writes while it is sent (see [`crate::http::body`]).
fn streamed(
    content_type: &'static str,
    produce: impl FnOnce(&mut ChunkWriter) -> std::io::Result<()> + Send + 'static,
) -> HttpResponse {
    let mut response = Response::new(Body::stream(produce));
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

fn with_type(status: StatusCode, content_type: &'static str, body: Bytes) -> HttpResponse {
    let mut response = Response::new(body.into());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}
