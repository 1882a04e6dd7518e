//! The store rebuilt from its records (`--data-dir`): each record replayed as the absolute
//! assignment it is (a record about a bucket or upload that is no longer there is passed
//! over: a snapshot taken while writes went on may already hold its bucket's deletion); the
//! snapshot's records; and, once replay is done, the check of the files the records name.

use std::collections::BTreeSet;
use std::io;
use std::sync::Arc;

use super::bucket::State;
use super::journal::{self, S3Record};
use super::multipart::Part;
use super::object::Object;
use super::{Bucket, Store};
use crate::policy::Policy;

impl Store {
    /// Replays one record; no journal is told.
    pub fn restore(&self, record: S3Record) -> Result<(), String> {
        let disk = self
            .disk
            .as_ref()
            .ok_or("S3 records in a store without files")?;
        match record {
            record @ (S3Record::Bucket { .. }
            | S3Record::BucketDeleted { .. }
            | S3Record::Cleared) => {
                self.restore_buckets(record);
            }
            S3Record::Config { bucket, config } => {
                let policy = config
                    .policy
                    .map(|text| Policy::parse(&text).map(Arc::new))
                    .transpose()
                    .map_err(|e| format!("a bucket policy: {e:?}"))?;
                self.with(&bucket, |state| {
                    (state.policy, state.tags) = (policy, config.tags);
                    state.notifications = config.notifications.into();
                    Ok(())
                })?;
            }
            S3Record::Object {
                bucket,
                key,
                object,
            } => {
                let object = Object {
                    data: journal::data(disk, &object.segments),
                    etag: object.etag,
                    modified: object.modified,
                    meta: object.meta,
                    parts: object.parts,
                };
                self.with(&bucket, |state| {
                    state.objects.insert(key, Arc::new(object));
                    Ok(())
                })?;
            }
            S3Record::ObjectDeleted { bucket, key } => self.with(&bucket, |state| {
                state.objects.remove(&key);
                Ok(())
            })?,
            record => self.restore_upload(record)?,
        }
        Ok(())
    }

    /// Replays a record that makes or removes buckets.
    fn restore_buckets(&self, record: S3Record) {
        let mut buckets = self
            .buckets
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match record {
            S3Record::Bucket {
                name,
                owner,
                region,
                created,
            } => {
                buckets.entry(name.clone()).or_insert_with(|| {
                    let bucket = (name.as_str(), owner.as_str(), region.as_str());
                    Arc::new(Bucket::new(bucket, created, self.journal.clone()))
                });
            }
            S3Record::BucketDeleted { name } => {
                if let Some(bucket) = buckets.remove(&name) {
                    bucket.discard();
                }
            }
            S3Record::Cleared => {
                for bucket in std::mem::take(&mut *buckets).into_values() {
                    bucket.discard();
                }
            }
            _ => {}
        }
    }

    /// Replays a record of a multipart upload.
    fn restore_upload(&self, record: S3Record) -> Result<(), String> {
        let disk = self
            .disk
            .as_ref()
            .ok_or("S3 records in a store without files")?;
        match record {
            S3Record::Upload { bucket, upload } => self.with(&bucket, |state| {
                state.uploads.entry(upload.id.clone()).or_insert(upload);
                Ok(())
            }),
            S3Record::Part {
                bucket,
                upload,
                number,
                part,
            } => {
                let part = Part {
                    data: journal::data(disk, &part.segments),
                    etag: part.etag,
                    modified: part.modified,
                    checksum: part.checksum,
                };
                self.with(&bucket, |state| {
                    if let Some(upload) = state.uploads.get_mut(&upload) {
                        upload.parts.insert(number, part);
                    }
                    Ok(())
                })
            }
            S3Record::UploadEnded { bucket, upload } => self.with(&bucket, |state| {
                state.uploads.remove(&upload);
                Ok(())
            }),
            _ => Ok(()),
        }
    }

    /// Runs `change` on the state of the bucket `name`, if it is there.
    fn with(
        &self,
        name: &str,
        change: impl FnOnce(&mut State) -> Result<(), String>,
    ) -> Result<(), String> {
        let bucket = self
            .buckets
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .cloned();
        match bucket {
            Some(bucket) => change(&mut bucket.raw()),
            None => Ok(()),
        }
    }

    /// Hands every record of the whole store to `each`: each bucket, its configuration, its
    /// objects, its uploads and their parts.
    pub fn snapshot(&self, each: &mut dyn FnMut(&S3Record) -> io::Result<()>) -> io::Result<()> {
        for bucket in self.all() {
            let records = {
                let state = bucket.raw();
                if state.gone {
                    continue;
                }
                bucket_records(&bucket, &state)
            };
            for record in &records {
                each(record)?;
            }
        }
        Ok(())
    }
}

/// The records that make `bucket` as `state` has it.
fn bucket_records(bucket: &Bucket, state: &State) -> Vec<S3Record> {
    let name = || bucket.name.clone();
    let mut records = vec![
        S3Record::Bucket {
            name: name(),
            owner: bucket.owner.clone(),
            region: bucket.region.clone(),
            created: bucket.created,
        },
        S3Record::Config {
            bucket: name(),
            config: state.config(),
        },
    ];
    for (key, object) in &state.objects {
        records.push(S3Record::Object {
            bucket: name(),
            key: key.clone(),
            object: journal::stored(object),
        });
    }
    for upload in state.uploads.values() {
        records.push(S3Record::Upload {
            bucket: name(),
            upload: journal::started(upload),
        });
        for (number, part) in &upload.parts {
            records.push(S3Record::Part {
                bucket: name(),
                upload: upload.id.clone(),
                number: *number,
                part: journal::stored_part(part),
            });
        }
    }
    records
}

/// What the check of the files found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FileCheck {
    /// Files in `s3/objects` no record names (a crash between a file's rename and its record,
    /// or a removal the log had not made yet): removed, or set aside by a repair.
    pub orphans: Vec<String>,
    /// Objects and uploads' parts whose file is missing or of another length, each with why:
    /// refused at start; a repair drops them and sets their files aside.
    pub damaged: Vec<String>,
    /// The files a repair set aside.
    pub set_aside: BTreeSet<String>,
}
