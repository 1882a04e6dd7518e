//! The `Action` hub: one typed variant per SQS operation, decoded once and dispatched by one
//! `match`. Each family file holds its operations' input and output types and their logic.

pub mod attributes;
pub mod batch;
pub mod delete;
pub mod permissions;
pub mod queues;
pub mod receive;
pub mod redrive;
pub mod send;
pub mod tags;
pub mod visibility;

use std::fmt::Display;
use std::sync::Arc;

use crate::app::App;
use crate::engine::queue::Queue;
use crate::error::{ErrorKind, SqsError, SqsResult};
use crate::protocol::{self, Context, Input, Protocol};

macro_rules! actions {
    ($($name:ident => $module:ident :: $func:ident),* $(,)?) => {
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

            pub fn name(&self) -> &'static str {
                match self {
                    $(Action::$name(_) => stringify!($name)),*
                }
            }

            /// Runs the action and renders its output for the request's protocol.
            pub async fn apply(self, app: &App, ctx: &Context, protocol: Protocol) -> SqsResult<Vec<u8>> {
                match self {
                    $(Action::$name(input) => {
                        let output = $module::$func(input, app, ctx).await?;
                        protocol::render(protocol, stringify!($name), &ctx.request_id, &output)
                    }),*
                }
            }
        }
    };
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
    ReceiveMessage => receive::receive_message,
    DeleteMessage => delete::delete_message,
    DeleteMessageBatch => delete::delete_message_batch,
    ChangeMessageVisibility => visibility::change_message_visibility,
    ChangeMessageVisibilityBatch => visibility::change_message_visibility_batch,
    ListDeadLetterSourceQueues => redrive::list_dead_letter_source_queues,
    StartMessageMoveTask => redrive::start_message_move_task,
    ListMessageMoveTasks => redrive::list_message_move_tasks,
    CancelMessageMoveTask => redrive::cancel_message_move_task,
}

/// The queue a request's QueueUrl names.
pub fn queue(app: &App, ctx: &Context, queue_url: &str) -> SqsResult<Arc<Queue>> {
    app.registry.find(&ctx.queue_ref(queue_url)?)
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
