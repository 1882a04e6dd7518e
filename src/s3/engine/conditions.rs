//! Conditional requests on an object (S3 API reference, GetObject and PutObject): a read's
//! `If-Match`, `If-None-Match`, `If-Modified-Since` and `If-Unmodified-Since` (and CopyObject's
//! `x-amz-copy-source-if-*` forms), a write's `If-None-Match: *` and `If-Match`.

use super::error::{Refusal, Result};
use super::object::Object;
use crate::clock::Millis;

/// An ETag condition: `*` or one ETag (unquoted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tag {
    /// `*`: any object.
    Any,
    /// This ETag.
    Is(String),
}

impl Tag {
    fn matches(&self, object: &Object) -> bool {
        match self {
            Tag::Any => true,
            Tag::Is(etag) => *etag == object.etag,
        }
    }
}

/// A read's conditions.
#[derive(Debug, Clone, Default)]
pub struct Read {
    /// `If-Match`: only this object.
    pub matching: Option<Tag>,
    /// `If-None-Match`: not this object.
    pub not_matching: Option<Tag>,
    /// `If-Modified-Since`.
    pub modified_since: Option<Millis>,
    /// `If-Unmodified-Since`.
    pub unmodified_since: Option<Millis>,
}

/// Seconds, as HTTP dates carry an instant.
fn seconds(at: Millis) -> Millis {
    at / 1000
}

impl Read {
    /// Whether `object` may be read: `If-Match` (else `If-Unmodified-Since`) failing is
    /// PreconditionFailed; then `If-None-Match` (else `If-Modified-Since`) holding is
    /// NotModified. S3 documents each pair's precedence so.
    pub fn check(&self, object: &Object) -> Result<()> {
        let modified = seconds(object.modified);
        let unmodified = match &self.matching {
            Some(tag) => tag.matches(object),
            None => self
                .unmodified_since
                .is_none_or(|at| modified <= seconds(at)),
        };
        if !unmodified {
            return Err(Refusal::PreconditionFailed);
        }
        let fresh = match &self.not_matching {
            Some(tag) => !tag.matches(object),
            None => self.modified_since.is_none_or(|at| modified > seconds(at)),
        };
        if fresh {
            Ok(())
        } else {
            Err(Refusal::NotModified)
        }
    }

    /// CopyObject's source conditions: S3 answers PreconditionFailed where a GET would say
    /// NotModified.
    pub fn check_copy_source(&self, object: &Object) -> Result<()> {
        self.check(object).map_err(|_| Refusal::PreconditionFailed)
    }
}

/// A write's conditions, checked against the object it would replace, under the bucket's lock.
#[derive(Debug, Clone, Default)]
pub struct Write {
    /// `If-None-Match: *`: only if no object is there.
    pub if_none_match: Option<Tag>,
    /// `If-Match`: only over the object with this ETag.
    pub if_match: Option<Tag>,
}

impl Write {
    /// Whether the write may replace `existing`: an object there fails `If-None-Match: *`;
    /// none there fails `If-Match` as NoSuchKey, another ETag as PreconditionFailed.
    pub fn check(&self, existing: Option<&Object>) -> Result<()> {
        if let (Some(_), Some(_)) = (&self.if_none_match, existing) {
            return Err(Refusal::PreconditionFailed);
        }
        match (&self.if_match, existing) {
            (Some(_), None) => Err(Refusal::NoSuchKey),
            (Some(tag), Some(object)) if !tag.matches(object) => Err(Refusal::PreconditionFailed),
            _ => Ok(()),
        }
    }
}
