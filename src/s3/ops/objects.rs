//! PutObject, GetObject, HeadObject and DeleteObject: an object's bytes and what its request
//! said of it, conditional requests, ranges.

use std::sync::Arc;

use s3s::dto::{
    ChecksumMode, DeleteObjectInput, DeleteObjectOutput, ETag, ETagCondition, GetObjectInput,
    GetObjectOutput, HeadObjectInput, HeadObjectOutput, Metadata, PutObjectInput, PutObjectOutput,
    StreamingBlob, Timestamp,
};
use s3s::{S3ErrorCode, S3Request, S3Response, S3Result};

use super::body;
use super::{call, millis, timestamp, Ops};
use crate::s3::engine::conditions::{Read, Tag, Write};
use crate::s3::engine::data::Data;
use crate::s3::engine::multipart::MAX_PART;
use crate::s3::engine::object::{etag_of, Meta, Object};
use crate::s3::engine::{tags, Refusal};
use crate::s3::error::{error, refused};

/// An ETag condition as the engine reads it.
pub fn tag(condition: Option<ETagCondition>) -> Option<Tag> {
    condition.map(|c| match c {
        ETagCondition::Any => Tag::Any,
        ETagCondition::ETag(etag) => Tag::Is(etag.value().to_owned()),
    })
}

/// User metadata, names lower-case, in a stable order.
pub fn metadata(given: Option<Metadata>) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = given
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.to_ascii_lowercase(), v))
        .collect();
    pairs.sort();
    pairs
}

/// What a PutObject says of its object.
fn meta_of(input: &mut PutObjectInput) -> S3Result<Meta> {
    Ok(Meta {
        content_type: input.content_type.take(),
        content_encoding: input.content_encoding.take().filter(|e| !e.is_empty()),
        content_disposition: input.content_disposition.take(),
        content_language: input.content_language.take(),
        cache_control: input.cache_control.take(),
        expires: input.expires.take().map(|t| millis(&t)),
        metadata: metadata(input.metadata.take()),
        checksum: None,
        tags: match input.tagging.take() {
            Some(text) => tags::from_query(&text).map_err(refused)?,
            None => Vec::new(),
        },
    })
}

/// A write's conditions: `If-None-Match` may only be `*`.
pub fn write_condition(
    if_match: Option<ETagCondition>,
    if_none_match: Option<ETagCondition>,
) -> S3Result<Write> {
    if if_none_match.as_ref().is_some_and(|c| !c.is_any()) {
        return Err(error(
            S3ErrorCode::NotImplemented,
            "A header you provided implies functionality that is not implemented",
        ));
    }
    Ok(Write {
        if_match: tag(if_match),
        if_none_match: tag(if_none_match),
    })
}

/// A read's conditions: its ETags (`If-Match`, `If-None-Match`) and dates
/// (`If-Modified-Since`, `If-Unmodified-Since`), or a copy source's.
pub fn read_condition(
    (matching, not_matching): (Option<ETagCondition>, Option<ETagCondition>),
    (modified, unmodified): (Option<&Timestamp>, Option<&Timestamp>),
) -> Read {
    Read {
        matching: tag(matching),
        not_matching: tag(not_matching),
        modified_since: modified.map(millis),
        unmodified_since: unmodified.map(millis),
    }
}

/// The object a GetObject or HeadObject names, if its conditions let it be read (the two
/// inputs share these fields' names).
macro_rules! readable {
    ($ops:expr, $input:expr) => {
        $ops.readable(
            &$input.bucket,
            &$input.key,
            &read_condition(
                ($input.if_match.take(), $input.if_none_match.take()),
                (
                    $input.if_modified_since.as_ref(),
                    $input.if_unmodified_since.as_ref(),
                ),
            ),
        )
    };
}

impl Ops {
    pub(super) async fn put_object(
        &self,
        req: S3Request<PutObjectInput>,
    ) -> S3Result<S3Response<PutObjectOutput>> {
        let call = call(&req)?.clone();
        let trailer = body::trailer(&req.headers);
        let mut input = req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let condition = write_condition(input.if_match.take(), input.if_none_match.take())?;
        let declared = body::declared!(input, trailer.as_deref(), None);
        let mut meta = meta_of(&mut input)?;
        let length = input.content_length.and_then(|n| u64::try_from(n).ok());
        let sink = body::Sink::new(&self.store, length, MAX_PART)?;
        let (data, md5, checksum) = body::read(input.body.take(), sink, &declared, &call).await?;
        meta.checksum = checksum;
        let object = Object {
            data,
            etag: etag_of(&md5),
            modified: self.clock.now(),
            meta,
            parts: None,
        };
        let stored = bucket
            .put(&input.key, object, &condition)
            .map_err(refused)?;
        let created = Some((stored.size(), stored.etag.as_str()));
        self.notify(&bucket, &call, ("ObjectCreated:Put", &input.key), created);
        let mut output = PutObjectOutput {
            e_tag: Some(ETag::Strong(stored.etag.clone())),
            size: i64::try_from(stored.size()).ok(),
            ..PutObjectOutput::default()
        };
        super::checksums::put(&mut output, stored.meta.checksum.as_ref());
        Ok(S3Response::new(output))
    }

    /// The object `key` of `bucket`, if `conditions` let it be read.
    fn readable(&self, bucket: &str, key: &str, conditions: &Read) -> S3Result<Arc<Object>> {
        let object = self
            .store
            .bucket(bucket)
            .and_then(|b| b.object(key))
            .map_err(refused)?;
        conditions.check(&object).map_err(refused)?;
        Ok(object)
    }

    pub(super) async fn get_object(
        &self,
        req: S3Request<GetObjectInput>,
    ) -> S3Result<S3Response<GetObjectOutput>> {
        let mut input = req.input;
        let object = readable!(self, input)?;
        let (range, content_range) = selected(&object, input.range.as_ref(), input.part_number)?;
        let whole = content_range.is_none();
        let mut output = GetObjectOutput {
            body: Some(blob(&object.data, range.start, range.end)),
            content_length: i64::try_from(range.end - range.start).ok(),
            content_range,
            accept_ranges: Some("bytes".into()),
            e_tag: Some(ETag::Strong(object.etag.clone())),
            last_modified: Some(timestamp(object.modified)),
            parts_count: parts_count(&object),
            tag_count: i32::try_from(object.meta.tags.len())
                .ok()
                .filter(|n| *n > 0),
            ..GetObjectOutput::default()
        };
        super::headers::get(&mut output, &object.meta);
        super::headers::overrides(
            &mut output,
            input.response_content_type.as_ref(),
            [
                input.response_cache_control.as_ref(),
                input.response_content_disposition.as_ref(),
                input.response_content_encoding.as_ref(),
                input.response_content_language.as_ref(),
            ],
        );
        if whole && enabled(input.checksum_mode.as_ref().map(ChecksumMode::as_str)) {
            super::checksums::get(&mut output, object.meta.checksum.as_ref());
        }
        Ok(S3Response::new(output))
    }

    pub(super) async fn head_object(
        &self,
        req: S3Request<HeadObjectInput>,
    ) -> S3Result<S3Response<HeadObjectOutput>> {
        let mut input = req.input;
        let object = readable!(self, input)?;
        let (range, content_range) = selected(&object, input.range.as_ref(), input.part_number)?;
        let whole = content_range.is_none();
        let mut output = HeadObjectOutput {
            content_length: i64::try_from(range.end - range.start).ok(),
            content_range,
            accept_ranges: Some("bytes".into()),
            e_tag: Some(ETag::Strong(object.etag.clone())),
            last_modified: Some(timestamp(object.modified)),
            parts_count: parts_count(&object),
            ..HeadObjectOutput::default()
        };
        super::headers::head(&mut output, &object.meta);
        if whole && enabled(input.checksum_mode.as_ref().map(ChecksumMode::as_str)) {
            super::checksums::head(&mut output, object.meta.checksum.as_ref());
        }
        Ok(S3Response::new(output))
    }

    pub(super) async fn delete_object(
        &self,
        req: S3Request<DeleteObjectInput>,
    ) -> S3Result<S3Response<DeleteObjectOutput>> {
        let call = call(&req)?;
        let input = &req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        // An event for what was there to delete [unverified: S3 may send one either way].
        if bucket.delete(&input.key).map_err(refused)?.is_some() {
            self.notify(&bucket, call, ("ObjectRemoved:Delete", &input.key), None);
        }
        Ok(S3Response::new(DeleteObjectOutput::default()))
    }
}

/// The bytes a GET or HEAD reads, and the Content-Range to answer when that is not the whole
/// object: all of it, its `Range`, or its `partNumber`'s part (SDK v2's multipart downloads
/// read an object part by part).
fn selected(
    object: &Object,
    range: Option<&s3s::dto::Range>,
    part: Option<i32>,
) -> S3Result<(std::ops::Range<u64>, Option<String>)> {
    let size = object.size();
    let range = match (range, part) {
        (None, None) => return Ok((0..size, None)),
        (Some(asked), None) => asked
            .check(size)
            .map_err(|_| refused(Refusal::InvalidRange))?,
        (None, Some(number)) => {
            let number = super::multipart::part_number(number)?;
            object.part(number).ok_or(refused(Refusal::NoSuchPart))?
        }
        // [unverified: S3's wording]
        (Some(_), Some(_)) => {
            return Err(error(
                S3ErrorCode::InvalidRequest,
                "Cannot specify both Range header and partNumber query parameter",
            ))
        }
    };
    // An empty object's part 1 is all of it, and no range of bytes can name it.
    if range.is_empty() {
        return Ok((range, None));
    }
    let text = format!("bytes {}-{}/{size}", range.start, range.end - 1);
    Ok((range, Some(text)))
}

/// `x-amz-mp-parts-count`: how many parts a multipart upload made the object of.
fn parts_count(object: &Object) -> Option<i32> {
    object.parts_count().and_then(|n| i32::try_from(n).ok())
}

/// Whether `x-amz-checksum-mode` asks for the checksum.
fn enabled(mode: Option<&str>) -> bool {
    mode.is_some_and(|m| m.eq_ignore_ascii_case("ENABLED"))
}

/// The bytes from `start` to `end` as a response body: sharing the object's buffers, or
/// read from its files a chunk at a time on a blocking thread, a few chunks ahead of the
/// connection (the channel's bound is what a GET of any size holds).
pub fn blob(data: &Data, start: u64, end: u64) -> StreamingBlob {
    if data.in_memory() {
        return StreamingBlob::wrap(Chunks(data.chunks(start, end).into()));
    }
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    let data = data.clone();
    tokio::task::spawn_blocking(move || {
        // A send that fails is a connection gone: stop reading.
        let read = data.read(start, end, &mut |chunk| tx.blocking_send(Ok(chunk)).is_ok());
        if let Err(e) = read {
            tracing::error!(error = %e, "reading an object's file failed");
            let _ = tx.blocking_send(Err(e));
        }
    });
    StreamingBlob::wrap(Reading(rx))
}

/// An object's file chunks as the blocking reader sends them.
struct Reading(tokio::sync::mpsc::Receiver<std::io::Result<bytes::Bytes>>);

impl futures_core::Stream for Reading {
    type Item = std::io::Result<bytes::Bytes>;

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.get_mut().0.poll_recv(cx)
    }
}

/// An object's buffers, handed to the connection one by one.
struct Chunks(std::collections::VecDeque<bytes::Bytes>);

impl futures_core::Stream for Chunks {
    type Item = Result<bytes::Bytes, std::convert::Infallible>;

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        std::task::Poll::Ready(self.get_mut().0.pop_front().map(Ok))
    }
}
