//! Running a decoded SQS action: decoded first (a malformed request gets its error whatever
//! faults are armed), then a fault armed for it, then the action itself. Nearly every request
//! is answered without waiting; only what must wait is boxed, so a request's own future stays
//! small. (With a data directory the router runs the whole request inside the log's scope.)

use std::future::Future;
use std::pin::Pin;

use super::Service;
use crate::http::DropConnection;
use crate::sqs::actions::{Action, Started};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::{Context, Input, Params, Protocol};

/// Query actions that SQS refuses at a queue URL: those recorded from SQS. (GetQueueUrl and
/// the move-task actions take no queue URL either; what SQS does with them there is unknown,
/// so they still run.)
const QUEUELESS: &[&str] = &["CreateQueue", "ListQueues"];

/// An action's rendered answer, or a connection to drop (an injected fault's).
pub(super) type Answer = Result<SqsResult<Vec<u8>>, DropConnection>;

/// A request's answer, or what is left to await for it.
pub(super) enum Ran<'a> {
    /// Answered without waiting: the path of nearly every request.
    Now(SqsResult<Vec<u8>>),
    /// A receive that may park: boxed, as `Later` is, so that the request's own future stays
    /// small (it is moved into place on every request).
    Waiting(Pin<Box<dyn Future<Output = SqsResult<Vec<u8>>> + Send + 'a>>),
    /// Faults armed.
    Later(Pin<Box<dyn Future<Output = Answer> + Send + 'a>>),
}

/// One call as the router read it.
#[derive(Clone, Copy)]
pub(super) struct Call<'a> {
    /// The request's context.
    pub ctx: &'a Context,
    /// The request path when it is not `/`: a path-style Query request's queue.
    pub path_queue: Option<&'a str>,
    /// Its protocol.
    pub protocol: Protocol,
    /// The action it names.
    pub name: &'a str,
}

/// Runs a named action: decoded first (a malformed request gets its error whatever faults are
/// armed), then a fault armed for it, then the action itself.
#[inline]
pub(super) fn execute<'a>(
    service: &'a Service,
    call: Call<'a>,
    body: &[u8],
    params: &Params<'_>,
) -> Ran<'a> {
    let action = match decode(call, body, params) {
        Ok(action) => action,
        Err(e) => return Ran::Now(Err(e)),
    };
    if service.injector.faults.armed() {
        return Ran::Later(Box::pin(execute_later(service, call, action)));
    }
    match run(service, call, action) {
        Started::Done(answer) => Ran::Now(answer),
        Started::Waiting(waiting) => Ran::Waiting(waiting),
    }
}

/// [`execute`] with faults armed.
async fn execute_later(service: &Service, call: Call<'_>, action: Action) -> Answer {
    Ok(match inject(service, call.ctx, &action).await? {
        Some(err) => Err(err),
        None => run(service, call, action).finish().await,
    })
}

fn decode(call: Call<'_>, body: &[u8], params: &Params<'_>) -> SqsResult<Action> {
    let Call {
        path_queue,
        protocol,
        name,
        ..
    } = call;
    // A queue URL is an endpoint for the queue's own actions only [aws-recorded].
    if protocol.is_query() && path_queue.is_some() && QUEUELESS.contains(&name) {
        return Err(SqsError::new(
            ErrorKind::InvalidAction,
            format!("The action {name} is not valid for this endpoint."),
        ));
    }
    let input = match protocol {
        Protocol::Json => Input::Json(body),
        Protocol::Query | Protocol::QueryJson => Input::Query {
            params,
            action: name,
            path_queue,
        },
    };
    Action::decode(name, input).map_err(|e| match (protocol, e.kind) {
        (Protocol::Json, ErrorKind::InvalidAction) => SqsError::new(
            ErrorKind::UnknownOperation,
            format!("Operation AmazonSQS.{name} is not recognised."),
        ),
        _ => e,
    })
}

fn run<'a>(service: &'a Service, call: Call<'a>, action: Action) -> Started<'a> {
    crate::sqs::declare::on_first_use(&service.sqs, &service.plan(), call.ctx, &action);
    action.start(&service.sqs, call.ctx, call.protocol)
}

/// Applies the fault rule this call matches, if any, before the action runs: an injected
/// error means the action never ran. Rules match the queue the decoded action names.
async fn inject(
    service: &Service,
    ctx: &Context,
    action: &Action,
) -> Result<Option<SqsError>, DropConnection> {
    let name = action.name();
    let queue = action.target().and_then(|t| t.key(ctx)).map(|k| k.name);
    let injector = &service.injector;
    let Some(effect) = injector
        .faults
        .check(name, queue.as_deref(), service.sqs.now())
    else {
        return Ok(None);
    };
    let error = (effect.error.as_ref()).map(|e| SqsError::by_code(&e.code, e.message.as_deref()));
    let code = error.as_ref().map(|e| e.kind.query_code());
    let target = crate::faults::inject::Target {
        queue: Some(queue.as_deref().unwrap_or("-")),
        topic: None,
    };
    injector.take_effect(&effect, name, target, code).await?;
    Ok(error)
}
