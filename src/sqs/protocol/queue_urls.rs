//! How a request names a queue: its QueueUrl (in any emulator's style) or its path, read
//! against the request's region, account and URL base.

use crate::http::auth::host_region;
use crate::http::text::{pieces, split_at_byte};
use crate::http::Context;
use crate::sqs::engine::arn::{KeyRef, QueueKey};
use crate::sqs::error::{SqsError, SqsResult};

/// SQS's reading of a request's [`Context`]: the queues it names and the URLs it mints.
pub trait QueueUrls {
    fn key(&self, name: &str) -> QueueKey;

    fn queue_url(&self, key: &QueueKey) -> String;

    /// The queue a QueueUrl names, borrowed from the URL for a lookup that allocates nothing;
    /// an empty one is a missing parameter.
    fn queue_ref<'a>(&'a self, queue_url: &'a str) -> SqsResult<KeyRef<'a>>;

    fn parse_queue_url(&self, url: &str) -> Option<QueueKey>;

    /// Takes the queue from the path only, so a URL minted for another host still works.
    /// Accepts `/<account>/<name>` (after any context path), `/queue/<region>/<account>/<name>`,
    /// `/queue/<name>` and a bare name; a host `sqs.<region>.…` (AWS, LocalStack) or
    /// `<region>.queue.…` (legacy AWS, LocalStack) supplies the region.
    fn parse_queue_ref<'a>(&'a self, url: &'a str) -> Option<KeyRef<'a>>;
}

impl QueueUrls for Context {
    fn key(&self, name: &str) -> QueueKey {
        QueueKey::new(&self.region, &self.account, name)
    }

    fn queue_url(&self, key: &QueueKey) -> String {
        format!("{}/{}/{}", self.base_url, key.account, key.name)
    }

    fn queue_ref<'a>(&'a self, queue_url: &'a str) -> SqsResult<KeyRef<'a>> {
        if queue_url.is_empty() {
            return Err(SqsError::missing("QueueUrl"));
        }
        self.parse_queue_ref(queue_url)
            .ok_or_else(SqsError::queue_does_not_exist)
    }

    fn parse_queue_url(&self, url: &str) -> Option<QueueKey> {
        self.parse_queue_ref(url).map(KeyRef::to_key)
    }

    fn parse_queue_ref<'a>(&'a self, url: &'a str) -> Option<KeyRef<'a>> {
        // Plain loops, no allocation and no searcher set-up: this runs for every request
        // that names a queue (it was 4% of a SendMessage's instructions).
        let (host, path) = match split_at_byte(url, b':') {
            Some((_, rest)) if rest.starts_with("//") => {
                split_at_byte(&rest[2..], b'/').unwrap_or((&rest[2..], ""))
            }
            _ => ("", url),
        };
        let region = host_region(host).unwrap_or(&self.region);
        let (mut count, mut first, mut second, mut prev, mut last) = (0, "", "", "", "");
        for segment in pieces(path, b'/').filter(|s| !s.is_empty()) {
            count += 1;
            match count {
                1 => first = segment,
                2 => second = segment,
                _ => {}
            }
            prev = last;
            last = segment;
        }
        Some(match (count, first) {
            (0, _) => return None,
            (4, "queue") => KeyRef::new(second, prev, last),
            (1, _) | (2, "queue") => KeyRef::new(region, &self.account, last),
            _ => KeyRef::new(region, prev, last),
        })
    }
}

#[cfg(test)]
#[path = "queue_urls_tests.rs"]
mod tests;
