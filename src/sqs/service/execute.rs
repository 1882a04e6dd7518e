//! Running a decoded SQS action: decoded first (a malformed request gets its error whatever
//! faults are armed), then a fault armed for it, then the action itself. Nearly every request
//! is answered at once, within the call to the service (no future of its own); only what must
//! wait, a receive or a call a fault rule may delay, runs in a boxed future. (With a data
//! directory the router runs the whole request inside the log's scope.)

use super::Service;
use crate::http::DropConnection;
use crate::sqs::actions::Action;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::{Context, Input, Params, Protocol};

/// Query actions that SQS refuses at a queue URL: those recorded from SQS. (GetQueueUrl and
/// the move-task actions take no queue URL either; what SQS does with them there is unknown,
/// so they still run.)
const QUEUELESS: &[&str] = &["CreateQueue", "ListQueues"];

/// An action's rendered answer, or a connection to drop (an injected fault's).
pub(super) type Answer = Result<SqsResult<Vec<u8>>, DropConnection>;

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

/// Whether a decoded action must run where it can wait: a receive may park, and a fault
/// rule's latency sleeps. Every other call is answered at once, without a future of its own.
pub(super) fn must_wait(service: &Service, action: &Action) -> bool {
    service.injector.faults.armed() || action.may_wait()
}

/// Runs a decoded action that answers at once ([`must_wait`] said no).
pub(super) fn run_now(service: &Service, call: Call<'_>, action: Action) -> SqsResult<Vec<u8>> {
    crate::sqs::declare::on_first_use(&service.sqs, &service.plan(), call.ctx, &action);
    action.now(&service.sqs, call.ctx, call.protocol)
}

/// Runs a decoded action that may wait: a fault armed for it first, then the action.
pub(super) async fn run_waiting(service: &Service, call: Call<'_>, action: Action) -> Answer {
    let injected = if service.injector.faults.armed() {
        inject(service, call.ctx, &action).await?
    } else {
        None
    };
    if let Some(err) = injected {
        return Ok(Err(err));
    }
    // In this future's own state: it is boxed already, and a second box is one more
    // allocation per receive.
    crate::sqs::declare::on_first_use(&service.sqs, &service.plan(), call.ctx, &action);
    Ok(action.apply(&service.sqs, call.ctx, call.protocol).await)
}

pub(super) fn decode(call: Call<'_>, body: &[u8], params: &Params<'_>) -> SqsResult<Action> {
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
