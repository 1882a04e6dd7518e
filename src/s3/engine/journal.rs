//! What S3's store tells a durable log (`--data-dir`): every change as one [`S3Record`], an
//! absolute assignment (a bucket's whole configuration, an object whole), so that replaying
//! a record over a state that already holds its effect changes nothing; and the files no
//! object refers to any more, which the log removes only once the records before them are
//! stored. The store knows the log only through [`S3Journal`].

use std::fmt::Debug;
use std::path::Path;
use std::sync::Arc;

use super::data::Data;
use super::disk::Disk;
use super::multipart::{Part, Upload};
use super::notifications::Rule;
use super::object::{Meta, Object};
use super::tags::Tags;
use crate::clock::Millis;

/// Observes every change of the store in the order it was made. Called under the changed
/// bucket's lock (or the store's): it must be quick and must not call back into the store.
pub trait S3Journal: Send + Sync + Debug {
    /// Takes one change, before the operation returns.
    fn record(&self, record: &S3Record);
    /// The file at `path` holds no object's bytes any more: remove it once every record
    /// taken before is stored (a restart that replays them must still find it).
    fn release(&self, path: &Path);
}

/// Part of a file an object's bytes are made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// The file's name in `s3/objects`.
    pub file: String,
    /// The whole file's length, checked at start.
    pub file_len: u64,
    /// Where the bytes start in the file.
    pub offset: u64,
    /// How many bytes.
    pub len: u64,
}

/// An object as the log keeps it: where its bytes are and what else it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredObject {
    /// Its bytes, in order.
    pub segments: Vec<Segment>,
    /// Its ETag, unquoted.
    pub etag: String,
    /// Last-Modified.
    pub modified: Millis,
    /// What its request said of it.
    pub meta: Meta,
    /// A multipart object's part sizes.
    pub parts: Option<Vec<u64>>,
}

/// An uploaded part as the log keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPart {
    /// Its bytes.
    pub segments: Vec<Segment>,
    /// Its ETag.
    pub etag: String,
    /// When it was uploaded.
    pub modified: Millis,
    /// Its additional checksum's value.
    pub checksum: Option<String>,
}

/// A bucket's configuration, whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Its Policy's text.
    pub policy: Option<String>,
    /// Its tags, when it has a tag set.
    pub tags: Option<Tags>,
    /// Its notification rules.
    pub notifications: Vec<Rule>,
}

/// One change of the store.
#[derive(Debug, Clone)]
pub enum S3Record {
    /// A bucket made.
    Bucket {
        name: String,
        owner: String,
        region: String,
        created: Millis,
    },
    /// A bucket deleted.
    BucketDeleted { name: String },
    /// A bucket's configuration as it is now.
    Config { bucket: String, config: Config },
    /// An object written (or its tags replaced): the whole object.
    Object {
        bucket: String,
        key: String,
        object: StoredObject,
    },
    /// An object deleted.
    ObjectDeleted { bucket: String, key: String },
    /// A multipart upload started, its parts left out (each is a record of its own).
    Upload { bucket: String, upload: Upload },
    /// A part of an upload stored.
    Part {
        bucket: String,
        upload: String,
        number: u32,
        part: StoredPart,
    },
    /// An upload completed or aborted.
    UploadEnded { bucket: String, upload: String },
    /// Every bucket gone (the admin API's reset).
    Cleared,
}

/// Where `data`'s bytes are, as segments of files.
pub fn segments(data: &Data) -> Vec<Segment> {
    data.files()
        .map(|(file, offset, len)| Segment {
            file: file.name().to_owned(),
            file_len: file.len(),
            offset,
            len,
        })
        .collect()
}

/// The record of `object`.
pub fn stored(object: &Object) -> StoredObject {
    StoredObject {
        segments: segments(&object.data),
        etag: object.etag.clone(),
        modified: object.modified,
        meta: object.meta.clone(),
        parts: object.parts.clone(),
    }
}

/// The record of `upload`'s start: the upload without its parts.
pub fn started(upload: &Upload) -> Upload {
    Upload {
        parts: std::collections::BTreeMap::new(),
        ..upload.clone()
    }
}

/// The record of `part`.
pub fn stored_part(part: &Part) -> StoredPart {
    StoredPart {
        segments: segments(&part.data),
        etag: part.etag.clone(),
        modified: part.modified,
        checksum: part.checksum.clone(),
    }
}

/// The bytes `segments` name, on `disk`.
pub fn data(disk: &Arc<Disk>, segments: &[Segment]) -> Data {
    Data::from_files(
        segments
            .iter()
            .map(|s| (disk.named(&s.file, s.file_len), s.offset, Some(s.len))),
    )
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;
