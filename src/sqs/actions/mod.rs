//! The `Action` hub: one typed variant per SQS operation, decoded once and dispatched by one
//! `match`. Each family file holds its operations' input and output types and their logic.
// Request and response types are read field by field against AWS's API reference.
#![warn(clippy::missing_docs_in_private_items)]
// The one dispatch hands every operation its decoded input by value, whether or not it keeps
// any of it.
#![allow(clippy::needless_pass_by_value)]

pub mod attributes;
pub mod batch;
pub mod delete;
pub mod permissions;
pub mod queues;
pub mod receive;
pub mod redrive;
pub mod send;
mod state;
pub mod tags;
mod target;
pub mod visibility;

use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::sqs::engine::policy;
use crate::sqs::engine::queue::Queue;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::QueueUrls;
use crate::sqs::protocol::{self, Context, Input, Protocol};
pub use state::Sqs;

/// Declares the `Action` enum, its decoding by name and its one dispatching `match`, from one
/// list of operation, module and function; `[waits]` marks an operation that may wait (a long
/// poll).
macro_rules! actions {
    ($($name:ident => $module:ident :: $func:ident $([$waits:ident])?),* $(,)?) => {
        /// Every SQS operation with its decoded input.
        #[derive(Debug)]
        pub enum Action {
            $($name($module::$name)),*
        }

        impl Action {
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            pub fn decode(name: &str, input: Input) -> SqsResult<Action> {
                match name {
                    $(stringify!($name) => Ok(Action::$name(input.decode()?)),)*
                    _ => Err(SqsError::new(
                        ErrorKind::InvalidAction,
                        format!("The action {name} is not valid for this endpoint."),
                    )),
                }
            }

            /// The operation's name, as `X-Amz-Target` and `Action=` spell it.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Action::$name(_) => stringify!($name)),*
                }
            }

            /// Runs the action and renders its output for the request's protocol: at once for
            /// all but the operations that may wait, which come back as a boxed future. So the
            /// future of a request that never waits carries no long poll's state, and nothing
            /// that large is moved from frame to frame on every SendMessage.
            pub fn start<'a>(self, sqs: &'a Sqs, ctx: &'a Context, protocol: Protocol) -> Started<'a> {
                match self {
                    $(Action::$name(input) => started!(
                        $($waits)?; $module::$func, $name, input, sqs, ctx, protocol
                    )),*
                }
            }

            /// [`Action::start`], awaited to its answer.
            pub async fn apply(self, sqs: &Sqs, ctx: &Context, protocol: Protocol) -> SqsResult<Vec<u8>> {
                self.start(sqs, ctx, protocol).finish().await
            }
        }
    };
}

/// One arm of [`Action::start`]: a call answered at once, or (`waits`) a boxed future.
macro_rules! started {
    (; $module:ident :: $func:ident, $name:ident, $input:ident, $sqs:ident, $ctx:ident, $protocol:ident) => {
        Started::Done($module::$func($input, $sqs, $ctx).and_then(|output| {
            protocol::render($protocol, stringify!($name), &$ctx.request_id, &output)
        }))
    };
    (waits; $module:ident :: $func:ident, $name:ident, $input:ident, $sqs:ident, $ctx:ident, $protocol:ident) => {
        Started::Waiting(Box::pin(async move {
            let output = $module::$func($input, $sqs, $ctx).await?;
            protocol::render($protocol, stringify!($name), &$ctx.request_id, &output)
        }))
    };
}

/// An action's rendered answer, or the future that will give it.
pub enum Started<'a> {
    /// Answered at once.
    Done(SqsResult<Vec<u8>>),
    /// Still to wait for (a ReceiveMessage that may park).
    Waiting(Pin<Box<dyn Future<Output = SqsResult<Vec<u8>>> + Send + 'a>>),
}

impl Started<'_> {
    /// The answer, waiting for it if it has to.
    pub async fn finish(self) -> SqsResult<Vec<u8>> {
        match self {
            Started::Done(answer) => answer,
            Started::Waiting(waiting) => waiting.await,
        }
    }
}

actions! {
    CreateQueue => queues::create_queue,
    GetQueueUrl => queues::get_queue_url,
    ListQueues => queues::list_queues,
    DeleteQueue => queues::delete_queue,
    PurgeQueue => queues::purge_queue,
    GetQueueAttributes => attributes::get_queue_attributes,
    SetQueueAttributes => attributes::set_queue_attributes,
    TagQueue => tags::tag_queue,
    UntagQueue => tags::untag_queue,
    ListQueueTags => tags::list_queue_tags,
    AddPermission => permissions::add_permission,
    RemovePermission => permissions::remove_permission,
    SendMessage => send::send_message,
    SendMessageBatch => send::send_message_batch,
    ReceiveMessage => receive::receive_message [waits],
    DeleteMessage => delete::delete_message,
    DeleteMessageBatch => delete::delete_message_batch,
    ChangeMessageVisibility => visibility::change_message_visibility,
    ChangeMessageVisibilityBatch => visibility::change_message_visibility_batch,
    ListDeadLetterSourceQueues => redrive::list_dead_letter_source_queues,
    StartMessageMoveTask => redrive::start_message_move_task,
    ListMessageMoveTasks => redrive::list_message_move_tasks,
    CancelMessageMoveTask => redrive::cancel_message_move_task,
}

/// The queue a request's QueueUrl names, if the caller may do this operation on it.
pub fn queue(sqs: &Sqs, ctx: &Context, queue_url: &str) -> SqsResult<Arc<Queue>> {
    let queue = sqs.registry.find(&ctx.queue_ref(queue_url)?)?;
    authorize(sqs, ctx, &queue)?;
    Ok(queue)
}

/// With a verified caller (credentials configured), the queue's Policy decides whether it
/// may do `ctx.operation` here; without one every call is allowed, as before.
pub fn authorize(sqs: &Sqs, ctx: &Context, queue: &Queue) -> SqsResult<()> {
    authorize_as(sqs, ctx, queue, ctx.operation)
}

/// [`authorize`] for `operation`, which a request may need besides its own (a move task
/// sends into its destination).
pub fn authorize_as(sqs: &Sqs, ctx: &Context, queue: &Queue, operation: &str) -> SqsResult<()> {
    authorize_with(sqs, ctx, queue, operation, None)
}

/// [`authorize_as`], as SQS acting for the queue `(arn, account)` when one is given (a move
/// task's sends from its source queue).
pub fn authorize_with(
    sqs: &Sqs,
    ctx: &Context,
    queue: &Queue,
    operation: &str,
    on_behalf_of: Option<(&str, &str)>,
) -> SqsResult<()> {
    let Some(principal) = &ctx.principal else {
        return Ok(());
    };
    admits(sqs, queue, principal, operation, (ctx.peer, on_behalf_of))
}

/// Whether the queue's Policy lets `principal` do `operation` on it, from `source_ip` and, when
/// given, as SQS acting for the queue `(arn, account)`: the one decision every caller of a
/// queue meets, clients and the other services alike (a mapping's poller reads as its
/// account). The error is SQS's AccessDenied.
pub fn admits(
    sqs: &Sqs,
    queue: &Queue,
    principal: &crate::http::auth::Principal,
    operation: &str,
    (source_ip, on_behalf_of): (Option<std::net::IpAddr>, Option<(&str, &str)>),
) -> SqsResult<()> {
    let caller = policy::Caller {
        account: &principal.account,
        arn: &principal.arn,
    };
    admits_caller(sqs, queue, caller, operation, (source_ip, on_behalf_of))
}

/// [`admits`] for an account's root: a service that acts as an account (a mapping's poller
/// reading its queue as a Lambda execution role of the mapping's account would).
pub fn admits_account(sqs: &Sqs, queue: &Queue, account: &str, operation: &str) -> SqsResult<()> {
    let arn = format!("arn:aws:iam::{account}:root");
    let caller = policy::Caller { account, arn: &arn };
    admits_caller(sqs, queue, caller, operation, (None, None))
}

/// The decision for `caller`, and SQS's AccessDenied in its words when it is not Allow.
fn admits_caller(
    sqs: &Sqs,
    queue: &Queue,
    caller: policy::Caller<'_>,
    operation: &str,
    (source_ip, on_behalf_of): (Option<std::net::IpAddr>, Option<(&str, &str)>),
) -> SqsResult<()> {
    let mut request = policy::Request::direct(caller, operation, sqs.now());
    request.source_ip = source_ip;
    if let Some((arn, account)) = on_behalf_of {
        request = request.on_behalf_of(arn, account);
    }
    let decision = queue.admits(&request);
    let action = format!("sqs:{}", policy::iam_action(operation).to_lowercase());
    let why = match decision {
        policy::Decision::Allow => return Ok(()),
        policy::Decision::NotAllowed => {
            format!("because no resource-based policy allows the {action} action")
        }
        policy::Decision::ExplicitDeny => {
            "with an explicit deny in a resource-based policy".to_owned()
        }
    };
    // SQS's IAM wording, action in lower case as SQS writes it (e.g. aws/serverless-
    // application-model#3633, microsoft/aspire#3333).
    Err(SqsError::new(
        ErrorKind::AccessDenied,
        format!(
            "User: {} is not authorized to perform: {action} on resource: {} {why}",
            caller.arn,
            queue.arn()
        ),
    ))
}

/// [`authorize`] for a queue named by its ARN (move tasks); an unknown ARN is left to the
/// operation's own not-found error.
pub fn authorize_arn(sqs: &Sqs, ctx: &Context, arn: &str) -> SqsResult<()> {
    match sqs.registry.get_by_arn(arn) {
        Some(queue) if ctx.principal.is_some() => authorize(sqs, ctx, &queue),
        _ => Ok(()),
    }
}

/// Checks an optional integer parameter against SQS's range; the reason is SQS's wording.
pub fn in_range(
    value: Option<i64>,
    parameter: &str,
    min: i64,
    max: i64,
    reason: impl Display,
) -> SqsResult<Option<i64>> {
    match value {
        Some(v) if !(min..=max).contains(&v) => {
            Err(SqsError::invalid_value(v, parameter, &reason.to_string()))
        }
        other => Ok(other),
    }
}

/// Omits empty collections, as SQS does for optional members.
pub fn is_empty_map<K, V>(m: &std::collections::BTreeMap<K, V>) -> bool {
    m.is_empty()
}
