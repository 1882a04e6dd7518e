//! S3's storage, knowing nothing of HTTP: the buckets by name (one namespace for every
//! account, as S3's is global), each bucket's objects, uploads, Policy and tags ([`bucket`]),
//! objects' bytes shared rather than copied, in memory against one bound or in files
//! ([`data`], [`disk`]), every change reported to a journal ([`journal`]) and the store rebuilt
//! from those records and its files checked at start (`restore`, `check`), listing ([`listing`]), multipart completion ([`multipart`]), conditional
//! requests ([`conditions`]), tag and bucket-name rules ([`tags`], [`names`]), notification
//! configurations ([`notifications`]). Every function
//! that needs the time receives `now`.

pub mod bucket;
mod check;
pub mod conditions;
pub mod data;
pub mod disk;
pub mod error;
pub mod journal;
pub mod listing;
pub mod multipart;
pub mod names;
pub mod notifications;
pub mod object;
mod restore;
pub mod tags;

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use crate::clock::Millis;
pub use bucket::Bucket;
use data::Budget;
use disk::Disk;
pub use error::{Refusal, Result};
pub use journal::{S3Journal, S3Record};
pub use restore::FileCheck;

/// The region whose CreateBucket of a bucket the caller owns already answers 200, as S3
/// keeps it there for legacy compatibility (S3 API reference, CreateBucket's errors).
const LEGACY_REGION: &str = "us-east-1";

/// Every bucket, and the bound on the object data they hold.
#[derive(Debug)]
pub struct Store {
    buckets: RwLock<BTreeMap<String, Arc<Bucket>>>,
    /// The object data held, against `--s3-max-bytes`.
    pub budget: Arc<Budget>,
    /// Where objects' bytes go with `--data-dir`; in memory without.
    pub disk: Option<Arc<Disk>>,
    /// Where every change is recorded, with `--data-dir`.
    journal: Option<Arc<dyn S3Journal>>,
}

/// What CreateBucket did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Created {
    /// Made the bucket.
    New,
    /// The caller's own bucket in us-east-1, left as it was.
    Again,
}

impl Store {
    /// An empty store holding at most `max_bytes` of object data.
    pub fn new(max_bytes: u64) -> Store {
        Store {
            buckets: RwLock::default(),
            budget: Budget::new(max_bytes),
            disk: None,
            journal: None,
        }
    }

    /// An empty store whose objects are files on `disk` and whose changes go to `journal`;
    /// `--s3-max-bytes` bounds the files' bytes (the disk's budget).
    pub fn on_disk(disk: Arc<Disk>, journal: Arc<dyn S3Journal>) -> Store {
        Store {
            buckets: RwLock::default(),
            budget: disk.budget.clone(),
            disk: Some(disk),
            journal: Some(journal),
        }
    }

    /// Records `record` when there is a journal.
    fn record(&self, record: impl FnOnce() -> S3Record) {
        if let Some(journal) = &self.journal {
            journal.record(&record());
        }
    }

    /// Creates the bucket `name` for `owner` in `region`.
    pub fn create(&self, name: &str, owner: &str, region: &str, now: Millis) -> Result<Created> {
        if !names::valid_bucket(name) {
            return Err(Refusal::InvalidBucketName);
        }
        let mut buckets = self
            .buckets
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match buckets.get(name) {
            Some(b) if b.owner != owner => Err(Refusal::BucketAlreadyExists),
            Some(b) if b.region == LEGACY_REGION => Ok(Created::Again),
            Some(_) => Err(Refusal::BucketAlreadyOwnedByYou),
            None => {
                let bucket = Bucket::new((name, owner, region), now, self.journal.clone());
                buckets.insert(name.to_owned(), Arc::new(bucket));
                self.record(|| S3Record::Bucket {
                    name: name.to_owned(),
                    owner: owner.to_owned(),
                    region: region.to_owned(),
                    created: now,
                });
                Ok(Created::New)
            }
        }
    }

    /// The bucket `name`.
    pub fn bucket(&self, name: &str) -> Result<Arc<Bucket>> {
        self.buckets
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .cloned()
            .ok_or(Refusal::NoSuchBucket)
    }

    /// Deletes the bucket `name`, which must hold nothing.
    pub fn delete(&self, name: &str) -> Result<()> {
        let mut buckets = self
            .buckets
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        buckets.get(name).ok_or(Refusal::NoSuchBucket)?.retire()?;
        buckets.remove(name);
        self.record(|| S3Record::BucketDeleted {
            name: name.to_owned(),
        });
        Ok(())
    }

    /// Every bucket gone with what it holds (the admin API's reset).
    pub fn reset(&self) {
        let mut buckets = self
            .buckets
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Recorded before the objects are let go of, whose files go after the records before.
        self.record(|| S3Record::Cleared);
        for bucket in buckets.values() {
            bucket.discard();
        }
        buckets.clear();
    }

    /// Every bucket, by name.
    pub fn all(&self) -> Vec<Arc<Bucket>> {
        self.buckets
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .cloned()
            .collect()
    }

    /// `owner`'s buckets, by name.
    pub fn owned_by(&self, owner: &str) -> Vec<Arc<Bucket>> {
        self.buckets
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .filter(|b| b.owner == owner)
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests;
