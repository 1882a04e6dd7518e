//! The byte form of S3's records ([`S3Record`]) in the same log and snapshots as the other
//! services': one tag byte from a range of its own ([`S3_TAGS`], above the event source
//! mappings' in `mapping_codec`), then the fields in `wire`'s form. The objects' bytes are
//! not here: a record names the files in `s3/objects` they are in. A directory written
//! before S3 was durable holds none of these tags and reads as it always did; a build older
//! than these records refuses such a directory at start rather than lose them.

use std::ops::RangeInclusive;

use super::wire::{R, W};
use crate::s3::engine::journal::{Config, S3Record, Segment, StoredObject, StoredPart};
use crate::s3::engine::multipart::Upload;
use crate::s3::engine::notifications::{Destination, Rule};
use crate::s3::engine::object::{Checksum, Meta};

/// The tags S3's records may use.
pub const S3_TAGS: RangeInclusive<u8> = 96..=127;

const BUCKET: u8 = 96;
const BUCKET_DELETED: u8 = 97;
const CONFIG: u8 = 98;
const OBJECT: u8 = 99;
const OBJECT_DELETED: u8 = 100;
const UPLOAD: u8 = 101;
const PART: u8 = 102;
const UPLOAD_ENDED: u8 = 103;
const CLEARED: u8 = 104;

/// The checksum algorithms a record may name, as the engine spells them.
const ALGORITHMS: [&str; 5] = ["CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256"];

/// Whether the record is one of S3's (its tag is in S3's range).
pub fn is_s3(bytes: &[u8]) -> bool {
    bytes.first().is_some_and(|tag| S3_TAGS.contains(tag))
}

/// Appends the bytes of `r` to `out`.
pub fn encode(r: &S3Record, out: &mut Vec<u8>) {
    let mut w = W(out);
    match r {
        S3Record::Bucket {
            name,
            owner,
            region,
            created,
        } => {
            w.u8(BUCKET);
            for field in [name, owner, region] {
                w.str(field);
            }
            w.u64(*created);
        }
        S3Record::BucketDeleted { name } => {
            w.u8(BUCKET_DELETED);
            w.str(name);
        }
        S3Record::ObjectDeleted { bucket, key } => {
            w.u8(OBJECT_DELETED);
            w.str(bucket);
            w.str(key);
        }
        S3Record::Config { bucket, config } => {
            w.u8(CONFIG);
            w.str(bucket);
            write_config(&mut w, config);
        }
        S3Record::Object {
            bucket,
            key,
            object,
        } => {
            w.u8(OBJECT);
            w.str(bucket);
            w.str(key);
            write_object(&mut w, object);
        }
        S3Record::Cleared => w.u8(CLEARED),
        upload => encode_upload(upload, &mut w),
    }
}

/// The records of multipart uploads.
fn encode_upload(r: &S3Record, w: &mut W<'_>) {
    match r {
        S3Record::Upload { bucket, upload } => {
            w.u8(UPLOAD);
            w.str(bucket);
            write_upload(w, upload);
        }
        S3Record::Part {
            bucket,
            upload,
            number,
            part,
        } => {
            w.u8(PART);
            w.str(bucket);
            w.str(upload);
            w.u32(*number);
            write_part(w, part);
        }
        S3Record::UploadEnded { bucket, upload } => {
            w.u8(UPLOAD_ENDED);
            w.str(bucket);
            w.str(upload);
        }
        _ => {}
    }
}

/// Reads one record back.
pub fn decode(bytes: &[u8]) -> Result<S3Record, String> {
    let mut r = R(bytes);
    let record = match r.u8()? {
        BUCKET => S3Record::Bucket {
            name: r.string()?,
            owner: r.string()?,
            region: r.string()?,
            created: r.u64()?,
        },
        BUCKET_DELETED => S3Record::BucketDeleted { name: r.string()? },
        CONFIG => S3Record::Config {
            bucket: r.string()?,
            config: read_config(&mut r)?,
        },
        OBJECT => S3Record::Object {
            bucket: r.string()?,
            key: r.string()?,
            object: read_object(&mut r)?,
        },
        OBJECT_DELETED => S3Record::ObjectDeleted {
            bucket: r.string()?,
            key: r.string()?,
        },
        UPLOAD => S3Record::Upload {
            bucket: r.string()?,
            upload: read_upload(&mut r)?,
        },
        PART => S3Record::Part {
            bucket: r.string()?,
            upload: r.string()?,
            number: r.u32()?,
            part: StoredPart {
                segments: read_segments(&mut r)?,
                etag: r.string()?,
                modified: r.u64()?,
                checksum: r.opt_string()?,
            },
        },
        UPLOAD_ENDED => S3Record::UploadEnded {
            bucket: r.string()?,
            upload: r.string()?,
        },
        CLEARED => S3Record::Cleared,
        tag => return Err(format!("unknown S3 record type {tag}")),
    };
    if !r.0.is_empty() {
        return Err(format!("{} unexpected bytes after an S3 record", r.0.len()));
    }
    Ok(record)
}

/// A list of string pairs, in order.
fn write_pairs(w: &mut W<'_>, pairs: &[(String, String)]) {
    w.u32(pairs.len() as u32);
    for (k, v) in pairs {
        w.str(k);
        w.str(v);
    }
}

fn read_pairs(r: &mut R<'_>) -> Result<Vec<(String, String)>, String> {
    (0..r.u32()?)
        .map(|_| Ok((r.string()?, r.string()?)))
        .collect()
}

fn write_config(w: &mut W<'_>, c: &Config) {
    w.opt_str(c.policy.as_deref());
    match &c.tags {
        Some(tags) => {
            w.u8(1);
            write_pairs(w, tags);
        }
        None => w.u8(0),
    }
    w.u32(c.notifications.len() as u32);
    for rule in &c.notifications {
        w.str(&rule.id);
        let (kind, arn) = match &rule.destination {
            Destination::Queue(arn) => (0, arn),
            Destination::Topic(arn) => (1, arn),
            Destination::Function(arn) => (2, arn),
        };
        w.u8(kind);
        w.str(arn);
        w.u32(rule.events.len() as u32);
        for event in &rule.events {
            w.str(event);
        }
        w.opt_str(rule.prefix.as_deref());
        w.opt_str(rule.suffix.as_deref());
    }
}

fn read_config(r: &mut R<'_>) -> Result<Config, String> {
    let policy = r.opt_string()?;
    let tags = match r.u8()? {
        1 => Some(read_pairs(r)?),
        _ => None,
    };
    let notifications = (0..r.u32()?)
        .map(|_| {
            let id = r.string()?;
            let destination = match (r.u8()?, r.string()?) {
                (0, arn) => Destination::Queue(arn),
                (1, arn) => Destination::Topic(arn),
                (2, arn) => Destination::Function(arn),
                (kind, _) => return Err(format!("unknown notification destination {kind}")),
            };
            Ok(Rule {
                id,
                destination,
                events: (0..r.u32()?)
                    .map(|_| r.string())
                    .collect::<Result<_, _>>()?,
                prefix: r.opt_string()?,
                suffix: r.opt_string()?,
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(Config {
        policy,
        tags,
        notifications,
    })
}

fn write_segments(w: &mut W<'_>, segments: &[Segment]) {
    w.u32(segments.len() as u32);
    for s in segments {
        w.str(&s.file);
        w.u64(s.file_len);
        w.u64(s.offset);
        w.u64(s.len);
    }
}

fn read_segments(r: &mut R<'_>) -> Result<Vec<Segment>, String> {
    (0..r.u32()?)
        .map(|_| {
            Ok(Segment {
                file: r.string()?,
                file_len: r.u64()?,
                offset: r.u64()?,
                len: r.u64()?,
            })
        })
        .collect()
}

fn write_meta(w: &mut W<'_>, m: &Meta) {
    for field in [
        &m.content_type,
        &m.content_encoding,
        &m.content_disposition,
        &m.content_language,
        &m.cache_control,
    ] {
        w.opt_str(field.as_deref());
    }
    w.opt_u64(m.expires);
    write_pairs(w, &m.metadata);
    w.opt_str(m.checksum.as_ref().map(|c| c.algorithm));
    w.opt_str(m.checksum.as_ref().map(|c| c.value.as_str()));
    write_pairs(w, &m.tags);
}

fn read_meta(r: &mut R<'_>) -> Result<Meta, String> {
    Ok(Meta {
        content_type: r.opt_string()?,
        content_encoding: r.opt_string()?,
        content_disposition: r.opt_string()?,
        content_language: r.opt_string()?,
        cache_control: r.opt_string()?,
        expires: r.opt_u64()?,
        metadata: read_pairs(r)?,
        checksum: match (read_algorithm(r)?, r.opt_string()?) {
            (Some(algorithm), Some(value)) => Some(Checksum { algorithm, value }),
            _ => None,
        },
        tags: read_pairs(r)?,
    })
}

/// An algorithm's name as the engine's `&'static str`.
fn read_algorithm(r: &mut R<'_>) -> Result<Option<&'static str>, String> {
    r.opt_string()?
        .map(|name| {
            ALGORITHMS
                .into_iter()
                .find(|a| *a == name)
                .ok_or_else(|| format!("unknown checksum algorithm {name}"))
        })
        .transpose()
}

fn write_object(w: &mut W<'_>, o: &StoredObject) {
    write_segments(w, &o.segments);
    w.str(&o.etag);
    w.u64(o.modified);
    write_meta(w, &o.meta);
    match &o.parts {
        Some(sizes) => {
            w.u8(1);
            w.u32(sizes.len() as u32);
            for size in sizes {
                w.u64(*size);
            }
        }
        None => w.u8(0),
    }
}

fn read_object(r: &mut R<'_>) -> Result<StoredObject, String> {
    Ok(StoredObject {
        segments: read_segments(r)?,
        etag: r.string()?,
        modified: r.u64()?,
        meta: read_meta(r)?,
        parts: match r.u8()? {
            1 => Some((0..r.u32()?).map(|_| r.u64()).collect::<Result<_, _>>()?),
            _ => None,
        },
    })
}

fn write_part(w: &mut W<'_>, part: &StoredPart) {
    write_segments(w, &part.segments);
    w.str(&part.etag);
    w.u64(part.modified);
    w.opt_str(part.checksum.as_deref());
}

fn write_upload(w: &mut W<'_>, u: &Upload) {
    w.str(&u.id);
    w.str(&u.key);
    w.u64(u.initiated);
    w.str(&u.owner);
    write_meta(w, &u.meta);
    w.opt_str(u.algorithm);
}

fn read_upload(r: &mut R<'_>) -> Result<Upload, String> {
    Ok(Upload {
        id: r.string()?,
        key: r.string()?,
        initiated: r.u64()?,
        owner: r.string()?,
        meta: read_meta(r)?,
        algorithm: read_algorithm(r)?,
        parts: std::collections::BTreeMap::new(),
    })
}

#[cfg(test)]
#[path = "s3_codec_tests.rs"]
mod tests;
