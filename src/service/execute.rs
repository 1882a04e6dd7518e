//! Running a decoded SQS action: decoded first (a malformed request gets its error whatever
//! faults are armed), then a fault armed for it, then the action itself, stored before it is
//! answered when there is a data directory. Nearly every request is answered without waiting;
//! only what must wait is boxed, so a request's own future stays small.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::app::App;
use crate::http::DropConnection;
use crate::sqs::actions::{Action, Started};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::{Context, Input, Params, Protocol};

/// Query actions that SQS refuses at a queue URL: those recorded from SQS. (GetQueueUrl and
/// the move-task actions take no queue URL either; what SQS does with them there is unknown,
/// so they still run.)
const QUEUELESS: &[&str] = &["CreateQueue", "ListQueues"];

/// An action's rendered answer, or a connection to drop (an injected fault's).
pub(super) type Answered = Result<SqsResult<Vec<u8>>, DropConnection>;

/// A request's answer, or what is left to await for it.
pub(super) enum Ran<'a> {
    /// Answered without waiting: the path of nearly every request.
    Now(SqsResult<Vec<u8>>),
    /// A receive that may park: boxed, as `Later` is, so that the request's own future stays
    /// small (it is moved into place on every request).
    Waiting(Pin<Box<dyn Future<Output = SqsResult<Vec<u8>>> + Send + 'a>>),
    /// Faults armed or a data directory.
    Later(Pin<Box<dyn Future<Output = Answered> + Send + 'a>>),
}

/// Runs a named action: decoded first (a malformed request gets its error whatever faults are
/// armed), then a fault armed for it, then the action itself, stored before it is answered
/// when there is a data directory.
#[inline]
pub(super) fn execute<'a>(
    app: &'a Arc<App>,
    ctx: &'a Context,
    protocol: Protocol,
    name: &str,
    body: &[u8],
    params: &Params<'_>,
) -> Ran<'a> {
    let action = match decode(ctx, protocol, name, body, params) {
        Ok(action) => action,
        Err(e) => return Ran::Now(Err(e)),
    };
    if app.faults.armed() || app.durable.is_some() {
        return Ran::Later(Box::pin(execute_later(app, ctx, protocol, action)));
    }
    match run(app, ctx, protocol, action) {
        Started::Done(answer) => Ran::Now(answer),
        Started::Waiting(waiting) => Ran::Waiting(waiting),
    }
}

/// [`execute`] with faults armed or a data directory.
async fn execute_later(
    app: &Arc<App>,
    ctx: &Context,
    protocol: Protocol,
    action: Action,
) -> Answered {
    let injected = if app.faults.armed() {
        inject(app, ctx, &action).await?
    } else {
        None
    };
    Ok(match injected {
        Some(err) => Err(err),
        None if app.durable.is_some() => {
            // Started inside the log's scope: the action's records are written from it.
            let ran = async move { run(app, ctx, protocol, action).finish().await };
            let result = crate::durable::journal::durable(ran).await;
            app.maybe_compact();
            result
        }
        None => run(app, ctx, protocol, action).finish().await,
    })
}

fn decode(
    ctx: &Context,
    protocol: Protocol,
    name: &str,
    body: &[u8],
    params: &Params<'_>,
) -> SqsResult<Action> {
    // A queue URL is an endpoint for the queue's own actions only [aws-recorded].
    if protocol.is_query() && ctx.path_queue.is_some() && QUEUELESS.contains(&name) {
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
            path_queue: ctx.path_queue.as_deref(),
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

fn run<'a>(app: &'a App, ctx: &'a Context, protocol: Protocol, action: Action) -> Started<'a> {
    crate::sqs::declare::on_first_use(&app.sqs, &app.config.plan(), ctx, &action);
    action.start(&app.sqs, ctx, protocol)
}

/// Applies the fault rule this call matches, if any, before the action runs: an injected
/// error means the action never ran. Rules match the queue the decoded action names.
async fn inject(
    app: &App,
    ctx: &Context,
    action: &Action,
) -> Result<Option<SqsError>, DropConnection> {
    let name = action.name();
    let queue = action.target().and_then(|t| t.key(ctx)).map(|k| k.name);
    let Some(effect) = app.faults.check(name, queue.as_deref(), app.now()) else {
        return Ok(None);
    };
    let error = (effect.error.as_ref()).map(|e| SqsError::by_code(&e.code, e.message.as_deref()));
    let code = error.as_ref().map(|e| e.kind.query_code());
    let target = crate::faults::inject::Target {
        queue: Some(queue.as_deref().unwrap_or("-")),
        topic: None,
    };
    app.injector
        .take_effect(&effect, name, target, code)
        .await?;
    Ok(error)
}
