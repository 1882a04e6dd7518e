//! Bucket notifications into SQS queues: a configuration's queues checked before it is set
//! (each must exist and take S3's messages), each sent an `s3:TestEvent` once it is, and every
//! event a rule names sent to its queue through the SQS engine's own send, as the
//! `s3.amazonaws.com` service acting for the bucket (aws:SourceArn, aws:SourceAccount), whom
//! the queue's Policy must allow, as SNS's deliveries are. A queue that refuses or is gone
//! loses the event, as S3's would, and the log says so.

pub mod record;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

use s3s::{S3Error, S3ErrorCode};

use super::engine::notifications::{Destination, Rule};
use super::engine::Bucket;
use crate::clock::Millis;
use crate::sqs::actions::Sqs;
use crate::sqs::engine::message::NewMessage;
use crate::sqs::engine::queue::Queue;
use record::{Event, Origin};

/// The service principal S3's deliveries act as.
const S3_PRINCIPAL: &str = "s3.amazonaws.com";

/// The SenderId of S3's messages [unverified: one fixed id, as AWS's is S3's own].
static S3_SENDER: LazyLock<Arc<str>> = LazyLock::new(|| Arc::from("AIDAJQOC3SADRY5PEMBNW"));

/// What sends a bucket's events.
pub struct Notifier {
    /// The queues events go into.
    pub sqs: Arc<Sqs>,
    /// AWS's rule for a queue without a Policy in the bucket's own account: refused.
    pub strict: bool,
    /// The next event's sequencer.
    sequencer: AtomicU64,
}

/// Why a destination cannot take a bucket's events, as S3's refusal names it.
fn unable(arn: &str, why: &str) -> S3Error {
    let mut e = S3Error::with_message(
        S3ErrorCode::InvalidArgument,
        format!("Unable to validate the following destination configurations: {arn}: {why}"),
    );
    e.set_status_code(hyper::StatusCode::BAD_REQUEST);
    e
}

impl Notifier {
    /// A notifier into `sqs`'s queues.
    pub fn new(sqs: Arc<Sqs>, strict: bool) -> Notifier {
        Notifier {
            sqs,
            strict,
            sequencer: AtomicU64::new(1),
        }
    }

    /// Whether every destination of `rules` can take `bucket`'s events now.
    pub fn check(&self, bucket: &Bucket, rules: &[Rule], now: Millis) -> Result<(), S3Error> {
        for rule in rules {
            let Destination::Queue(arn) = &rule.destination else {
                return Err(S3Error::with_message(
                    S3ErrorCode::NotImplemented,
                    "sqslite sends bucket notifications to SQS queues; topic and function \
                     destinations are not served yet",
                ));
            };
            let queue = self
                .sqs
                .registry
                .get_by_arn(arn)
                .ok_or_else(|| unable(arn, "The destination queue does not exist"))?;
            if queue.fifo {
                return Err(unable(arn, "FIFO queues are not supported as destinations"));
            }
            if !self.admitted(&queue, bucket, now) {
                return Err(unable(
                    arn,
                    "Permissions on the destination queue do not allow S3 to publish \
                     notifications from this bucket",
                ));
            }
        }
        Ok(())
    }

    /// Whether the queue takes `bucket`'s events: its Policy allows `s3.amazonaws.com` to send
    /// for the bucket. One test-friendly difference, as for SNS's topics: a queue with no
    /// Policy at all takes its own account's buckets, unless `--strict`.
    fn admitted(&self, queue: &Queue, bucket: &Bucket, now: Millis) -> bool {
        let arn = format!("arn:aws:s3:::{}", bucket.name);
        let caller = crate::policy::Caller {
            account: &bucket.owner,
            arn: &arn,
        };
        let request = crate::policy::Request::direct(caller, "SendMessage", now)
            .by_service(S3_PRINCIPAL)
            .on_behalf_of(&arn, &bucket.owner);
        if queue.admits(&request) == crate::policy::Decision::Allow {
            return true;
        }
        !self.strict && queue.policy().is_none() && queue.key.account == bucket.owner
    }

    /// Sends each queue of `rules` the `s3:TestEvent` S3 sends when it is configured.
    pub fn test(&self, bucket: &Bucket, rules: &[Rule], request_id: &str, now: Millis) {
        let message = record::test_event(&bucket.name, request_id, now);
        let mut sent: Vec<&str> = Vec::new();
        for rule in rules {
            let arn = rule.destination.arn();
            if !sent.contains(&arn) {
                sent.push(arn);
                self.send(bucket, arn, message.clone(), now);
            }
        }
    }

    /// Sends `event` to each queue whose rule of `bucket` names it.
    pub fn emit(&self, bucket: &Bucket, event: &Event<'_>) {
        let Ok(rules) = bucket.notifications() else {
            return;
        };
        for rule in rules.iter().filter(|r| r.matches(event.name, event.key)) {
            let origin = Origin {
                bucket: &bucket.name,
                owner: &bucket.owner,
                rule: &rule.id,
                sequencer: self.sequencer.fetch_add(1, Ordering::Relaxed),
            };
            let message = record::message(event, &origin);
            self.send(bucket, rule.destination.arn(), message, event.time);
        }
    }

    /// Into the queue `arn` through SQS's own send, once it admits the bucket.
    fn send(&self, bucket: &Bucket, arn: &str, body: String, now: Millis) {
        let Some(queue) = self.sqs.registry.get_by_arn(arn) else {
            tracing::warn!(bucket = %bucket.name, queue = %arn, "bucket notification lost: the queue does not exist");
            return;
        };
        if !self.admitted(&queue, bucket, now) {
            tracing::warn!(bucket = %bucket.name, queue = %arn, "bucket notification lost: the queue's Policy does not allow s3.amazonaws.com to send for this bucket");
            return;
        }
        let message = NewMessage {
            body,
            attributes: std::collections::BTreeMap::new(),
            delay_seconds: None,
            trace_header: None,
            group_id: None,
            deduplication_id: None,
            sender_id: S3_SENDER.clone(),
        };
        if let Err(e) = queue.send(message, now) {
            tracing::warn!(bucket = %bucket.name, queue = %arn, reason = %e.message, "bucket notification lost");
        }
    }
}
