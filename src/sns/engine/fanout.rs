//! The deliveries of one publish, made a chunk at a time. A publish to thousands of
//! subscriptions would otherwise build every body (a signed envelope per subscription, a
//! Lambda event around it) before the first is handed over: a 250 KB message to 4,000
//! subscriptions held a gigabyte. Here the publish keeps one text per distinct message (and
//! its signature, made once), and the bodies of at most [`CHUNK`] deliveries exist at once.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

use super::envelope::{self, Origin};
use super::publish::{Delivery, Publication};
use super::{Subscription, Topic};
use crate::clock::Millis;
use crate::sns::error::SnsResult;

/// Deliveries built and handed over at once: enough to keep the signing and sending
/// batched, few enough that their bodies stay a few megabytes at SNS's largest message.
pub const CHUNK: usize = 16;

/// One distinct message text of a publish, shared by the deliveries that carry it.
#[derive(Debug)]
struct Text {
    /// The text for the subscriptions' protocol (MessageStructure `json` gives several).
    message: Arc<str>,
    /// Its notification's signature, which no per-subscription field enters: made once.
    signature: OnceCell<String>,
}

/// Where `message` is among `texts`, added when it is new.
fn text_index(texts: &mut Vec<Text>, message: String) -> usize {
    if let Some(i) = texts.iter().position(|t| *t.message == *message) {
        return i;
    }
    texts.push(Text {
        message: Arc::from(message),
        signature: OnceCell::new(),
    });
    texts.len() - 1
}

/// What one publish still has to deliver.
#[derive(Debug, Default)]
pub struct Fanout {
    /// `MessageId`.
    message_id: String,
    /// `SequenceNumber`, on FIFO topics.
    sequence_number: Option<String>,
    /// The FIFO deduplication id, for FIFO queues.
    deduplication_id: Option<String>,
    /// The topic as it was when the message was published.
    topic: Option<Topic>,
    /// When it was published, on the server's clock.
    now: Millis,
    /// The distinct texts.
    texts: Vec<Text>,
    /// The subscriptions still to deliver to, each with the index of its text, last first.
    pending: Vec<(Subscription, usize)>,
}

/// The identity a publish gave its message.
pub struct Stamped {
    /// `MessageId`.
    pub message_id: String,
    /// `SequenceNumber`, on FIFO topics.
    pub sequence_number: Option<String>,
    /// The FIFO deduplication id.
    pub deduplication_id: Option<String>,
}

impl Fanout {
    /// The deliveries of `p` to `matching`, each subscription given its protocol's text: one
    /// text per protocol is worked out (a `json` structure is parsed once per protocol, not
    /// per subscription) and kept once per distinct text.
    pub fn new(
        stamped: &Stamped,
        (topic, now): (Topic, Millis),
        matching: Vec<Subscription>,
        p: &Publication,
    ) -> SnsResult<Self> {
        let mut texts: Vec<Text> = Vec::new();
        let mut by_protocol: HashMap<String, usize> = HashMap::new();
        let mut pending = Vec::with_capacity(matching.len());
        for s in matching {
            let index = if let Some(&i) = by_protocol.get(&s.protocol) {
                i
            } else {
                let i = text_index(&mut texts, p.message_for(&s.protocol)?);
                by_protocol.insert(s.protocol.clone(), i);
                i
            };
            pending.push((s, index));
        }
        pending.reverse();
        Ok(Fanout {
            message_id: stamped.message_id.clone(),
            sequence_number: stamped.sequence_number.clone(),
            deduplication_id: stamped.deduplication_id.clone(),
            topic: Some(topic),
            now,
            texts,
            pending,
        })
    }

    /// Whether every delivery was made.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// The next deliveries, at most [`CHUNK`] of them: `p` is the publication it was made of.
    pub fn next_chunk(&mut self, p: &Publication, origin: &Origin<'_>) -> Vec<Delivery> {
        let Some(topic) = &self.topic else {
            return Vec::new();
        };
        let take = self.pending.len().min(CHUNK);
        let chunk = self.pending.split_off(self.pending.len() - take);
        chunk
            .iter()
            .rev()
            .map(|(s, index)| {
                let text = &self.texts[*index];
                let note = envelope::Note {
                    message_id: &self.message_id,
                    topic,
                    subject: p.subject.as_deref(),
                    message: &text.message,
                    attributes: &p.attributes,
                    sequence_number: self.sequence_number.as_deref(),
                    now: self.now,
                    signature: &text.signature,
                };
                let shared = &text.message;
                super::delivery::delivery(
                    s,
                    p,
                    (&note, shared),
                    origin,
                    self.deduplication_id.as_ref(),
                )
            })
            .collect()
    }
}
