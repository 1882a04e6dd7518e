//! CopyObject, and the copy source it shares with UploadPartCopy: `x-amz-copy-source`,
//! `<bucket>/<key>` URL-encoded (a leading `/` and a `?versionId=` allowed), read only if its
//! `x-amz-copy-source-if-*` conditions hold. The copy shares the source's buffers.

use std::sync::Arc;

use s3s::dto::{
    CopyObjectInput, CopyObjectOutput, CopyObjectResult, CopySource, ETag, MetadataDirective,
    TaggingDirective,
};
use s3s::{S3ErrorCode, S3Request, S3Response, S3Result};

use super::objects::read_condition;
use super::{millis, timestamp, Ops};
use crate::s3::engine::conditions::{Read, Write};
use crate::s3::engine::multipart::MAX_PART;
use crate::s3::engine::object::{etag_of, Meta, Object};
use crate::s3::engine::tags;
use crate::s3::error::{error, refused};

/// The bucket and key `header` names.
pub fn source(header: &str) -> Option<(String, String)> {
    let header = header.strip_prefix('/').unwrap_or(header);
    let path = header.split_once("?versionId=").map_or(header, |(p, _)| p);
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    let (bucket, key) = decoded.split_once('/')?;
    (!bucket.is_empty() && !key.is_empty()).then(|| (bucket.to_owned(), key.to_owned()))
}

/// The bucket and key of a parsed copy source.
pub fn named(source: &CopySource) -> S3Result<(&str, &str)> {
    match source {
        CopySource::Bucket { bucket, key, .. } => Ok((bucket, key)),
        CopySource::AccessPoint { .. } | CopySource::Outpost { .. } => Err(error(
            S3ErrorCode::NotImplemented,
            "A header you provided implies functionality that is not implemented",
        )),
    }
}

/// The source's conditions (`x-amz-copy-source-if-*`).
pub fn source_conditions(input: &mut CopyObjectInput) -> Read {
    read_condition(
        (
            input.copy_source_if_match.take(),
            input.copy_source_if_none_match.take(),
        ),
        (
            input.copy_source_if_modified_since.as_ref(),
            input.copy_source_if_unmodified_since.as_ref(),
        ),
    )
}

/// The copy's metadata: the source's (`COPY`, the default) or the request's (`REPLACE`);
/// its tags likewise by the tagging directive.
fn meta_of(input: &mut CopyObjectInput, source: &Meta) -> S3Result<Meta> {
    let replace = |d: Option<&str>| d.is_some_and(|d| d.eq_ignore_ascii_case("REPLACE"));
    let mut meta = if replace(
        input
            .metadata_directive
            .as_ref()
            .map(MetadataDirective::as_str),
    ) {
        Meta {
            content_type: input.content_type.take(),
            content_encoding: input.content_encoding.take(),
            content_disposition: input.content_disposition.take(),
            content_language: input.content_language.take(),
            cache_control: input.cache_control.take(),
            expires: input.expires.take().map(|t| millis(&t)),
            metadata: super::objects::metadata(input.metadata.take()),
            checksum: source.checksum.clone(),
            tags: source.tags.clone(),
        }
    } else {
        source.clone()
    };
    if replace(
        input
            .tagging_directive
            .as_ref()
            .map(TaggingDirective::as_str),
    ) {
        let text = input.tagging.take().unwrap_or_default();
        meta.tags = tags::from_query(&text).map_err(refused)?;
    }
    Ok(meta)
}

/// A copy's ETag: the source's, or for a multipart source the MD5 of its bytes (the copy is
/// one part).
async fn etag_for(source: &Object) -> S3Result<String> {
    if source.parts.is_none() {
        return Ok(source.etag.clone());
    }
    Ok(etag_of(&super::body::md5_of(&source.data).await?))
}

impl Ops {
    /// The object a copy reads, if its conditions hold and it may be copied at all.
    pub(super) fn copy_source(
        &self,
        (bucket, key): (&str, &str),
        conditions: &Read,
    ) -> S3Result<Arc<Object>> {
        let source = self
            .store
            .bucket(bucket)
            .and_then(|b| b.object(key))
            .map_err(refused)?;
        conditions.check_copy_source(&source).map_err(refused)?;
        Ok(source)
    }

    pub(super) async fn copy_object(
        &self,
        req: S3Request<CopyObjectInput>,
    ) -> S3Result<S3Response<CopyObjectOutput>> {
        let call = super::call(&req)?.clone();
        let mut input = req.input;
        let target = self.store.bucket(&input.bucket).map_err(refused)?;
        let conditions = source_conditions(&mut input);
        let (from_bucket, from_key) = named(&input.copy_source)?;
        let itself = (from_bucket, from_key) == (input.bucket.as_str(), input.key.as_str());
        let source = self.copy_source((from_bucket, from_key), &conditions)?;
        if source.size() > MAX_PART {
            return Err(error(
                S3ErrorCode::InvalidRequest,
                format!(
                    "The specified copy source is larger than the maximum allowable size for a \
                     copy source: {MAX_PART}"
                ),
            ));
        }
        let meta = meta_of(&mut input, &source.meta)?;
        if itself && meta == source.meta {
            return Err(error(
                S3ErrorCode::InvalidRequest,
                "This copy request is illegal because it is trying to copy an object to itself \
                 without changing the object's metadata, storage class, website redirect location \
                 or encryption attributes.",
            ));
        }
        let object = Object {
            data: source.data.clone(),
            etag: etag_for(&source).await?,
            modified: self.clock.now(),
            meta,
            parts: None,
        };
        let stored = target
            .put(&input.key, object, &Write::default())
            .map_err(refused)?;
        let created = Some((stored.size(), stored.etag.as_str()));
        self.notify(&target, &call, ("ObjectCreated:Copy", &input.key), created);
        Ok(S3Response::new(CopyObjectOutput {
            copy_object_result: Some(CopyObjectResult {
                e_tag: Some(ETag::Strong(stored.etag.clone())),
                last_modified: Some(timestamp(stored.modified)),
                ..CopyObjectResult::default()
            }),
            ..CopyObjectOutput::default()
        }))
    }
}
