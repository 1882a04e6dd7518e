//! The one table of queue attributes: each row names an attribute and says whether CreateQueue,
//! SetQueueAttributes and `sqslite.toml` may set it, whether it exists on standard queues, whether
//! its value is JSON text, and how it is parsed from and rendered to SQS's string form. Validation,
//! GetQueueAttributes' names, rendering and the config file's keys all read it; the ranges and
//! defaults come from [`limits`].

use std::ops::RangeInclusive;
use std::sync::Arc;

use super::attributes::{DeduplicationScope, QueueAttributes, ThroughputLimit};
use super::limits;
use super::policy::Policy;
use super::redrive::{RedriveAllowPolicy, RedrivePolicy};
use crate::error::{ErrorKind, SqsError, SqsResult};

/// Which queues an attribute exists on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queues {
    All,
    /// FIFO only: on a standard queue the name is unknown [aws-recorded].
    Fifo,
    /// FIFO high throughput: on a standard queue SQS names the FIFO requirement [aws-recorded].
    FifoHighThroughput,
}

/// Parses `value` into the attributes; `creating` tells CreateQueue from SetQueueAttributes.
type Set = fn(&mut QueueAttributes, &str, &str, bool) -> SqsResult<()>;
/// The attribute's string form, `None` while it is unset.
type Get = fn(&QueueAttributes) -> Option<String>;

/// One attribute.
#[derive(Clone, Copy)]
pub struct Spec {
    pub name: &'static str,
    pub queues: Queues,
    /// Its value is JSON text, so a TOML table may stand for it in `sqslite.toml`.
    pub json: bool,
    /// `None` for the computed attributes (counts, timestamps, the ARN): read-only.
    set: Option<Set>,
    get: Option<Get>,
}

impl Spec {
    pub fn settable(&self) -> bool {
        self.set.is_some()
    }
}

const fn stored(name: &'static str, set: Set, get: Get) -> Spec {
    Spec {
        name,
        queues: Queues::All,
        json: false,
        set: Some(set),
        get: Some(get),
    }
}

const fn computed(name: &'static str) -> Spec {
    Spec {
        name,
        queues: Queues::All,
        json: false,
        set: None,
        get: None,
    }
}

const fn json(spec: Spec) -> Spec {
    Spec { json: true, ..spec }
}

const fn on(queues: Queues, spec: Spec) -> Spec {
    Spec { queues, ..spec }
}

/// Every attribute GetQueueAttributes knows, stored ones in the order they are rendered.
pub const TABLE: &[Spec] = &[
    stored(
        "DelaySeconds",
        |a, n, v, _| int(n, v, limits::DELAY_SECONDS).map(|v| a.delay_seconds = v),
        |a| Some(a.delay_seconds.to_string()),
    ),
    stored(
        "MaximumMessageSize",
        |a, n, v, _| int(n, v, limits::MAXIMUM_MESSAGE_SIZE).map(|v| a.maximum_message_size = v),
        |a| Some(a.maximum_message_size.to_string()),
    ),
    stored(
        "MessageRetentionPeriod",
        |a, n, v, _| {
            int(n, v, limits::MESSAGE_RETENTION_PERIOD).map(|v| a.message_retention_period = v)
        },
        |a| Some(a.message_retention_period.to_string()),
    ),
    stored(
        "ReceiveMessageWaitTimeSeconds",
        |a, n, v, _| {
            int(n, v, limits::WAIT_TIME_SECONDS).map(|v| a.receive_message_wait_time_seconds = v)
        },
        |a| Some(a.receive_message_wait_time_seconds.to_string()),
    ),
    stored(
        "VisibilityTimeout",
        |a, n, v, _| int(n, v, limits::VISIBILITY_TIMEOUT).map(|v| a.visibility_timeout = v),
        |a| Some(a.visibility_timeout.to_string()),
    ),
    stored(
        "SqsManagedSseEnabled",
        |a, n, v, _| boolean(n, v).map(|v| a.sqs_managed_sse_enabled = v),
        |a| Some(a.sqs_managed_sse_enabled.to_string()),
    ),
    json(stored("Policy", set_policy, |a| {
        a.policy.as_ref().map(|p| p.text().to_owned())
    })),
    json(stored(
        "RedrivePolicy",
        |a, _, v, _| RedrivePolicy::parse(v).map(|p| a.redrive_policy = p),
        |a| a.redrive_policy.as_ref().map(RedrivePolicy::render),
    )),
    json(stored(
        "RedriveAllowPolicy",
        |a, _, v, _| RedriveAllowPolicy::parse(v).map(|p| a.redrive_allow_policy = p),
        |a| {
            a.redrive_allow_policy
                .as_ref()
                .map(RedriveAllowPolicy::render)
        },
    )),
    stored(
        "KmsMasterKeyId",
        |a, _, v, _| {
            a.kms_master_key_id = non_empty(v);
            Ok(())
        },
        |a| a.kms_master_key_id.clone(),
    ),
    // Listed once set, or once a key is (with SQS's default) [aws-recorded].
    stored(
        "KmsDataKeyReusePeriodSeconds",
        |a, n, v, _| {
            int(n, v, limits::KMS_DATA_KEY_REUSE_PERIOD)
                .map(|v| a.kms_data_key_reuse_period_seconds = Some(v))
        },
        |a| {
            a.kms_data_key_reuse_period_seconds
                .or(a
                    .kms_master_key_id
                    .as_ref()
                    .map(|_| limits::DEFAULT_KMS_DATA_KEY_REUSE_PERIOD))
                .map(|v| v.to_string())
        },
    ),
    on(
        Queues::Fifo,
        stored("FifoQueue", set_fifo_queue, |_| Some("true".to_owned())),
    ),
    on(
        Queues::Fifo,
        stored(
            "ContentBasedDeduplication",
            |a, n, v, _| boolean(n, v).map(|v| a.content_based_deduplication = v),
            |a| Some(a.content_based_deduplication.to_string()),
        ),
    ),
    on(
        Queues::FifoHighThroughput,
        stored(
            "DeduplicationScope",
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
    let Some((spec, set)) = spec(name).and_then(|s| Some((s, s.set?))) else {
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
        _ => set(a, name, value, creating),
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

fn set_policy(a: &mut QueueAttributes, _: &str, value: &str, _: bool) -> SqsResult<()> {
    a.policy = non_empty(value)
        .map(|text| Policy::parse(&text).map(Arc::new))
        .transpose()?;
    Ok(())
}

/// Restating a FIFO queue's type is accepted; changing it never is [aws-recorded:
/// SetQueueAttributes FifoQueue=true on a FIFO queue succeeds].
fn set_fifo_queue(
    a: &mut QueueAttributes,
    name: &str,
    value: &str,
    creating: bool,
) -> SqsResult<()> {
    if boolean(name, value)? == a.fifo_queue {
        return Ok(());
    }
    Err(if creating {
        invalid_value(name)
    } else {
        SqsError::new(
            ErrorKind::InvalidAttributeValue,
            "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.",
        )
    })
}

pub(super) fn unknown_attribute(name: &str) -> SqsError {
    SqsError::new(
        ErrorKind::InvalidAttributeName,
        format!("Unknown Attribute {name}."),
    )
}

fn invalid_value(name: &str) -> SqsError {
    SqsError::new(
        ErrorKind::InvalidAttributeValue,
        format!("Invalid value for the parameter {name}."),
    )
}

fn int(name: &str, value: &str, range: RangeInclusive<u32>) -> SqsResult<u32> {
    match value.trim().parse::<u32>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(invalid_value(name)),
    }
}

fn boolean(name: &str, value: &str) -> SqsResult<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(invalid_value(name)),
    }
}

fn non_empty(value: &str) -> Option<String> {
    (!value.is_empty()).then(|| value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every settable attribute is rendered once set (so a stored queue keeps it), and every
    /// rendered one can be set back to the value it renders.
    #[test]
    fn the_table_round_trips() {
        let mut fifo = QueueAttributes::new(true);
        fifo.kms_master_key_id = Some("alias/aws/sqs".into());
        fifo.redrive_allow_policy =
            RedriveAllowPolicy::parse(r#"{"redrivePermission":"allowAll"}"#).unwrap();
        let rendered = render(&fifo);
        let names: Vec<&str> = rendered.iter().map(|(n, _)| *n).collect();
        let settable: Vec<&str> = settable()
            .filter(|n| !matches!(*n, "Policy" | "RedrivePolicy"))
            .collect();
        assert_eq!(names, settable);
        let mut again = QueueAttributes::new(true);
        for (name, value) in &rendered {
            set(&mut again, name, value, true).unwrap();
        }
        assert_eq!(render(&again), rendered);
        assert!(readable("All") && readable("QueueArn") && !readable("Nope"));
        let err = set(&mut again, "QueueArn", "x", false).unwrap_err();
        assert_eq!(err.message, "Unknown Attribute QueueArn.");
    }
}
