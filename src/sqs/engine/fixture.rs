//! The engine's unit-test fixture: a registry, queues made by name (FIFO when the name ends
//! in `.fifo`), messages sent and received, all at the fixture's instant `now`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;
use uuid::Uuid;

use super::arn::QueueKey;
use super::delivery::{Delivered, ReceiveParams};
use super::message::{Message, NewMessage};
use super::queue::{Queue, Sent};
use super::Registry;
use crate::clock::Millis;

/// The key of the fixture's queue `name`: one region and account for all of them.
pub(crate) fn key(name: &str) -> QueueKey {
    QueueKey::new("r", "000000000001", name)
}

/// A message to send: deduplicated by its body when it has a group (a FIFO send).
pub(crate) fn message(body: &str, group: Option<&str>) -> NewMessage {
    NewMessage {
        body: body.to_owned(),
        group_id: group.map(str::to_owned),
        deduplication_id: group.map(|_| body.to_owned()),
        sender_id: Arc::from("test"),
        ..NewMessage::default()
    }
}

/// A short-poll receive of up to `max` messages, hidden for 30 s.
pub(crate) fn receive_params(max: usize, attempt: Option<&str>) -> ReceiveParams {
    ReceiveParams {
        max,
        visibility_timeout: Some(30),
        attempt_id: attempt.map(str::to_owned),
        short_poll: true,
    }
}

/// A message as the store holds it, sent at `now` and visible `delay` later, never received.
pub(crate) fn stored(body: &str, now: Millis, delay: Millis, group: Option<&str>) -> Message {
    Message {
        id: Uuid::new_v4(),
        body: body.into(),
        md5_of_body: [0; 16],
        extra: None,
        group_id: group.map(Arc::from),
        sender_id: Arc::from("s"),
        sent_at: now,
        enqueued_at: now,
        first_received_at: None,
        visible_at: now.saturating_add(delay),
        receive_count: 0,
        last_receive_offset: 0,
        sequence: 0,
    }
}

/// A registry and the instant its next call is made at.
pub(crate) struct Fixture {
    pub registry: Registry,
    pub now: Millis,
}

impl Fixture {
    /// An in-memory registry at instant 0.
    pub fn new() -> Self {
        Fixture::with(Registry::new())
    }

    /// An in-memory registry at instant `now`.
    pub fn at(now: Millis) -> Self {
        Fixture {
            now,
            ..Fixture::new()
        }
    }

    /// `registry` (one with a journal, say) at instant 0.
    pub fn with(registry: Registry) -> Self {
        Fixture { registry, now: 0 }
    }

    /// Moves `now` on by `ms` milliseconds.
    pub fn advance(&mut self, ms: Millis) {
        self.now += ms;
    }

    /// Queue `name` with the defaults (a FIFO queue when the name ends in `.fifo`).
    pub fn queue(&self, name: &str) -> Arc<Queue> {
        self.queue_with(name, &[])
    }

    /// Queue `name` with these attributes (`FifoQueue` is added for a `.fifo` name).
    pub fn queue_with(&self, name: &str, attributes: &[(&str, &str)]) -> Arc<Queue> {
        self.create(name, attributes, &[])
    }

    /// Queue `name` with these attributes and tags, as one CreateQueue.
    pub fn create(
        &self,
        name: &str,
        attributes: &[(&str, &str)],
        tags: &[(&str, &str)],
    ) -> Arc<Queue> {
        let mut attrs = owned(attributes);
        if name.strip_suffix(".fifo").is_some() {
            attrs
                .entry("FifoQueue".into())
                .or_insert_with(|| "true".into());
        }
        self.registry
            .create(key(name), &attrs, owned(tags), self.now)
            .expect("the fixture's queue is valid")
    }

    /// Queue `name`, dead-lettering into `dlq` after `max_receives` receives.
    pub fn dead_lettering(&self, name: &str, dlq: &Queue, max_receives: u32) -> Arc<Queue> {
        let policy = json!({"deadLetterTargetArn": dlq.arn(), "maxReceiveCount": max_receives});
        self.queue_with(name, &[("RedrivePolicy", &policy.to_string())])
    }

    /// Sends `body` (to a FIFO queue in `group`, deduplicated by the body).
    pub fn send(&self, queue: &Queue, body: &str, group: Option<&str>) -> Sent {
        queue
            .send(message(body, group), self.now)
            .expect("the fixture's send is valid")
    }

    /// Receives up to `max` messages (short poll, hidden for 30 s).
    pub fn receive(&self, queue: &Queue, max: usize) -> Vec<Delivered> {
        self.registry
            .receive(queue, &receive_params(max, None), self.now)
            .expect("the fixture's receive is valid")
    }
}

fn owned(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}
