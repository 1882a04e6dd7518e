//! A queue's tags as engine operations, with their rules inside: keys 1-128 characters,
//! values up to 256, at most [`MAX_TAGS`] on a queue. TagQueue, UntagQueue and declarations
//! (at startup and on first use) all go through them, so none can pass the cap. The wording
//! is SQS's as other SQS test suites record it; the value-length message is unverified.

use std::collections::BTreeMap;

use super::limits::TAGS as MAX_TAGS;
use super::queue::Queue;
use crate::clock::Millis;
use crate::sqs::error::{SqsError, SqsResult};

/// Checks tags a request or a declaration gives for the queue `queue_name`.
pub fn check(tags: &BTreeMap<String, String>, queue_name: &str) -> SqsResult<()> {
    if tags.len() > MAX_TAGS {
        return Err(too_many(queue_name));
    }
    for (key, value) in tags {
        if key.is_empty() || key.chars().count() > 128 {
            return Err(bad_key());
        }
        if value.chars().count() > 256 {
            return Err(SqsError::invalid_parameter(
                "Tag values must be less than 256 characters in length.",
            ));
        }
    }
    Ok(())
}

impl Queue {
    /// Adds `tags` (a key already there takes the new value) after checking them; refused
    /// when the queue would then have more than [`MAX_TAGS`].
    pub fn tag(&self, tags: BTreeMap<String, String>, now: Millis) -> SqsResult<()> {
        check(&tags, self.name())?;
        self.edit_tags(now, |stored| {
            let mut next = stored.clone();
            next.extend(tags);
            if next.len() > MAX_TAGS {
                return Err(too_many(self.name()));
            }
            *stored = next;
            Ok(())
        })
    }

    /// Removes the tags of `keys` (keys it does not have are no error); no key at all is
    /// refused as a bad key, as SQS does.
    pub fn untag(&self, keys: &[String], now: Millis) -> SqsResult<()> {
        if keys.is_empty() {
            return Err(bad_key());
        }
        self.edit_tags(now, |tags| {
            for key in keys {
                tags.remove(key);
            }
        });
        Ok(())
    }
}

/// SQS's error past 50 tags.
fn too_many(queue_name: &str) -> SqsError {
    SqsError::invalid_parameter(format!("Too many tags added for queue {queue_name}."))
}

/// SQS's error for an empty or too long tag key.
fn bad_key() -> SqsError {
    SqsError::invalid_parameter("Tag keys must be between 1 and 128 characters in length.")
}
