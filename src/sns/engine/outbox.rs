//! What leaves sqslite other than into a queue, as plain data: the HTTP/S POSTs waiting for
//! their (next) attempt, ordered by when it is due on the server's clock, and the records
//! of deliveries sqslite cannot make (email, SMS, push, Lambda, Firehose), capped. The
//! ticker takes the due POSTs ([`Outbox::take_due`]); the action layer sends them.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::delivery_policy::RetryPolicy;
use super::Delivery;
use crate::clock::Millis;

/// The records kept for `GET /_sqslite/sns/deliveries`; older ones are dropped first.
pub const MAX_RECORDS: usize = 1000;

/// The three kinds of message SNS sends an endpoint (`x-amz-sns-message-type`, `Type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageType {
    /// A published message (`Type: Notification`).
    Notification,
    /// A new http/s or email subscription's confirmation request.
    SubscriptionConfirmation,
    /// Sent when a subscription is removed.
    UnsubscribeConfirmation,
}

impl MessageType {
    /// SNS's `Type` and `x-amz-sns-message-type` spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageType::Notification => "Notification",
            MessageType::SubscriptionConfirmation => "SubscriptionConfirmation",
            MessageType::UnsubscribeConfirmation => "UnsubscribeConfirmation",
        }
    }
}

/// One message for an HTTP/S endpoint, and how it has fared so far.
#[derive(Debug, Clone)]
pub struct Post {
    /// `x-amz-sns-message-type`: which kind of message this is.
    pub message_type: MessageType,
    /// The endpoint URL it is POSTed to.
    pub url: String,
    /// `x-amz-sns-message-id`.
    pub message_id: String,
    /// `x-amz-sns-topic-arn`.
    pub topic_arn: String,
    /// `x-amz-sns-subscription-arn`.
    pub subscription_arn: String,
    /// RawMessageDelivery: the body is the bare message (`x-amz-sns-rawdelivery: true`).
    pub raw: bool,
    /// `Content-Type`: SNS's `text/plain; charset=UTF-8` unless a delivery policy sets one.
    pub content_type: String,
    /// The request body: the signed JSON envelope, or the bare message when raw.
    pub body: String,
    /// The subscription's effective retry policy.
    pub retry: RetryPolicy,
    /// Retries made so far (0 before the first attempt).
    pub retries: u64,
    /// A notification's delivery (`None` for a confirmation): counted as failed once its
    /// retries are spent, and sent to the subscription's dead-letter queue if it has one.
    pub dead_letter: Option<Delivery>,
}

/// One delivery sqslite recorded instead of sending.
#[derive(Debug, Clone)]
pub struct Record {
    /// `None` for a Publish straight to a phone number or platform endpoint.
    pub subscription_arn: Option<String>,
    /// The protocol it would have gone by (`email`, `sms`, `application`...).
    pub protocol: String,
    /// Where it would have gone.
    pub endpoint: String,
    /// Which kind of message it is.
    pub message_type: MessageType,
    /// The publish's message id.
    pub message_id: String,
    /// Exactly what would be sent.
    pub payload: String,
    /// When it was recorded, on the server's clock.
    pub at: Millis,
}

/// HTTP/S deliveries waiting for their time, and the recorded ones, for the ticker and the admin API.
#[derive(Debug, Default)]
pub struct Outbox {
    /// Posts by due time, then by arrival.
    due: Mutex<BTreeMap<(Millis, u64), Post>>,
    /// Arrival order, to keep posts due at one instant in order.
    seq: AtomicU64,
    /// The latest recorded deliveries, oldest first.
    records: Mutex<VecDeque<Record>>,
}

/// Locks `m`, also after a panic elsewhere (the data stays whole).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Outbox {
    /// Queues `post` for an attempt at `at` (now, for a first attempt).
    pub fn schedule(&self, at: Millis, post: Post) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        lock(&self.due).insert((at, seq), post);
    }

    /// The POSTs due by `now`, and when the next one after them is due.
    pub fn take_due(&self, now: Millis) -> (Vec<Post>, Option<Millis>) {
        let mut due = lock(&self.due);
        let later = due.split_off(&(now.saturating_add(1), 0));
        let ready = std::mem::replace(&mut *due, later);
        let next = due.keys().next().map(|(at, _)| *at);
        (ready.into_values().collect(), next)
    }

    /// POSTs waiting for an attempt.
    pub fn waiting(&self) -> usize {
        lock(&self.due).len()
    }

    /// Keeps a delivery for `/_sqslite/sns/deliveries`, dropping the oldest past the cap.
    pub fn record(&self, record: Record) {
        let mut records = lock(&self.records);
        if records.len() == MAX_RECORDS {
            records.pop_front();
        }
        records.push_back(record);
    }

    /// The records, oldest first.
    pub fn records(&self) -> Vec<Record> {
        lock(&self.records).iter().cloned().collect()
    }

    /// Forgets everything waiting and recorded (the admin reset).
    pub fn clear(&self) {
        lock(&self.due).clear();
        lock(&self.records).clear();
    }
}
