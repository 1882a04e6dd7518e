//! Typed queue attributes: parsed and validated once from SQS's string map, rendered back on
//! output, each by its row of [`attribute_table`]; the rules that join several attributes
//! (encryption kinds, FIFO throughput) are here.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::policy::Policy;
use crate::sqs::engine::attribute_table;
use crate::sqs::engine::redrive::{RedriveAllowPolicy, RedrivePolicy};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

/// The settable attributes of a queue, with SQS's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueAttributes {
    /// DelaySeconds: 0 to 900 seconds new messages stay hidden (0).
    pub delay_seconds: u32,
    /// MaximumMessageSize: 1,024 to 1,048,576 bytes (1,048,576).
    pub maximum_message_size: u32,
    /// MessageRetentionPeriod: 60 to 1,209,600 seconds (345,600, four days).
    pub message_retention_period: u32,
    /// ReceiveMessageWaitTimeSeconds: 0 to 20 seconds of long polling by default (0).
    pub receive_message_wait_time_seconds: u32,
    /// VisibilityTimeout: 0 to 43,200 seconds a received message stays hidden (30).
    pub visibility_timeout: u32,
    /// Parsed once when set; shared, so a clone of the attributes copies a pointer.
    pub policy: Option<Arc<Policy>>,
    /// RedrivePolicy: where messages go after maxReceiveCount receives.
    pub redrive_policy: Option<RedrivePolicy>,
    /// RedriveAllowPolicy: which source queues may use this one as their dead-letter queue.
    pub redrive_allow_policy: Option<RedriveAllowPolicy>,
    /// KmsMasterKeyId: stored and returned; sqslite encrypts nothing.
    pub kms_master_key_id: Option<String>,
    /// KmsDataKeyReusePeriodSeconds: 60 to 86,400, stored and returned.
    pub kms_data_key_reuse_period_seconds: Option<u32>,
    /// SqsManagedSseEnabled: stored and returned.
    pub sqs_managed_sse_enabled: bool,
    /// FifoQueue: set at creation only, with a `.fifo` name.
    pub fifo_queue: bool,
    /// ContentBasedDeduplication: FIFO deduplication ids from the body's SHA-256.
    pub content_based_deduplication: bool,
    /// DeduplicationScope: the queue or each message group.
    pub deduplication_scope: DeduplicationScope,
    /// FifoThroughputLimit: per queue or per message group.
    pub fifo_throughput_limit: ThroughputLimit,
}

/// A FIFO queue's DeduplicationScope: which sends share a deduplication window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeduplicationScope {
    /// `queue`: one deduplication window for the queue.
    Queue,
    /// `messageGroup`: one window per message group.
    MessageGroup,
}

impl DeduplicationScope {
    /// The scope SQS's string names (case-sensitive); `None` is an invalid value.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "queue" => Some(DeduplicationScope::Queue),
            "messageGroup" => Some(DeduplicationScope::MessageGroup),
            _ => None,
        }
    }

    /// The scope in SQS's string form, for GetQueueAttributes.
    pub fn as_str(self) -> &'static str {
        match self {
            DeduplicationScope::Queue => "queue",
            DeduplicationScope::MessageGroup => "messageGroup",
        }
    }
}

/// A FIFO queue's FifoThroughputLimit: whether throughput is counted per queue or per group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThroughputLimit {
    /// `perQueue`.
    PerQueue,
    /// `perMessageGroupId` (high throughput; needs the messageGroup scope).
    PerMessageGroupId,
}

impl ThroughputLimit {
    /// The limit SQS's string names (case-sensitive); `None` is an invalid value.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "perQueue" => Some(ThroughputLimit::PerQueue),
            "perMessageGroupId" => Some(ThroughputLimit::PerMessageGroupId),
            _ => None,
        }
    }

    /// The limit in SQS's string form, for GetQueueAttributes.
    pub fn as_str(self) -> &'static str {
        match self {
            ThroughputLimit::PerQueue => "perQueue",
            ThroughputLimit::PerMessageGroupId => "perMessageGroupId",
        }
    }
}

impl QueueAttributes {
    /// A new queue's attributes: each row's default from [`attribute_table`].
    pub fn new(fifo: bool) -> Self {
        let mut a = QueueAttributes {
            delay_seconds: 0,
            maximum_message_size: 0,
            message_retention_period: 0,
            receive_message_wait_time_seconds: 0,
            visibility_timeout: 0,
            policy: None,
            redrive_policy: None,
            redrive_allow_policy: None,
            kms_master_key_id: None,
            kms_data_key_reuse_period_seconds: None,
            sqs_managed_sse_enabled: false,
            fifo_queue: fifo,
            content_based_deduplication: false,
            deduplication_scope: DeduplicationScope::Queue,
            fifo_throughput_limit: ThroughputLimit::PerQueue,
        };
        attribute_table::apply_defaults(&mut a);
        a
    }

    /// Applies a CreateQueue/SetQueueAttributes map; `creating` words a type mismatch as a
    /// bad value rather than a change of type.
    /// Either every attribute applies or none does.
    pub fn apply(&mut self, map: &BTreeMap<String, String>, creating: bool) -> SqsResult<()> {
        let mut next = self.clone();
        for (name, value) in map {
            attribute_table::set(&mut next, name, value, creating)?;
        }
        next.settle_encryption(map)?;
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

    /// The two kinds of server-side encryption exclude each other. Asking for both in one call
    /// is refused [aws-recorded]; a KMS key set on a queue whose SQS-managed SSE is on (by
    /// default or as set before) turns SQS-managed SSE off [aws-recorded: SetQueueAttributes
    /// with KmsMasterKeyId then shows SqsManagedSseEnabled=false]; SqsManagedSseEnabled=true
    /// set alone on a KMS queue drops the key [unverified: the mirror case]. Clearing the key
    /// clears its reuse period too, even one set in the same call [aws-recorded].
    fn settle_encryption(&mut self, map: &BTreeMap<String, String>) -> SqsResult<()> {
        let asks_kms = map.get("KmsMasterKeyId").is_some_and(|k| !k.is_empty());
        let asks_sqs = map
            .get("SqsManagedSseEnabled")
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
        if asks_kms && asks_sqs {
            return Err(SqsError::new(
                ErrorKind::InvalidAttributeName,
                "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.",
            ));
        }
        let clears_kms = map.get("KmsMasterKeyId").is_some_and(String::is_empty);
        if asks_kms {
            self.sqs_managed_sse_enabled = false;
        } else if asks_sqs && self.kms_master_key_id.is_some() || clears_kms {
            self.kms_master_key_id = None;
            self.kms_data_key_reuse_period_seconds = None;
        }
        Ok(())
    }

    /// The stored (non-computed) attributes in SQS's string form.
    pub fn render(&self) -> Vec<(&'static str, String)> {
        attribute_table::render(self)
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
