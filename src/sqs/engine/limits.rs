//! Every numeric SQS limit in one place: the ranges the API validates, the defaults a new queue
//! takes, and the counts and sizes requests are held to (values from the SQS API reference and
//! quotas pages, as `shared/protocol/SQS-WIRE-PROTOCOL.md` §8 lists them).

use std::ops::RangeInclusive;

use crate::clock::Millis;

/// A queue's VisibilityTimeout, and the one ReceiveMessage and ChangeMessageVisibility take.
pub const VISIBILITY_TIMEOUT: RangeInclusive<u32> = 0..=43_200;
/// A new queue's VisibilityTimeout in seconds, as in SQS.
pub const DEFAULT_VISIBILITY_TIMEOUT: u32 = 30;
/// A queue's DelaySeconds, and a message's.
pub const DELAY_SECONDS: RangeInclusive<u32> = 0..=900;
/// A queue's MaximumMessageSize in bytes: 1 KiB to 1 MiB.
pub const MAXIMUM_MESSAGE_SIZE: RangeInclusive<u32> = 1024..=1_048_576;
/// A new queue's MaximumMessageSize in bytes: SQS's default is the top of the range.
pub const DEFAULT_MAXIMUM_MESSAGE_SIZE: u32 = 1_048_576;
/// A queue's MessageRetentionPeriod in seconds: one minute to 14 days.
pub const MESSAGE_RETENTION_PERIOD: RangeInclusive<u32> = 60..=1_209_600;
/// A new queue's MessageRetentionPeriod in seconds: four days.
pub const DEFAULT_MESSAGE_RETENTION_PERIOD: u32 = 345_600;
/// A queue's ReceiveMessageWaitTimeSeconds, and ReceiveMessage's WaitTimeSeconds.
pub const WAIT_TIME_SECONDS: RangeInclusive<u32> = 0..=20;
/// A queue's KmsDataKeyReusePeriodSeconds: one minute to 24 hours (stored and reported; sqslite
/// encrypts nothing).
pub const KMS_DATA_KEY_REUSE_PERIOD: RangeInclusive<u32> = 60..=86_400;
/// A new queue's KmsDataKeyReusePeriodSeconds: five minutes.
pub const DEFAULT_KMS_DATA_KEY_REUSE_PERIOD: u32 = 300;
/// ReceiveMessage's MaxNumberOfMessages.
pub const RECEIVE_MESSAGES: RangeInclusive<u32> = 1..=10;
/// Entries in one SendMessageBatch, DeleteMessageBatch or ChangeMessageVisibilityBatch.
pub const BATCH_ENTRIES: usize = 10;
/// The bodies and attributes of one SendMessageBatch together.
pub const BATCH_BYTES: usize = 1_048_576;
/// Message attributes on one message.
pub const MESSAGE_ATTRIBUTES: usize = 10;
/// Tags on one queue.
pub const TAGS: usize = 50;
/// Source queues a RedriveAllowPolicy `byQueue` may name.
pub const REDRIVE_ALLOW_SOURCES: usize = 10;
/// Characters in a queue name, a batch entry Id and an AddPermission Label.
pub const NAME_CHARS: usize = 80;
/// In-flight messages on one queue (received, neither deleted nor visible again).
pub const MAX_IN_FLIGHT: usize = 120_000;
/// How long a FIFO deduplication id, and a ReceiveRequestAttemptId, are remembered.
pub const DEDUPLICATION_WINDOW_MS: Millis = 5 * 60 * 1000;
