//! Changing a message's visibility: alone or as one entry of a batch, which SQS words
//! differently when the message is gone.

use super::Queue;
use crate::clock::Millis;
use crate::sqs::error::SqsResult;

/// How a visibility change was asked for: the wording of a refusal depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// ChangeMessageVisibility.
    Alone,
    /// One entry of ChangeMessageVisibilityBatch.
    InBatch,
}

impl Queue {
    /// A message made visible sooner than it was wakes every parked receive: to take it at
    /// once (0), or to sleep until its new, earlier deadline instead of the one they computed
    /// (one poll woken alone could end its wait before that deadline and leave the others
    /// asleep past it). Rare next to sends, so waking all here costs little.
    pub fn change_visibility(&self, handle: &str, seconds: u32, now: Millis) -> SqsResult<()> {
        self.change_visibility_as(handle, seconds, now, Asked::Alone)
    }

    /// [`Queue::change_visibility`] for one entry of a batch, which words a gone message as
    /// the batch does.
    pub fn change_visibility_in_batch(
        &self,
        handle: &str,
        seconds: u32,
        now: Millis,
    ) -> SqsResult<()> {
        self.change_visibility_as(handle, seconds, now, Asked::InBatch)
    }

    /// The change, worded as `asked`; wakes the parked receives when it made a message
    /// visible sooner.
    fn change_visibility_as(
        &self,
        handle: &str,
        seconds: u32,
        now: Millis,
        asked: Asked,
    ) -> SqsResult<()> {
        let sooner = self
            .lock_settled_mut(now)
            .change_visibility(self, handle, seconds, now, asked)?;
        if sooner {
            self.notify.notify_waiters();
        }
        Ok(())
    }
}
