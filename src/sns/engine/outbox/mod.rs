//! What leaves sqslite other than into a queue, as plain data: the HTTP/S POSTs waiting for
//! their (next) attempt, ordered by when it is due on the server's clock, and the records
//! of deliveries sqslite cannot make (email, SMS, push, Lambda, Firehose), capped. The
//! ticker takes the due POSTs ([`Outbox::take_due`]); the action layer sends them.

mod flights;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::delivery_policy::RetryPolicy;
use super::Delivery;
use crate::clock::Millis;
pub use flights::Caps;
use flights::Flights;

/// The longest one HTTP/S delivery is retried, from its first attempt: SNS's hard limit on
/// a delivery policy's total retry time ("cannot be greater than 3,600 seconds"), so a
/// subscription's policy cannot hold its deliveries' bytes for days.
pub const MAX_RETRY_MILLIS: Millis = 3_600_000;

/// The records kept for `GET /_sqslite/sns/deliveries`; older ones are dropped first.
pub const MAX_RECORDS: usize = 1000;

/// The payload bytes the records keep at most, older ones dropped first: a count alone let
/// a thousand 256 KB payloads hold a quarter of a gigabyte, all of it answered in one read.
pub const MAX_RECORD_BYTES: usize = 8 << 20;

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
    /// The request body: the signed JSON envelope, or the bare message when raw (shared with
    /// its dead-letter delivery).
    pub body: Arc<str>,
    /// The subscription's effective retry policy.
    pub retry: RetryPolicy,
    /// Retries made so far (0 before the first attempt).
    pub retries: u64,
    /// When its first attempt was made: retries end [`MAX_RETRY_MILLIS`] after it.
    pub since: Option<Millis>,
    /// A notification's delivery (`None` for a confirmation): counted as failed once its
    /// retries are spent, and sent to the subscription's dead-letter queue if it has one.
    pub dead_letter: Option<Delivery>,
}

impl Post {
    /// The account whose topic sends it, whose share of the outbox it uses.
    pub fn account(&self) -> &str {
        super::topic_account(&self.topic_arn)
    }
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
    /// Exactly what would be sent (shared with the other deliveries of the same text).
    pub payload: Arc<str>,
    /// When it was recorded, on the server's clock.
    pub at: Millis,
}

/// HTTP/S deliveries waiting for their time, and the recorded ones, for the ticker and the admin API.
#[derive(Debug, Default)]
pub struct Outbox {
    /// Posts by due time, then by arrival, with the bytes they hold.
    due: Mutex<Due>,
    /// Arrival order, to keep posts due at one instant in order.
    seq: AtomicU64,
    /// The latest recorded deliveries, oldest first.
    records: Mutex<Records>,
    /// The POSTs under way, in total and by endpoint.
    flights: Arc<Mutex<Flights>>,
}

/// The waiting POSTs and what they hold.
#[derive(Debug, Default)]
struct Due {
    /// By due time, then by arrival.
    posts: BTreeMap<(Millis, u64), Post>,
    /// Body bytes waiting, in total.
    bytes: usize,
    /// Body bytes waiting, by subscription ARN.
    by_subscription: HashMap<String, usize>,
    /// Body bytes waiting, by the account whose topic sends them.
    by_account: HashMap<String, usize>,
}

/// The latest recorded deliveries and the payload bytes they hold.
#[derive(Debug, Default)]
struct Records {
    /// Oldest first.
    list: VecDeque<Record>,
    /// Their payloads' bytes.
    bytes: usize,
}

/// Locks `m`, also after a panic elsewhere (the data stays whole).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Outbox {
    /// Queues `post` for an attempt at `at` (now, for a first attempt); gives it back when
    /// the bytes waiting, in total or for its subscription, would pass `caps`.
    pub fn schedule(&self, at: Millis, post: Post, caps: &Caps) -> Result<(), Box<Post>> {
        let size = post.body.len();
        let mut due = lock(&self.due);
        let held = |counts: &HashMap<String, usize>, key: &str| {
            counts.get(key).copied().unwrap_or(0) + size
        };
        if due.bytes + size > caps.waiting_bytes
            || held(&due.by_subscription, &post.subscription_arn) > caps.subscription_bytes
            || held(&due.by_account, post.account()) > caps.account_bytes
        {
            return Err(Box::new(post));
        }
        due.bytes += size;
        *due.by_subscription
            .entry(post.subscription_arn.clone())
            .or_default() += size;
        *due.by_account.entry(post.account().to_owned()).or_default() += size;
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        due.posts.insert((at, seq), post);
        Ok(())
    }

    /// POSTs waiting for an attempt, the bytes they hold, and POSTs under way.
    pub fn waiting(&self) -> (usize, usize, usize) {
        let due = lock(&self.due);
        (due.posts.len(), due.bytes, lock(&self.flights).total)
    }

    /// Keeps a delivery for `/_sqslite/sns/deliveries`, dropping the oldest past the caps
    /// (a payload larger than every cap is kept alone).
    pub fn record(&self, record: Record) {
        let mut records = lock(&self.records);
        records.bytes += record.payload.len();
        records.list.push_back(record);
        while records.list.len() > MAX_RECORDS
            || (records.bytes > MAX_RECORD_BYTES && records.list.len() > 1)
        {
            if let Some(old) = records.list.pop_front() {
                records.bytes -= old.payload.len();
            }
        }
    }

    /// The records, oldest first.
    pub fn records(&self) -> Vec<Record> {
        lock(&self.records).list.iter().cloned().collect()
    }

    /// Forgets everything waiting and recorded (the admin reset).
    pub fn clear(&self) {
        *lock(&self.due) = Due::default();
        *lock(&self.records) = Records::default();
        lock(&self.flights).paced.clear();
    }
}

impl Due {
    /// Stops counting a post's bytes (it left to be sent).
    fn release(&mut self, post: &Post) {
        let size = post.body.len();
        self.bytes = self.bytes.saturating_sub(size);
        for (counts, key) in [
            (&mut self.by_subscription, post.subscription_arn.as_str()),
            (&mut self.by_account, post.account()),
        ] {
            if let Some(n) = counts.get_mut(key) {
                *n = n.saturating_sub(size);
                if *n == 0 {
                    counts.remove(key);
                }
            }
        }
    }
}
