//! The `upload` step: objects put into one of the drill's buckets, each key naming the run
//! and the kind (`{prefix}{run}/{kind}/{seq}{suffix}`), so that the S3 event a notification
//! turns it into is counted as the drill's message of that kind wherever it goes
//! (`crate::drill::attribute_of` reads the key back from the event).

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use super::engine::Drill;
use super::spec::Step;

/// What a key's path keeps as it is: S3's unreserved characters and the delimiter.
const KEY: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/');

impl Drill<'_> {
    /// Puts `count` objects into the step's bucket, one at a time as an uploader would.
    pub(super) async fn upload(&mut self, step: &Step) -> Result<(), String> {
        let bucket = step
            .bucket
            .as_ref()
            .map(|b| b.get_ref().clone())
            .unwrap_or_default();
        let kind = step.kind.clone().unwrap_or_else(|| "valid".into());
        let template = step.body.as_deref().unwrap_or(super::steps::BODY);
        let prefix = step.prefix.as_deref().unwrap_or("");
        let suffix = step.suffix.as_deref().unwrap_or("");
        for seq in 0..step.count {
            if self.out_of_time() {
                break;
            }
            let key = format!("{prefix}{}/{kind}/{seq}{suffix}", self.run);
            let path = format!("/{bucket}/{}", utf8_percent_encode(&key, KEY));
            let body = super::steps::fill(template, seq, &self.run).into_bytes();
            self.ep
                .s3("PUT", &path, body)
                .await
                .map_err(|e| format!("PutObject {bucket}/{key} failed: {e}"))?;
            self.count_sent(&kind, 1);
        }
        Ok(())
    }
}
