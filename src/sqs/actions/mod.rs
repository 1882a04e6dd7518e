//! The `Action` hub: one typed variant per SQS operation, decoded once and dispatched by one
//! `match`. Each family file holds its operations' input and output types and their logic.
// Request and response types are read field by field against AWS's API reference.
#![warn(clippy::missing_docs_in_private_items)]
// The one dispatch hands every operation its decoded input and what its row resolved by value,
// whether or not it keeps any of it, and takes a result from each.
#![allow(clippy::needless_pass_by_value, clippy::unnecessary_wraps)]

pub mod access;
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
pub mod visibility;

use std::fmt::Display;

use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::{self, Context, Input, Protocol};
pub use access::{admits, admits_account, Target};
pub use state::Sqs;

/// Declares the `Action` enum, its decoding by name and its one dispatching `match`, from one
/// list of operation, module, function and access: what the action acts on, resolved and
/// authorized ([`access`]) before it runs, so no action can run unchecked. `[waits]` marks an
/// operation that may wait (a long poll).
macro_rules! actions {
    ($($name:ident => $module:ident :: $func:ident, $kind:ident $(($($field:ident),+))? $([$waits:ident])?;)*) => {
        /// Every SQS operation with its decoded input.
        #[derive(Debug)]
        pub enum Action {
            $($name($module::$name)),*
        }

        /// The operations in the list's order, so an action's place is a constant.
        #[allow(dead_code)]
        enum Place {
            $($name),*
        }

        impl Action {
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// Each operation with what its row says it acts on (`Url`, `Account`…).
            pub const ACCESS: &'static [(&'static str, &'static str)] =
                &[$((stringify!($name), stringify!($kind))),*];

            pub fn decode(name: &str, input: Input) -> SqsResult<Action> {
                match name {
                    $(stringify!($name) => Ok(Action::$name(input.decode()?)),)*
                    _ => Err(SqsError::new(
                        ErrorKind::InvalidAction,
                        format!("The action {name} is not valid for this endpoint."),
                    )),
                }
            }

            /// The operation's place in [`Action::NAMES`], without comparing a name.
            pub fn index(&self) -> usize {
                match self {
                    $(Action::$name(_) => Place::$name as usize),*
                }
            }

            /// The operation's name, as `X-Amz-Target` and `Action=` spell it.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Action::$name(_) => stringify!($name)),*
                }
            }

            /// The queue this action acts on, as its row names it; `None` for ListQueues and
            /// CancelMessageMoveTask (whose task handle names its source only inside an
            /// opaque token).
            #[allow(unused_variables)]
            pub fn target(&self) -> Option<Target<'_>> {
                match self {
                    $(Action::$name(input) => target!(input, $kind $(, $($field),+)?)),*
                }
            }

            /// Whether the action may wait (a long poll): it is then run with [`Action::apply`]
            /// in a boxed future, and every other with [`Action::now`].
            pub fn may_wait(&self) -> bool {
                match self {
                    $(Action::$name(_) => waits!($($waits)?)),*
                }
            }

            /// Resolves and authorizes what the action acts on, runs it and renders its output
            /// for the request's protocol, at once: so the request of a call that never waits
            /// carries no future of the action's. An action that may wait is not run here.
            pub fn now(self, sqs: &Sqs, ctx: &Context, protocol: Protocol) -> SqsResult<Vec<u8>> {
                match self {
                    $(Action::$name(input) => now!(
                        $($waits)?; $kind $(($($field),+))?, $module::$func, $name, input, sqs, ctx, protocol
                    )),*
                }
            }

            /// The action run to its answer in the caller's own future, nothing boxed: for a
            /// caller that is boxed already (a receive that may park, a call a fault may
            /// delay, the admin API).
            pub async fn apply(self, sqs: &Sqs, ctx: &Context, protocol: Protocol) -> SqsResult<Vec<u8>> {
                match self {
                    $(Action::$name(input) => applied!(
                        $($waits)?; $kind $(($($field),+))?, $module::$func, $name, input, sqs, ctx, protocol
                    )),*
                }
            }
        }
    };
}

/// The [`Target`] an action's row names.
macro_rules! target {
    ($input:ident, Url, $field:ident) => {
        Some(Target::Url(&$input.$field))
    };
    ($input:ident, Source, $field:ident) => {
        Some(Target::Arn(&$input.$field))
    };
    ($input:ident, Redrive, $source:ident, $dest:ident) => {
        Some(Target::Arn(&$input.$source))
    };
    ($input:ident, Create, $field:ident) => {
        Some(Target::Name {
            name: &$input.$field,
            owner: None,
        })
    };
    ($input:ident, Named) => {
        Some($input.target())
    };
    ($input:ident, Task, $field:ident) => {
        None
    };
    ($input:ident, Account) => {
        None
    };
}

/// What an action's row resolves before it runs, authorized for `$name`: the queue (`Url`,
/// `Named`), the move task's source if it exists (`Source`, `Redrive`, `Task`), or the caller's
/// own account (`Create`, `Account`).
macro_rules! resolve {
    ($input:ident, $sqs:ident, $ctx:ident, $name:ident, Url, $field:ident) => {
        access::queue($sqs, $ctx, Target::Url(&$input.$field), stringify!($name))
    };
    ($input:ident, $sqs:ident, $ctx:ident, $name:ident, Named) => {
        access::queue($sqs, $ctx, $input.target(), stringify!($name))
    };
    ($input:ident, $sqs:ident, $ctx:ident, $name:ident, Source, $field:ident) => {
        access::source($sqs, $ctx, Some(&$input.$field), stringify!($name))
    };
    ($input:ident, $sqs:ident, $ctx:ident, $name:ident, Redrive, $source:ident, $dest:ident) => {
        access::redrive(
            $sqs,
            $ctx,
            (&$input.$source, $input.$dest.as_deref()),
            stringify!($name),
        )
    };
    ($input:ident, $sqs:ident, $ctx:ident, $name:ident, Task, $field:ident) => {
        access::source(
            $sqs,
            $ctx,
            crate::sqs::engine::move_task::handle_source(&$input.$field).as_deref(),
            stringify!($name),
        )
    };
    ($input:ident, $sqs:ident, $ctx:ident, $name:ident, $kind:ident $(, $field:ident)?) => {
        SqsResult::Ok(access::InAccount)
    };
}

/// One arm of [`Action::now`]: the call answered at once; one that may wait is refused as an
/// internal error (the service runs those with [`Action::apply`]).
macro_rules! now {
    (; $kind:ident $(($($field:ident),+))?, $module:ident :: $func:ident, $name:ident, $input:ident, $sqs:ident, $ctx:ident, $protocol:ident) => {
        applied!(; $kind $(($($field),+))?, $module::$func, $name, $input, $sqs, $ctx, $protocol)
    };
    (waits; $kind:ident $(($($field:ident),+))?, $module:ident :: $func:ident, $name:ident, $input:ident, $sqs:ident, $ctx:ident, $protocol:ident) => {{
        let _ = $input;
        Err(SqsError::new(
            ErrorKind::InternalError,
            concat!(stringify!($name), " may wait and cannot be answered at once"),
        ))
    }};
}

/// Whether a row is marked `[waits]`.
macro_rules! waits {
    () => {
        false
    };
    (waits) => {
        true
    };
}

/// One arm of [`Action::apply`]: the call, awaited in place when it may wait.
macro_rules! applied {
    (; $kind:ident $(($($field:ident),+))?, $module:ident :: $func:ident, $name:ident, $input:ident, $sqs:ident, $ctx:ident, $protocol:ident) => {
        resolve!($input, $sqs, $ctx, $name, $kind $(, $($field),+)?)
            .and_then(|on| $module::$func($input, on, $sqs, $ctx))
            .and_then(|output| protocol::render($protocol, stringify!($name), &$ctx.request_id, &output))
    };
    (waits; $kind:ident $(($($field:ident),+))?, $module:ident :: $func:ident, $name:ident, $input:ident, $sqs:ident, $ctx:ident, $protocol:ident) => {{
        let on = resolve!($input, $sqs, $ctx, $name, $kind $(, $($field),+)?)?;
        let output = $module::$func($input, on, $sqs, $ctx).await?;
        protocol::render($protocol, stringify!($name), &$ctx.request_id, &output)
    }};
}

actions! {
    CreateQueue => queues::create_queue, Create(queue_name);
    GetQueueUrl => queues::get_queue_url, Named;
    ListQueues => queues::list_queues, Account;
    DeleteQueue => queues::delete_queue, Url(queue_url);
    PurgeQueue => queues::purge_queue, Url(queue_url);
    GetQueueAttributes => attributes::get_queue_attributes, Url(queue_url);
    SetQueueAttributes => attributes::set_queue_attributes, Url(queue_url);
    TagQueue => tags::tag_queue, Url(queue_url);
    UntagQueue => tags::untag_queue, Url(queue_url);
    ListQueueTags => tags::list_queue_tags, Url(queue_url);
    AddPermission => permissions::add_permission, Url(queue_url);
    RemovePermission => permissions::remove_permission, Url(queue_url);
    SendMessage => send::send_message, Url(queue_url);
    SendMessageBatch => send::send_message_batch, Url(queue_url);
    ReceiveMessage => receive::receive_message, Url(queue_url) [waits];
    DeleteMessage => delete::delete_message, Url(queue_url);
    DeleteMessageBatch => delete::delete_message_batch, Url(queue_url);
    ChangeMessageVisibility => visibility::change_message_visibility, Url(queue_url);
    ChangeMessageVisibilityBatch => visibility::change_message_visibility_batch, Url(queue_url);
    ListDeadLetterSourceQueues => redrive::list_dead_letter_source_queues, Url(queue_url);
    StartMessageMoveTask => redrive::start_message_move_task, Redrive(source_arn, destination_arn);
    ListMessageMoveTasks => redrive::list_message_move_tasks, Source(source_arn);
    CancelMessageMoveTask => redrive::cancel_message_move_task, Task(task_handle);
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
