//! The engine's own tests that drive several of its parts at once: a model-based run, the
//! in-flight limit, parked wake-ups, MD5 vectors recorded from SQS and hostile handles.

mod hostile;
mod in_flight;
mod md5_vectors;
mod model;
mod parked;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::clock::Millis;
use crate::sqs::engine::arn::QueueKey;
use crate::sqs::engine::delivery::{Delivered, ReceiveParams};
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;
use crate::sqs::error::SqsResult;

impl Registry {
    /// One receive attempt (no waiting), as [`Registry::receive_pass`] but what it delivered only.
    pub(crate) fn receive(
        &self,
        q: &Queue,
        p: &ReceiveParams,
        now: Millis,
    ) -> SqsResult<Vec<Delivered>> {
        Ok(self.receive_pass(q, p, false, now)?.delivered)
    }
}

/// Creates `name` (a FIFO queue when `fifo`) in the default region and account at 0.
fn queue(registry: &Registry, name: &str, fifo: bool) -> Arc<Queue> {
    let attrs: BTreeMap<String, String> = if fifo {
        [("FifoQueue".to_owned(), "true".to_owned())].into()
    } else {
        BTreeMap::new()
    };
    let key = QueueKey::new("us-east-1", "000000000000", name);
    registry.create(key, &attrs, BTreeMap::new(), 0).unwrap()
}
