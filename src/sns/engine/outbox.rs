//! What leaves sqslite other than into a queue, as plain data: the HTTP/S POSTs waiting for
//! their (next) attempt, ordered by when it is due on the server's clock, and the records
//! of deliveries sqslite cannot make (email, SMS, push, Lambda, Firehose), capped. The
//! ticker takes the due POSTs ([`Outbox::take_due`]); the action layer sends them.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

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
    /// Posts by due time, then by arrival, with the bytes they hold.
    due: Mutex<Due>,
    /// Arrival order, to keep posts due at one instant in order.
    seq: AtomicU64,
    /// The latest recorded deliveries, oldest first.
    records: Mutex<VecDeque<Record>>,
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
}

/// POSTs under way.
#[derive(Debug, Default)]
struct Flights {
    /// In total.
    total: usize,
    /// By endpoint (scheme, host and port).
    by_endpoint: HashMap<String, usize>,
    /// A throttled subscription's earliest next start, by subscription ARN.
    paced: HashMap<String, Millis>,
}

/// How much outbound work may wait and run at once (sqslite's bounds: SNS documents none).
/// Past the bytes a delivery goes where SNS sends an undeliverable message; past the POSTs
/// under way the rest wait their turn in the outbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// POSTs under way at once: an eighth of the open-file limit, 16 to 256, so outbound
    /// connections never take the descriptors the API needs.
    pub in_flight: usize,
    /// POSTs under way at once to one endpoint (scheme, host and port).
    pub per_endpoint: usize,
    /// Body bytes waiting for an attempt, in total.
    pub waiting_bytes: usize,
    /// Body bytes waiting for an attempt, for one subscription.
    pub subscription_bytes: usize,
}

impl Default for Caps {
    fn default() -> Self {
        let files = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft);
        Caps {
            in_flight: usize::try_from(files / 8).unwrap_or(256).clamp(16, 256),
            per_endpoint: 16,
            waiting_bytes: 64 * 1024 * 1024,
            subscription_bytes: 16 * 1024 * 1024,
        }
    }
}

/// One POST under way: counted until this drops.
#[derive(Debug)]
pub struct Flight {
    /// The outbox's count.
    flights: Arc<Mutex<Flights>>,
    /// The endpoint it counts against.
    endpoint: String,
}

impl Drop for Flight {
    fn drop(&mut self) {
        let mut flights = lock(&self.flights);
        flights.total = flights.total.saturating_sub(1);
        if let Some(n) = flights.by_endpoint.get_mut(&self.endpoint) {
            *n -= 1;
            if *n == 0 {
                flights.by_endpoint.remove(&self.endpoint);
            }
        }
    }
}

/// The scheme, host and port a URL names: what one endpoint is.
fn endpoint(url: &str) -> &str {
    let start = url.find("://").map_or(0, |i| i + 3);
    url[start..]
        .find('/')
        .map_or(url, |end| &url[..start + end])
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
        let mine = due
            .by_subscription
            .get(&post.subscription_arn)
            .copied()
            .unwrap_or(0);
        if due.bytes + size > caps.waiting_bytes || mine + size > caps.subscription_bytes {
            return Err(Box::new(post));
        }
        due.bytes += size;
        *due.by_subscription
            .entry(post.subscription_arn.clone())
            .or_default() += size;
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        due.posts.insert((at, seq), post);
        Ok(())
    }

    /// The POSTs due by `now` that `caps` lets start, each counted under way until its
    /// [`Flight`] drops, and when the next one is due after now (a due POST held back by the
    /// caps is taken when a POST under way ends, which wakes the ticker).
    pub fn take_due(&self, now: Millis, caps: &Caps) -> (Vec<(Post, Flight)>, Option<Millis>) {
        let mut due = lock(&self.due);
        let mut flights = lock(&self.flights);
        flights.paced.retain(|_, at| *at > now);
        let ready: Vec<(Millis, u64)> = due
            .posts
            .range(..=(now, u64::MAX))
            .map(|(k, _)| *k)
            .collect();
        let mut taken = Vec::new();
        // The earliest a due POST held back by its subscription's throttle may start.
        let mut paced_until: Option<Millis> = None;
        for key in ready {
            if flights.total >= caps.in_flight {
                break;
            }
            let post = &due.posts[&key];
            if let Some(&at) = flights.paced.get(&post.subscription_arn) {
                paced_until = Some(paced_until.map_or(at, |p| p.min(at)));
                continue;
            }
            if flights
                .by_endpoint
                .get(endpoint(&post.url))
                .copied()
                .unwrap_or(0)
                >= caps.per_endpoint
            {
                continue;
            }
            let Some(post) = due.posts.remove(&key) else {
                continue;
            };
            due.release(&post);
            taken.push((flights.start(&post, now), post));
        }
        let next = due
            .posts
            .range((now.saturating_add(1), 0)..)
            .next()
            .map(|((at, _), _)| *at);
        let next = match (next, paced_until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let taken = taken
            .into_iter()
            .map(|(endpoint, post)| {
                let flight = Flight {
                    flights: Arc::clone(&self.flights),
                    endpoint,
                };
                (post, flight)
            })
            .collect();
        (taken, next)
    }

    /// POSTs waiting for an attempt, the bytes they hold, and POSTs under way.
    pub fn waiting(&self) -> (usize, usize, usize) {
        let due = lock(&self.due);
        (due.posts.len(), due.bytes, lock(&self.flights).total)
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
        *lock(&self.due) = Due::default();
        lock(&self.records).clear();
        lock(&self.flights).paced.clear();
    }
}

impl Flights {
    /// Counts `post` as under way from `now` (and paces its subscription, if throttled); the
    /// endpoint it counts against.
    fn start(&mut self, post: &Post, now: Millis) -> String {
        let at_endpoint = endpoint(&post.url).to_owned();
        self.total += 1;
        *self.by_endpoint.entry(at_endpoint.clone()).or_default() += 1;
        if let Some(spacing) = post.retry.spacing() {
            self.paced
                .insert(post.subscription_arn.clone(), now.saturating_add(spacing));
        }
        at_endpoint
    }
}

impl Due {
    /// Stops counting a post's bytes (it left to be sent).
    fn release(&mut self, post: &Post) {
        let size = post.body.len();
        self.bytes = self.bytes.saturating_sub(size);
        if let Some(n) = self.by_subscription.get_mut(&post.subscription_arn) {
            *n = n.saturating_sub(size);
            if *n == 0 {
                self.by_subscription.remove(&post.subscription_arn);
            }
        }
    }
}
