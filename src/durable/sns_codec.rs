//! The byte form of SNS's records ([`SnsRecord`]) in the same log and snapshots as the SQS
//! engine's: one tag byte from a range of its own ([`SNS_TAGS`], where SQS's are below 32
//! and the event source mappings' above, in `mapping_codec`),
//! then the fields in `wire`'s form. A directory written before SNS was durable
//! holds none of these tags, so it reads as it always did; a build older than these
//! records refuses such a directory at start ("unknown record type") rather than lose them.
//! A subscription is written with its confirmation and its principal
//! (`SUBSCRIPTION_PRINCIPAL`); one written before it had a principal
//! (`SUBSCRIPTION_CONFIRMATION`) reads as its account root's, and one written before
//! subscriptions could be pending (`SUBSCRIPTION`) reads as confirmed too.

use std::ops::RangeInclusive;

use super::wire::{R, W};
use crate::sns::engine::state::{DedupMeta, SnsRecord, SubscriptionMeta, TopicMeta};
use crate::sns::engine::subscriptions::ConfirmationState;

/// The tags SNS's records may use.
pub const SNS_TAGS: RangeInclusive<u8> = 32..=63;

const TOPIC: u8 = 32;
const TOPIC_DELETED: u8 = 33;
const SUBSCRIPTION_DELETED: u8 = 35;
const DEDUP: u8 = 36;
const CLEARED: u8 = 37;
/// A subscription with its confirmation state after the fields of [`SUBSCRIPTION`]. Read,
/// never written since [`SUBSCRIPTION_PRINCIPAL`].
const SUBSCRIPTION_CONFIRMATION: u8 = 38;
/// A subscription as [`SUBSCRIPTION_CONFIRMATION`] has it, then its SubscriptionPrincipal.
const SUBSCRIPTION_PRINCIPAL: u8 = 39;
/// The subscription of the first durable SNS records, without a confirmation: only `sqs`
/// subscriptions existed then, confirmed (and authenticated) at once. Read, never written.
const SUBSCRIPTION: u8 = 34;

/// Whether the record is one of SNS's (its tag is in SNS's range).
pub fn is_sns(bytes: &[u8]) -> bool {
    bytes.first().is_some_and(|tag| SNS_TAGS.contains(tag))
}

/// Appends the bytes of `r` to `out`.
pub fn encode(r: &SnsRecord, out: &mut Vec<u8>) {
    let mut w = W(out);
    match r {
        SnsRecord::Topic(t) => {
            w.u8(TOPIC);
            w.str(&t.arn);
            w.str(&t.name);
            w.str(&t.owner);
            w.u8(u8::from(t.fifo));
            w.map(&t.attributes);
            w.map(&t.tags);
            w.u64(t.sequence);
            w.u64(t.subscriptions_deleted);
        }
        SnsRecord::TopicDeleted { arn } => {
            w.u8(TOPIC_DELETED);
            w.str(arn);
        }
        SnsRecord::Subscription(s) => {
            w.u8(SUBSCRIPTION_PRINCIPAL);
            for field in [&s.arn, &s.topic_arn, &s.owner, &s.protocol, &s.endpoint] {
                w.str(field);
            }
            w.map(&s.attributes);
            let c = &s.confirmation;
            w.u8(u8::from(c.pending));
            w.opt_str(c.token.as_ref().map(|(token, _)| token.as_str()));
            w.u64(c.token.as_ref().map_or(0, |(_, issued)| *issued));
            w.u8(u8::from(c.authenticated));
            w.u8(u8::from(c.authenticate_on_unsubscribe));
            w.str(&s.principal);
        }
        SnsRecord::SubscriptionDeleted { arn } => {
            w.u8(SUBSCRIPTION_DELETED);
            w.str(arn);
        }
        SnsRecord::Dedup(d) => {
            w.u8(DEDUP);
            w.str(&d.topic_arn);
            w.str(&d.id);
            w.u64(d.until);
            w.str(&d.message_id);
            w.str(&d.sequence_number);
            w.u64(d.sequence);
        }
        SnsRecord::Cleared => w.u8(CLEARED),
    }
}

/// Reads one record back.
pub fn decode(bytes: &[u8]) -> Result<SnsRecord, String> {
    let mut r = R(bytes);
    let record = match r.u8()? {
        TOPIC => SnsRecord::Topic(TopicMeta {
            arn: r.string()?,
            name: r.string()?,
            owner: r.string()?,
            fifo: r.u8()? == 1,
            attributes: r.map()?,
            tags: r.map()?,
            sequence: r.u64()?,
            subscriptions_deleted: r.u64()?,
        }),
        TOPIC_DELETED => SnsRecord::TopicDeleted { arn: r.string()? },
        tag @ (SUBSCRIPTION | SUBSCRIPTION_CONFIRMATION | SUBSCRIPTION_PRINCIPAL) => {
            let (arn, topic_arn, owner) = (r.string()?, r.string()?, r.string()?);
            let mut meta = SubscriptionMeta {
                arn,
                topic_arn,
                principal: format!("arn:aws:iam::{owner}:root"),
                owner,
                protocol: r.string()?,
                endpoint: r.string()?,
                attributes: r.map()?,
                confirmation: ConfirmationState {
                    authenticated: true,
                    ..ConfirmationState::default()
                },
            };
            if tag != SUBSCRIPTION {
                meta.confirmation = confirmation(&mut r)?;
            }
            if tag == SUBSCRIPTION_PRINCIPAL {
                meta.principal = r.string()?;
            }
            SnsRecord::Subscription(meta)
        }
        SUBSCRIPTION_DELETED => SnsRecord::SubscriptionDeleted { arn: r.string()? },
        DEDUP => SnsRecord::Dedup(DedupMeta {
            topic_arn: r.string()?,
            id: r.string()?,
            until: r.u64()?,
            message_id: r.string()?,
            sequence_number: r.string()?,
            sequence: r.u64()?,
        }),
        CLEARED => SnsRecord::Cleared,
        tag => return Err(format!("unknown SNS record type {tag}")),
    };
    if !r.0.is_empty() {
        return Err(format!("{} unexpected bytes after a record", r.0.len()));
    }
    Ok(record)
}

fn confirmation(r: &mut R<'_>) -> Result<ConfirmationState, String> {
    let pending = r.u8()? == 1;
    let token = r.opt_string()?;
    let issued = r.u64()?;
    Ok(ConfirmationState {
        pending,
        token: token.map(|t| (t, issued)),
        authenticated: r.u8()? == 1,
        authenticate_on_unsubscribe: r.u8()? == 1,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn round_trip(r: &SnsRecord) {
        let mut bytes = Vec::new();
        encode(r, &mut bytes);
        assert!(is_sns(&bytes));
        assert_eq!(&decode(&bytes).unwrap(), r);
        // Every prefix of a record is refused, never misread.
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "prefix of {cut} bytes");
        }
    }

    #[test]
    fn every_record_reads_back_as_written() {
        let attrs: BTreeMap<String, String> = [("DisplayName".into(), "Orders é".into())].into();
        round_trip(&SnsRecord::Topic(TopicMeta {
            arn: "arn:aws:sns:us-east-1:000000000000:orders.fifo".into(),
            name: "orders.fifo".into(),
            owner: "000000000000".into(),
            fifo: true,
            attributes: attrs.clone(),
            tags: [("team".into(), "payments".into())].into(),
            sequence: 7,
            subscriptions_deleted: 2,
        }));
        round_trip(&SnsRecord::TopicDeleted { arn: "a".into() });
        round_trip(&SnsRecord::Subscription(SubscriptionMeta {
            arn: "arn:aws:sns:us-east-1:000000000000:orders:1".into(),
            topic_arn: "arn:aws:sns:us-east-1:000000000000:orders".into(),
            owner: "000000000000".into(),
            principal: "arn:aws:iam::000000000000:user/ops".into(),
            protocol: "sqs".into(),
            endpoint: "arn:aws:sqs:us-east-1:000000000000:audit".into(),
            attributes: attrs.clone(),
            confirmation: ConfirmationState {
                authenticated: true,
                ..ConfirmationState::default()
            },
        }));
        round_trip(&SnsRecord::Subscription(SubscriptionMeta {
            arn: "arn:aws:sns:us-east-1:000000000000:orders:2".into(),
            topic_arn: "arn:aws:sns:us-east-1:000000000000:orders".into(),
            owner: "000000000000".into(),
            principal: "arn:aws:iam::000000000000:root".into(),
            protocol: "http".into(),
            endpoint: "http://localhost:9/hook".into(),
            attributes: attrs,
            confirmation: ConfirmationState {
                pending: true,
                token: Some(("2336412f37fb687f".into(), 86_400_000)),
                authenticated: false,
                authenticate_on_unsubscribe: true,
            },
        }));
        round_trip(&SnsRecord::SubscriptionDeleted { arn: "s".into() });
        round_trip(&SnsRecord::Dedup(DedupMeta {
            topic_arn: "t".into(),
            id: "d-1".into(),
            until: 300_000,
            message_id: "m".into(),
            sequence_number: "10000000000000000001".into(),
            sequence: 1,
        }));
        round_trip(&SnsRecord::Cleared);
    }

    #[test]
    fn a_subscription_written_before_confirmations_reads_as_confirmed() {
        let mut bytes = Vec::new();
        let mut w = W(&mut bytes);
        w.u8(SUBSCRIPTION);
        for field in [
            "arn:aws:sns:us-east-1:000000000000:t:1",
            "arn:aws:sns:us-east-1:000000000000:t",
        ] {
            w.str(field);
        }
        for field in [
            "000000000000",
            "sqs",
            "arn:aws:sqs:us-east-1:000000000000:q",
        ] {
            w.str(field);
        }
        w.map(&BTreeMap::new());
        let Ok(SnsRecord::Subscription(meta)) = decode(&bytes) else {
            panic!("not read as a subscription");
        };
        assert_eq!(meta.protocol, "sqs");
        assert!(!meta.confirmation.pending);
        assert!(meta.confirmation.authenticated);
        assert_eq!(meta.confirmation.token, None);
    }

    #[test]
    fn sqs_records_are_not_taken_for_sns_ones() {
        let mut bytes = Vec::new();
        crate::durable::codec::encode(
            &crate::sqs::engine::mutation::Mutation::MoveTasksCleared,
            &mut bytes,
        );
        assert!(!is_sns(&bytes));
        assert!(!is_sns(&[]));
    }
}
