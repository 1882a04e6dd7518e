//! The one table of queue attributes: each row names an attribute and says which queues it
//! exists on, whether CreateQueue, SetQueueAttributes and `sqslite.toml` may set it, its range
//! (for the numbers), its default, whether its value is JSON text, and how it is parsed from
//! and rendered to SQS's string form. Validation and its error messages, a new queue's
//! defaults ([`QueueAttributes::new`]), GetQueueAttributes' names, rendering and the config
//! file's keys all read it; the ranges and defaults come from [`limits`].

use std::ops::RangeInclusive;

use super::attributes::{DeduplicationScope, QueueAttributes, ThroughputLimit};
use super::limits;
use super::redrive::{RedriveAllowPolicy, RedrivePolicy};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

pub(super) use super::attribute_values::unknown_attribute;
use super::attribute_values::{boolean, invalid_value, non_empty, set_fifo_queue, set_policy};

/// Which queues an attribute exists on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queues {
    /// Standard and FIFO queues.
    All,
    /// FIFO only: on a standard queue the name is unknown [aws-recorded].
    Fifo,
    /// FIFO high throughput: on a standard queue SQS names the FIFO requirement [aws-recorded].
    FifoHighThroughput,
}

/// Parses `value` into the attributes; `creating` tells CreateQueue from SetQueueAttributes.
type Set = fn(&mut QueueAttributes, &str, &str, bool) -> SqsResult<()>;
/// Stores a whole number already checked against the row's range.
type SetInt = fn(&mut QueueAttributes, u32);
/// The attribute's string form, `None` while it is unset.
type Get = fn(&QueueAttributes) -> Option<String>;

/// What a new queue holds for a row.
#[derive(Clone, Copy)]
enum Initial {
    /// Nothing until it is set.
    Unset,
    /// A number (from [`limits`]).
    Int(u32),
    /// A text value, in SQS's string form.
    Text(&'static str),
}

/// How a row's value is written.
#[derive(Clone, Copy)]
enum Value {
    /// A whole number in `min..=max` ("Invalid value for the parameter {name}." outside it).
    Int {
        /// The smallest value accepted.
        min: u32,
        /// The largest value accepted.
        max: u32,
        /// Stores an accepted value.
        set: SetInt,
    },
    /// Any other text, parsed by its own function.
    Text(Set),
    /// Counts, timestamps, the ARN: read-only.
    Computed,
}

/// One attribute.
#[derive(Clone, Copy)]
pub struct Spec {
    /// SQS's attribute name.
    pub name: &'static str,
    /// Which queues it exists on.
    pub queues: Queues,
    /// Its value is JSON text, so a TOML table may stand for it in `sqslite.toml`.
    pub json: bool,
    /// The value a new queue takes.
    default: Initial,
    /// How the value is written: a ranged number, parsed text, or computed.
    value: Value,
    /// Reads the stored value for GetQueueAttributes; `None` for the computed ones, which the
    /// queue renders itself.
    get: Option<Get>,
}

impl Spec {
    /// Whether CreateQueue, SetQueueAttributes and `sqslite.toml` may set it.
    pub fn settable(&self) -> bool {
        !matches!(self.value, Value::Computed)
    }

    /// The whole numbers it accepts, for the numeric attributes.
    #[cfg(test)]
    pub fn range(&self) -> Option<RangeInclusive<u32>> {
        match self.value {
            Value::Int { min, max, .. } => Some(min..=max),
            Value::Text(_) | Value::Computed => None,
        }
    }

    /// The value a new queue takes, in SQS's string form; `None` while unset by default.
    #[cfg(test)]
    pub fn default_value(&self) -> Option<String> {
        match self.default {
            Initial::Unset => None,
            Initial::Int(v) => Some(v.to_string()),
            Initial::Text(t) => Some(t.to_owned()),
        }
    }

    /// Checks `value` against this row and stores it in `a`; `creating` says CreateQueue, whose
    /// FifoQueue rule differs.
    fn parse(&self, a: &mut QueueAttributes, value: &str, creating: bool) -> SqsResult<()> {
        match self.value {
            Value::Int { min, max, set } => match value.trim().parse::<u32>() {
                Ok(v) if (min..=max).contains(&v) => {
                    set(a, v);
                    Ok(())
                }
                _ => Err(invalid_value(self.name)),
            },
            Value::Text(set) => set(a, self.name, value, creating),
            Value::Computed => Err(unknown_attribute(self.name)),
        }
    }
}

/// A whole number in `range`, `default` for a new queue.
const fn int(
    name: &'static str,
    range: RangeInclusive<u32>,
    default: u32,
    set: SetInt,
    get: Get,
) -> Spec {
    Spec {
        name,
        queues: Queues::All,
        json: false,
        default: Initial::Int(default),
        value: Value::Int {
            min: *range.start(),
            max: *range.end(),
            set,
        },
        get: Some(get),
    }
}

/// A text attribute stored as given (after `set`'s check), `default` for a new queue.
const fn stored(name: &'static str, default: Initial, set: Set, get: Get) -> Spec {
    Spec {
        name,
        queues: Queues::All,
        json: false,
        default,
        value: Value::Text(set),
        get: Some(get),
    }
}

/// An attribute SQS computes (counts, timestamps, the ARN): readable, never settable.
const fn computed(name: &'static str) -> Spec {
    Spec {
        name,
        queues: Queues::All,
        json: false,
        default: Initial::Unset,
        value: Value::Computed,
        get: None,
    }
}

/// A row whose value is JSON text (the policies), so the config file may give it as a table.
const fn json(spec: Spec) -> Spec {
    Spec { json: true, ..spec }
}

/// A row that exists only on `queues` (FIFO queues, or FIFO with high throughput).
const fn on(queues: Queues, spec: Spec) -> Spec {
    Spec { queues, ..spec }
}

/// Every attribute GetQueueAttributes knows, stored ones in the order they are rendered.
pub const TABLE: &[Spec] = &[
    int(
        "DelaySeconds",
        limits::DELAY_SECONDS,
        0,
        |a, v| a.delay_seconds = v,
        |a| Some(a.delay_seconds.to_string()),
    ),
    int(
        "MaximumMessageSize",
        limits::MAXIMUM_MESSAGE_SIZE,
        limits::DEFAULT_MAXIMUM_MESSAGE_SIZE,
        |a, v| a.maximum_message_size = v,
        |a| Some(a.maximum_message_size.to_string()),
    ),
    int(
        "MessageRetentionPeriod",
        limits::MESSAGE_RETENTION_PERIOD,
        limits::DEFAULT_MESSAGE_RETENTION_PERIOD,
        |a, v| a.message_retention_period = v,
        |a| Some(a.message_retention_period.to_string()),
    ),
    int(
        "ReceiveMessageWaitTimeSeconds",
        limits::WAIT_TIME_SECONDS,
        0,
        |a, v| a.receive_message_wait_time_seconds = v,
        |a| Some(a.receive_message_wait_time_seconds.to_string()),
    ),
    int(
        "VisibilityTimeout",
        limits::VISIBILITY_TIMEOUT,
        limits::DEFAULT_VISIBILITY_TIMEOUT,
        |a, v| a.visibility_timeout = v,
        |a| Some(a.visibility_timeout.to_string()),
    ),
    stored(
        "SqsManagedSseEnabled",
        Initial::Text("true"),
        |a, n, v, _| boolean(n, v).map(|v| a.sqs_managed_sse_enabled = v),
        |a| Some(a.sqs_managed_sse_enabled.to_string()),
    ),
    json(stored("Policy", Initial::Unset, set_policy, |a| {
        a.policy.as_ref().map(|p| p.text().to_owned())
    })),
    json(stored(
        "RedrivePolicy",
        Initial::Unset,
        |a, _, v, _| RedrivePolicy::parse(v).map(|p| a.redrive_policy = p),
        |a| a.redrive_policy.as_ref().map(RedrivePolicy::render),
    )),
    json(stored(
        "RedriveAllowPolicy",
        Initial::Unset,
        |a, _, v, _| RedriveAllowPolicy::parse(v).map(|p| a.redrive_allow_policy = p),
        |a| {
            a.redrive_allow_policy
                .as_ref()
                .map(RedriveAllowPolicy::render)
        },
    )),
    stored(
        "KmsMasterKeyId",
        Initial::Unset,
        |a, _, v, _| {
            a.kms_master_key_id = non_empty(v);
            Ok(())
        },
        |a| a.kms_master_key_id.clone(),
    ),
    // Listed once set, or once a key is (with SQS's default) [aws-recorded]: unset until then.
    Spec {
        default: Initial::Unset,
        ..int(
            "KmsDataKeyReusePeriodSeconds",
            limits::KMS_DATA_KEY_REUSE_PERIOD,
            limits::DEFAULT_KMS_DATA_KEY_REUSE_PERIOD,
            |a, v| a.kms_data_key_reuse_period_seconds = Some(v),
            |a| {
                a.kms_data_key_reuse_period_seconds
                    .or(a
                        .kms_master_key_id
                        .as_ref()
                        .map(|_| limits::DEFAULT_KMS_DATA_KEY_REUSE_PERIOD))
                    .map(|v| v.to_string())
            },
        )
    },
    on(
        Queues::Fifo,
        stored("FifoQueue", Initial::Unset, set_fifo_queue, |_| {
            Some("true".to_owned())
        }),
    ),
    on(
        Queues::Fifo,
        stored(
            "ContentBasedDeduplication",
            Initial::Text("false"),
            |a, n, v, _| boolean(n, v).map(|v| a.content_based_deduplication = v),
            |a| Some(a.content_based_deduplication.to_string()),
        ),
    ),
    on(
        Queues::FifoHighThroughput,
        stored(
            "DeduplicationScope",
            Initial::Text("queue"),
            |a, n, v, _| {
                a.deduplication_scope =
                    DeduplicationScope::parse(v).ok_or_else(|| invalid_value(n))?;
                Ok(())
            },
            |a| Some(a.deduplication_scope.as_str().to_owned()),
        ),
    ),
    on(
        Queues::FifoHighThroughput,
        stored(
            "FifoThroughputLimit",
            Initial::Text("perQueue"),
            |a, n, v, _| {
                a.fifo_throughput_limit =
                    ThroughputLimit::parse(v).ok_or_else(|| invalid_value(n))?;
                Ok(())
            },
            |a| Some(a.fifo_throughput_limit.as_str().to_owned()),
        ),
    ),
    computed("ApproximateNumberOfMessages"),
    computed("ApproximateNumberOfMessagesNotVisible"),
    computed("ApproximateNumberOfMessagesDelayed"),
    computed("CreatedTimestamp"),
    computed("LastModifiedTimestamp"),
    computed("QueueArn"),
];

/// The row for `name`.
pub fn spec(name: &str) -> Option<&'static Spec> {
    TABLE.iter().find(|s| s.name == name)
}

/// Names GetQueueAttributes accepts: `All` and every row.
pub fn readable(name: &str) -> bool {
    name == "All" || spec(name).is_some()
}

/// The attributes CreateQueue takes, which are also `sqslite.toml`'s attribute keys.
/// (Any lifetime, so that callers can mix the names with shorter-lived ones.)
pub fn settable<'a>() -> impl Iterator<Item = &'a str> {
    TABLE
        .iter()
        .filter(|s| s.settable())
        .map(|s| -> &'a str { s.name })
}

/// Checks that `name` may be set on this queue, then parses `value` into it.
pub fn set(a: &mut QueueAttributes, name: &str, value: &str, creating: bool) -> SqsResult<()> {
    let Some(spec) = spec(name).filter(|s| s.settable()) else {
        return Err(unknown_attribute(name));
    };
    match spec.queues {
        Queues::FifoHighThroughput if !a.fifo_queue => Err(SqsError::new(
            ErrorKind::InvalidAttributeName,
            format!("You can specify the {name} only when FifoQueue is set to true."),
        )),
        // SQS refuses even `FifoQueue=false` on a standard queue: the attribute does not
        // exist there [aws-recorded].
        Queues::Fifo if !a.fifo_queue => Err(unknown_attribute(name)),
        _ => spec.parse(a, value, creating),
    }
}

/// Gives `a` every default its queue type has, row by row.
pub(super) fn apply_defaults(a: &mut QueueAttributes) {
    let fifo = a.fifo_queue;
    for spec in TABLE.iter().filter(|s| fifo || s.queues == Queues::All) {
        match spec.default {
            Initial::Unset => {}
            Initial::Int(v) => {
                if let Value::Int { set, .. } = spec.value {
                    set(a, v);
                }
            }
            Initial::Text(text) => {
                let applied = spec.parse(a, text, true);
                debug_assert!(applied.is_ok(), "{}'s default {text} is refused", spec.name);
            }
        }
    }
}

/// The stored attributes in SQS's string form, in the table's order.
pub fn render(a: &QueueAttributes) -> Vec<(&'static str, String)> {
    TABLE
        .iter()
        .filter(|s| a.fifo_queue || s.queues == Queues::All)
        .filter_map(|s| Some((s.name, (s.get?)(a)?)))
        .collect()
}

#[cfg(test)]
#[path = "attribute_table_tests.rs"]
mod tests;
