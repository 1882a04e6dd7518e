//! A topic's tags: TagResource, UntagResource and ListTagsForResource against SNS's limits.

use std::collections::BTreeMap;

use super::topic_attributes::check_tags;
use super::Sns;
use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};

/// SNS's tag quota per topic (SNS developer guide, "Amazon SNS tags": 50 per resource).
pub(super) const MAX_TAGS: usize = 50;

impl Sns {
    /// TagResource: adds or replaces tags, 50 at most.
    pub fn tag_topic(&self, arn: &str, tags: BTreeMap<String, String>) -> SnsResult<()> {
        check_tags(&tags)?;
        let mut state = self.lock();
        let topic = state.topics.get_mut(arn).ok_or_else(resource_not_found)?;
        let added = tags.keys().filter(|k| !topic.tags.contains_key(*k)).count();
        if topic.tags.len() + added > MAX_TAGS {
            return Err(tag_quota());
        }
        topic.tags.extend(tags);
        self.log_topic(&state, arn);
        Ok(())
    }

    /// UntagResource: removes the keys.
    pub fn untag_topic(&self, arn: &str, keys: &[String]) -> SnsResult<()> {
        let mut state = self.lock();
        let topic = state.topics.get_mut(arn).ok_or_else(resource_not_found)?;
        for key in keys {
            topic.tags.remove(key);
        }
        self.log_topic(&state, arn);
        Ok(())
    }

    /// ListTagsForResource: the topic's tags.
    pub fn topic_tags(&self, arn: &str) -> SnsResult<BTreeMap<String, String>> {
        let state = self.lock();
        Ok(state
            .topics
            .get(arn)
            .ok_or_else(resource_not_found)?
            .tags
            .clone())
    }
}

/// [unverified] wording for tagging a topic that does not exist.
fn resource_not_found() -> SnsError {
    SnsError::new(SnsErrorKind::ResourceNotFound, "Resource does not exist")
}

/// SNS's error for a 51st tag.
pub(super) fn tag_quota() -> SnsError {
    SnsError::new(
        SnsErrorKind::TagLimitExceeded,
        "Could not complete request: tag quota of per resource exceeded",
    )
}
