//! Bucket notifications: a configuration's destinations checked before it is set (each must
//! exist and take S3's messages, else the whole configuration is refused, naming each that
//! failed), each queue and topic sent an `s3:TestEvent` once it is, and every event a rule
//! names sent to its destination ([`destinations`]) as the `s3.amazonaws.com` service acting
//! for the bucket (aws:SourceArn, aws:SourceAccount), whom the queue's or topic's Policy must
//! allow, as SNS's deliveries are. A destination that refuses or is gone loses the event, as
//! S3's would: counted, kept among the recent deliveries ([`deliveries`]) and logged.

pub mod deliveries;
pub mod destinations;
pub mod record;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use s3s::{S3Error, S3ErrorCode};

use super::engine::notifications::{Destination, Rule};
use super::engine::Bucket;
use crate::clock::Millis;
use deliveries::{Deliveries, Delivery};
use destinations::Destinations;
use record::{Event, Origin};

/// S3's refusal of a configuration: its message, and each destination with why (the error
/// document's `ArgumentName1`, `ArgumentValue1`…).
pub const UNVALIDATED: &str = "Unable to validate the following destination configurations";

/// The header that carries one refused destination from an operation to the error document
/// ([`crate::s3::wire::response`] moves it into the body): `ARN`, a tab, why.
pub const ARGUMENT_HEADER: &str = "x-sqslite-s3-argument";

/// What sends a bucket's events.
pub struct Notifier {
    /// Where they go.
    pub destinations: Destinations,
    /// What became of them.
    pub deliveries: Arc<Deliveries>,
    /// The next event's sequencer.
    sequencer: AtomicU64,
}

/// The refusal naming each destination in `refused` with why.
fn unvalidated(refused: &[(&str, String)]) -> S3Error {
    let mut e = S3Error::with_message(S3ErrorCode::InvalidArgument, UNVALIDATED);
    e.set_status_code(hyper::StatusCode::BAD_REQUEST);
    let mut headers = hyper::HeaderMap::new();
    for (arn, why) in refused {
        if let Ok(value) = hyper::header::HeaderValue::from_str(&format!("{arn}\t{why}")) {
            headers.append(ARGUMENT_HEADER, value);
        }
    }
    e.set_headers(headers);
    e
}

impl Notifier {
    /// A notifier into `destinations`.
    pub fn new(destinations: Destinations) -> Notifier {
        Notifier {
            destinations,
            deliveries: Arc::default(),
            sequencer: AtomicU64::new(1),
        }
    }

    /// Whether every destination of `rules` can take `bucket`'s events now.
    pub fn check(&self, bucket: &Bucket, rules: &[Rule], now: Millis) -> Result<(), S3Error> {
        let mut refused: Vec<(&str, String)> = Vec::new();
        for rule in rules {
            let arn = rule.destination.arn();
            if refused.iter().any(|(a, _)| *a == arn) {
                continue;
            }
            if let Some(why) = self.destinations.refusal(&rule.destination, bucket, now) {
                refused.push((arn, why));
            }
        }
        if refused.is_empty() {
            Ok(())
        } else {
            Err(unvalidated(&refused))
        }
    }

    /// Sends each queue and topic of `rules` the `s3:TestEvent` S3 sends when it is
    /// configured (a function gets none).
    pub fn test(&self, bucket: &Bucket, rules: &[Rule], request_id: &str, now: Millis) {
        let message = record::test_event(&bucket.name, request_id, now);
        let mut sent: Vec<&str> = Vec::new();
        for rule in rules {
            let arn = rule.destination.arn();
            if matches!(rule.destination, Destination::Function(_)) || sent.contains(&arn) {
                continue;
            }
            sent.push(arn);
            let delivery = Delivery {
                at: now,
                bucket: bucket.name.clone(),
                event: "s3:TestEvent".into(),
                key: None,
                destination: arn.to_owned(),
                failure: None,
            };
            let to = (&rule.destination, bucket);
            self.destinations
                .send(to, message.clone(), delivery, &self.deliveries);
        }
    }

    /// Sends `event` to each destination whose rule of `bucket` names it.
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
            let delivery = Delivery {
                at: event.time,
                bucket: bucket.name.clone(),
                event: event.name.to_owned(),
                key: Some(event.key.to_owned()),
                destination: rule.destination.arn().to_owned(),
                failure: None,
            };
            let message = record::message(event, &origin);
            let to = (&rule.destination, bucket);
            self.destinations
                .send(to, message, delivery, &self.deliveries);
        }
    }
}
