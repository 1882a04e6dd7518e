//! The three kinds of destination a bucket's rules send to, each reached through its own
//! service's operations: an SQS queue through the SQS engine's send, an SNS topic through
//! SNS's publish for a service, a declared function through the triggers' invoke (S3 invokes
//! asynchronously: the upload never waits for the function). Each is checked as S3 checks it
//! before a configuration is set, and again at each event.

use std::sync::{Arc, LazyLock};

use super::deliveries::{Deliveries, Delivery};
use crate::clock::Millis;
use crate::s3::engine::notifications::Destination;
use crate::s3::engine::Bucket;
use crate::sns::actions::by_service::{self, Refused};
use crate::sqs::actions::Sqs;
use crate::sqs::engine::message::NewMessage;

/// The service principal S3's deliveries act as.
pub const S3_PRINCIPAL: &str = "s3.amazonaws.com";

/// The SenderId of S3's messages [unverified: one fixed id, as AWS's is S3's own].
static S3_SENDER: LazyLock<Arc<str>> = LazyLock::new(|| Arc::from("AIDAJQOC3SADRY5PEMBNW"));

/// The Subject of S3's messages to a topic.
const SUBJECT: &str = "Amazon S3 Notification";

/// Why a topic refused, in S3's words.
fn topic_refusal(refused: Refused) -> String {
    match refused {
        Refused::Missing => "The destination topic does not exist".into(),
        Refused::Fifo => "FIFO topics are not supported as destinations".into(),
        Refused::Denied => "Permissions on the destination topic do not allow S3 to publish \
                            notifications from this bucket"
            .into(),
        Refused::Failed(why) => why,
    }
}

/// The services a bucket's events go into.
pub struct Destinations {
    /// The queues, through SQS's own send.
    pub sqs: Arc<Sqs>,
    /// The topics, through SNS's publish.
    pub sns: Arc<crate::sns::Service>,
    /// The declared functions, invoked as the triggers invoke them.
    pub triggers: Arc<crate::triggers::Service>,
    /// AWS's rule for a queue or topic without a Policy of its own: it takes no bucket's events.
    pub strict: bool,
}

/// A bucket as the resource S3 acts for: its ARN and owner.
fn source_of(bucket: &Bucket) -> (String, &str) {
    (format!("arn:aws:s3:::{}", bucket.name), &bucket.owner)
}

impl Destinations {
    /// Why `destination` cannot take `bucket`'s events now, in S3's words; `None` if it can.
    pub fn refusal(
        &self,
        destination: &Destination,
        bucket: &Bucket,
        now: Millis,
    ) -> Option<String> {
        match destination {
            Destination::Queue(arn) => self.queue_refusal(arn, bucket, now),
            Destination::Topic(arn) => self.topic_admits(arn, bucket).err().map(topic_refusal),
            Destination::Function(arn) => match self.function(arn, bucket) {
                Some(_) => None,
                None => Some(format!("Not authorized to invoke function [{arn}]")),
            },
        }
    }

    fn queue_refusal(&self, arn: &str, bucket: &Bucket, now: Millis) -> Option<String> {
        let Some(queue) = self.sqs.registry.get_by_arn(arn) else {
            return Some("The destination queue does not exist".into());
        };
        if queue.fifo {
            return Some("FIFO queues are not supported as destinations".into());
        }
        (!self.queue_admits(&queue, bucket, now)).then(|| {
            "Permissions on the destination queue do not allow S3 to publish notifications \
             from this bucket"
                .into()
        })
    }

    /// Whether the queue's Policy lets `s3.amazonaws.com` send for `bucket`. One
    /// test-friendly difference, as for SNS's deliveries: a queue with no Policy at all takes
    /// its own account's buckets, unless `--strict`.
    fn queue_admits(
        &self,
        queue: &crate::sqs::engine::queue::Queue,
        bucket: &Bucket,
        now: Millis,
    ) -> bool {
        let (arn, owner) = source_of(bucket);
        let caller = crate::policy::Caller {
            account: owner,
            arn: &arn,
        };
        let request = crate::policy::Request::direct(caller, "SendMessage", now)
            .by_service(S3_PRINCIPAL)
            .on_behalf_of(&arn, owner);
        if queue.admits(&request) == crate::policy::Decision::Allow {
            return true;
        }
        !self.strict && queue.policy().is_none() && queue.key.account == bucket.owner
    }

    fn topic_admits(&self, arn: &str, bucket: &Bucket) -> Result<(), Refused> {
        let (source_arn, owner) = source_of(bucket);
        let source = by_service::Source {
            principal: S3_PRINCIPAL,
            arn: &source_arn,
            account: owner,
        };
        by_service::admits(&self.sns, arn, &source, !self.strict)
    }

    /// The declared function `arn` names, in the bucket's region and account, if the bucket's
    /// account may invoke it.
    fn function(&self, arn: &str, bucket: &Bucket) -> Option<crate::triggers::Function> {
        let functions = &self.triggers.model.functions;
        functions
            .resolve(arn, &bucket.region, &bucket.owner)
            .filter(|f| f.usable_by(&bucket.owner))
            .cloned()
    }

    /// Sends `message` to `delivery`'s destination and records how it went (a function's
    /// once its invocation ends).
    pub fn send(
        &self,
        (destination, bucket): (&Destination, &Bucket),
        message: String,
        mut delivery: Delivery,
        log: &Arc<Deliveries>,
    ) {
        let now = delivery.at;
        delivery.failure = match destination {
            Destination::Queue(arn) => self.to_queue(arn, bucket, message, now).err(),
            Destination::Topic(arn) => self.to_topic(arn, bucket, message).err(),
            Destination::Function(arn) => match self.function(arn, bucket) {
                Some(function) => return self.invoke(function, &message, delivery, log),
                None => Some(format!("Not authorized to invoke function [{arn}]")),
            },
        };
        if let Some(why) = &delivery.failure {
            tracing::warn!(bucket = %bucket.name, destination = %delivery.destination, reason = %why, "bucket notification lost");
        }
        log.record(delivery);
    }

    fn to_queue(
        &self,
        arn: &str,
        bucket: &Bucket,
        body: String,
        now: Millis,
    ) -> Result<(), String> {
        if let Some(why) = self.queue_refusal(arn, bucket, now) {
            return Err(why);
        }
        let queue = self
            .sqs
            .registry
            .get_by_arn(arn)
            .ok_or("The destination queue does not exist")?;
        let message = NewMessage {
            body,
            attributes: std::collections::BTreeMap::new(),
            delay_seconds: None,
            trace_header: None,
            group_id: None,
            deduplication_id: None,
            sender_id: S3_SENDER.clone(),
        };
        queue.send(message, now).map(|_| ()).map_err(|e| e.message)
    }

    fn to_topic(&self, arn: &str, bucket: &Bucket, message: String) -> Result<(), String> {
        let (source_arn, owner) = source_of(bucket);
        let source = by_service::Source {
            principal: S3_PRINCIPAL,
            arn: &source_arn,
            account: owner,
        };
        match by_service::publish(&self.sns, arn, &source, !self.strict, (SUBJECT, message)) {
            Ok(_) => Ok(()),
            Err(refused) => Err(topic_refusal(refused)),
        }
    }

    /// Invokes `function` with the event, asynchronously (S3's `Event` invocation): recorded
    /// when it ends.
    fn invoke(
        &self,
        function: crate::triggers::Function,
        message: &str,
        mut delivery: Delivery,
        log: &Arc<Deliveries>,
    ) {
        let event: serde_json::Value = serde_json::from_str(message).unwrap_or_default();
        let outbound = self.triggers.outbound.clone();
        let log = log.clone();
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            delivery.failure = Some("no runtime to invoke the function on".into());
            return log.record(delivery);
        };
        runtime.spawn(async move {
            let outcome = crate::triggers::invoke::invoke(&function, &event, &outbound).await;
            if let crate::triggers::invoke::Outcome::Failed(why) = outcome {
                tracing::warn!(function = %function.name, reason = %why, "bucket notification's invocation failed");
                delivery.failure = Some(why);
            }
            log.record(delivery);
        });
    }
}
