//! Typed queue attributes: parsed and validated once from SQS's string map, rendered back on output.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::sync::Arc;

use crate::engine::limits;
use crate::engine::policy::Policy;
use crate::engine::redrive::{RedriveAllowPolicy, RedrivePolicy};
use crate::error::{ErrorKind, SqsError, SqsResult};

/// Names GetQueueAttributes knows; anything else is `InvalidAttributeName`.
pub const READABLE: &[&str] = &[
    "All",
    "Policy",
    "VisibilityTimeout",
    "MaximumMessageSize",
    "MessageRetentionPeriod",
    "ApproximateNumberOfMessages",
    "ApproximateNumberOfMessagesNotVisible",
    "CreatedTimestamp",
    "LastModifiedTimestamp",
    "QueueArn",
    "ApproximateNumberOfMessagesDelayed",
    "DelaySeconds",
    "ReceiveMessageWaitTimeSeconds",
    "RedrivePolicy",
    "FifoQueue",
    "ContentBasedDeduplication",
    "KmsMasterKeyId",
    "KmsDataKeyReusePeriodSeconds",
    "DeduplicationScope",
    "FifoThroughputLimit",
    "RedriveAllowPolicy",
    "SqsManagedSseEnabled",
];

const FIFO_ONLY: &[&str] = &["FifoQueue", "ContentBasedDeduplication"];
const HIGH_THROUGHPUT: &[&str] = &["DeduplicationScope", "FifoThroughputLimit"];

/// The settable attributes of a queue, with SQS's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueAttributes {
    pub delay_seconds: u32,
    pub maximum_message_size: u32,
    pub message_retention_period: u32,
    pub receive_message_wait_time_seconds: u32,
    pub visibility_timeout: u32,
    /// Parsed once when set; shared, so a clone of the attributes copies a pointer.
    pub policy: Option<Arc<Policy>>,
    pub redrive_policy: Option<RedrivePolicy>,
    pub redrive_allow_policy: Option<RedriveAllowPolicy>,
    pub kms_master_key_id: Option<String>,
    pub kms_data_key_reuse_period_seconds: Option<u32>,
    pub sqs_managed_sse_enabled: bool,
    pub fifo_queue: bool,
    pub content_based_deduplication: bool,
    pub deduplication_scope: DeduplicationScope,
    pub fifo_throughput_limit: ThroughputLimit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeduplicationScope {
    Queue,
    MessageGroup,
}

impl DeduplicationScope {
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "queue" => Some(DeduplicationScope::Queue),
            "messageGroup" => Some(DeduplicationScope::MessageGroup),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DeduplicationScope::Queue => "queue",
            DeduplicationScope::MessageGroup => "messageGroup",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThroughputLimit {
    PerQueue,
    PerMessageGroupId,
}

impl QueueAttributes {
    pub fn new(fifo: bool) -> Self {
        QueueAttributes {
            delay_seconds: 0,
            maximum_message_size: limits::DEFAULT_MAXIMUM_MESSAGE_SIZE,
            message_retention_period: limits::DEFAULT_MESSAGE_RETENTION_PERIOD,
            receive_message_wait_time_seconds: 0,
            visibility_timeout: limits::DEFAULT_VISIBILITY_TIMEOUT,
            policy: None,
            redrive_policy: None,
            redrive_allow_policy: None,
            kms_master_key_id: None,
            kms_data_key_reuse_period_seconds: None,
            sqs_managed_sse_enabled: true,
            fifo_queue: fifo,
            content_based_deduplication: false,
            deduplication_scope: DeduplicationScope::Queue,
            fifo_throughput_limit: ThroughputLimit::PerQueue,
        }
    }

    /// Applies a CreateQueue/SetQueueAttributes map; `creating` words a type mismatch as a
    /// bad value rather than a change of type.
    /// Either every attribute applies or none does.
    pub fn apply(&mut self, map: &BTreeMap<String, String>, creating: bool) -> SqsResult<()> {
        let mut next = self.clone();
        for (name, value) in map {
            next.set(name, value, creating)?;
        }
        next.settle_encryption(map, creating)?;
        if next.fifo_throughput_limit == ThroughputLimit::PerMessageGroupId
            && next.deduplication_scope == DeduplicationScope::Queue
        {
            return Err(SqsError::invalid_parameter(
                "The FifoThroughputLimit perMessageGroupId can only be used when DeduplicationScope is messageGroup.",
            ));
        }
        *self = next;
        Ok(())
    }

    /// The two kinds of server-side encryption exclude each other [aws-recorded: a KMS key while
    /// SqsManagedSseEnabled is "true", or both in one call, is refused]; a queue created with a
    /// KMS key and no SqsManagedSseEnabled has SQS-managed SSE off [unverified: implied, since
    /// SQS-managed SSE is on by default and cannot be on beside KMS]. Clearing the key clears its
    /// reuse period too, even one set in the same call [aws-recorded].
    fn settle_encryption(
        &mut self,
        map: &BTreeMap<String, String>,
        creating: bool,
    ) -> SqsResult<()> {
        if map.get("KmsMasterKeyId").is_some_and(String::is_empty) {
            self.kms_data_key_reuse_period_seconds = None;
        }
        if self.kms_master_key_id.is_none() || !self.sqs_managed_sse_enabled {
            return Ok(());
        }
        if creating && !map.contains_key("SqsManagedSseEnabled") {
            self.sqs_managed_sse_enabled = false;
            return Ok(());
        }
        Err(SqsError::new(
            ErrorKind::InvalidAttributeName,
            "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.",
        ))
    }

    fn set(&mut self, name: &str, value: &str, creating: bool) -> SqsResult<()> {
        if !self.fifo_queue && HIGH_THROUGHPUT.contains(&name) {
            return Err(SqsError::new(
                ErrorKind::InvalidAttributeName,
                format!("You can specify the {name} only when FifoQueue is set to true."),
            ));
        }
        // SQS refuses even `FifoQueue=false` on a standard queue: the attribute does not
        // exist there [aws-recorded].
        if !self.fifo_queue && FIFO_ONLY.contains(&name) {
            return Err(unknown_attribute(name));
        }
        match name {
            "DelaySeconds" => self.delay_seconds = int(name, value, limits::DELAY_SECONDS)?,
            "MaximumMessageSize" => {
                self.maximum_message_size = int(name, value, limits::MAXIMUM_MESSAGE_SIZE)?;
            }
            "MessageRetentionPeriod" => {
                self.message_retention_period = int(name, value, limits::MESSAGE_RETENTION_PERIOD)?;
            }
            "ReceiveMessageWaitTimeSeconds" => {
                self.receive_message_wait_time_seconds =
                    int(name, value, limits::WAIT_TIME_SECONDS)?;
            }
            "VisibilityTimeout" => {
                self.visibility_timeout = int(name, value, limits::VISIBILITY_TIMEOUT)?;
            }
            "Policy" => {
                self.policy = non_empty(value)
                    .map(|text| Policy::parse(&text).map(Arc::new))
                    .transpose()?;
            }
            "RedrivePolicy" => self.redrive_policy = RedrivePolicy::parse(value)?,
            "RedriveAllowPolicy" => self.redrive_allow_policy = RedriveAllowPolicy::parse(value)?,
            "KmsMasterKeyId" => self.kms_master_key_id = non_empty(value),
            "KmsDataKeyReusePeriodSeconds" => {
                self.kms_data_key_reuse_period_seconds =
                    Some(int(name, value, limits::KMS_DATA_KEY_REUSE_PERIOD)?);
            }
            "SqsManagedSseEnabled" => self.sqs_managed_sse_enabled = boolean(name, value)?,
            // Restating a FIFO queue's type is accepted; changing it never is
            // [aws-recorded: SetQueueAttributes FifoQueue=true on a FIFO queue succeeds].
            "FifoQueue" => {
                if boolean(name, value)? != self.fifo_queue {
                    return Err(if creating {
                        invalid_value(name)
                    } else {
                        SqsError::new(
                            ErrorKind::InvalidAttributeValue,
                            "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.",
                        )
                    });
                }
            }
            "ContentBasedDeduplication" => self.content_based_deduplication = boolean(name, value)?,
            "DeduplicationScope" => {
                self.deduplication_scope =
                    DeduplicationScope::parse(value).ok_or_else(|| invalid_value(name))?;
            }
            "FifoThroughputLimit" => {
                self.fifo_throughput_limit = match value {
                    "perQueue" => ThroughputLimit::PerQueue,
                    "perMessageGroupId" => ThroughputLimit::PerMessageGroupId,
                    _ => return Err(invalid_value(name)),
                }
            }
            _ => return Err(unknown_attribute(name)),
        }
        Ok(())
    }

    /// The stored (non-computed) attributes in SQS's string form.
    pub fn render(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![
            ("DelaySeconds", self.delay_seconds.to_string()),
            ("MaximumMessageSize", self.maximum_message_size.to_string()),
            (
                "MessageRetentionPeriod",
                self.message_retention_period.to_string(),
            ),
            (
                "ReceiveMessageWaitTimeSeconds",
                self.receive_message_wait_time_seconds.to_string(),
            ),
            ("VisibilityTimeout", self.visibility_timeout.to_string()),
            (
                "SqsManagedSseEnabled",
                self.sqs_managed_sse_enabled.to_string(),
            ),
        ];
        let optional = [
            ("Policy", self.policy.as_ref().map(|p| p.text().to_owned())),
            (
                "RedrivePolicy",
                self.redrive_policy.as_ref().map(RedrivePolicy::render),
            ),
            (
                "RedriveAllowPolicy",
                self.redrive_allow_policy
                    .as_ref()
                    .map(RedriveAllowPolicy::render),
            ),
            ("KmsMasterKeyId", self.kms_master_key_id.clone()),
            (
                "KmsDataKeyReusePeriodSeconds",
                self.kms_data_key_reuse_period_seconds
                    .or(self
                        .kms_master_key_id
                        .as_ref()
                        .map(|_| limits::DEFAULT_KMS_DATA_KEY_REUSE_PERIOD))
                    .map(|v| v.to_string()),
            ),
        ];
        out.extend(optional.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))));
        if self.fifo_queue {
            out.push(("FifoQueue", "true".into()));
            out.push((
                "ContentBasedDeduplication",
                self.content_based_deduplication.to_string(),
            ));
            out.push((
                "DeduplicationScope",
                self.deduplication_scope.as_str().into(),
            ));
            out.push((
                "FifoThroughputLimit",
                match self.fifo_throughput_limit {
                    ThroughputLimit::PerQueue => "perQueue",
                    ThroughputLimit::PerMessageGroupId => "perMessageGroupId",
                }
                .into(),
            ));
        }
        out
    }

    /// For idempotent CreateQueue: the first requested attribute whose value differs.
    pub fn first_difference(&self, requested: &BTreeMap<String, String>) -> Option<String> {
        let mut wanted = self.clone();
        if wanted.apply(requested, true).is_err() {
            return requested.keys().next().cloned();
        }
        let mine = self.render();
        let theirs = wanted.render();
        requested
            .keys()
            .find(|name| {
                let get = |list: &[(&str, String)]| {
                    list.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
                };
                get(&mine) != get(&theirs)
            })
            .cloned()
    }
}

fn unknown_attribute(name: &str) -> SqsError {
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

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn out_of_range_is_invalid_attribute_value_and_changes_nothing() {
        let mut attrs = QueueAttributes::new(false);
        let err = attrs
            .apply(
                &map(&[("DelaySeconds", "5"), ("VisibilityTimeout", "43201")]),
                false,
            )
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidAttributeValue);
        assert_eq!(attrs.delay_seconds, 0);
    }

    #[test]
    fn fifo_attributes_on_standard_queue_are_rejected() {
        let mut attrs = QueueAttributes::new(false);
        let err = attrs
            .apply(&map(&[("ContentBasedDeduplication", "true")]), true)
            .unwrap_err();
        assert_eq!(err.message, "Unknown Attribute ContentBasedDeduplication.");
        let err = attrs
            .apply(&map(&[("DeduplicationScope", "queue")]), true)
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidAttributeName);
        assert_eq!(
            err.message,
            "You can specify the DeduplicationScope only when FifoQueue is set to true."
        );
        let err = attrs
            .apply(&map(&[("FifoQueue", "false")]), true)
            .unwrap_err();
        assert_eq!(err.message, "Unknown Attribute FifoQueue.");
    }

    #[test]
    fn difference_names_the_changed_attribute() {
        let attrs = QueueAttributes::new(false);
        assert_eq!(
            attrs.first_difference(&map(&[("VisibilityTimeout", "30")])),
            None
        );
        assert_eq!(
            attrs
                .first_difference(&map(&[("VisibilityTimeout", "31")]))
                .as_deref(),
            Some("VisibilityTimeout")
        );
    }
}
