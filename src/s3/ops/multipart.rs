//! Multipart uploads: CreateMultipartUpload, UploadPart, UploadPartCopy,
//! CompleteMultipartUpload, AbortMultipartUpload, ListParts and ListMultipartUploads.

use std::collections::BTreeMap;

use s3s::dto::{
    AbortMultipartUploadInput, AbortMultipartUploadOutput, CompleteMultipartUploadInput,
    CompleteMultipartUploadOutput, CopyPartResult, CreateMultipartUploadInput,
    CreateMultipartUploadOutput, ETag, UploadPartCopyInput, UploadPartCopyOutput, UploadPartInput,
    UploadPartOutput,
};
use s3s::{S3ErrorCode, S3Request, S3Response, S3Result};

use super::body;
use super::objects::{metadata, read_condition, write_condition};
use super::{call, millis, timestamp, Ops};
use crate::s3::engine::multipart::{Named, Part, Upload, MAX_PART, MAX_PARTS};
use crate::s3::engine::object::{etag_of, Meta};
use crate::s3::engine::{tags, Refusal};
use crate::s3::error::{error, refused};

/// A part number S3 accepts: 1 to 10,000.
pub(super) fn part_number(n: i32) -> S3Result<u32> {
    u32::try_from(n)
        .ok()
        .filter(|n| (1..=MAX_PARTS).contains(n))
        .ok_or_else(|| {
            error(
                S3ErrorCode::InvalidArgument,
                "Part number must be an integer between 1 and 10000, inclusive",
            )
        })
}

/// A new upload id: random, opaque, URL-safe.
fn upload_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

impl Ops {
    pub(super) async fn create_multipart_upload(
        &self,
        req: S3Request<CreateMultipartUploadInput>,
    ) -> S3Result<S3Response<CreateMultipartUploadOutput>> {
        let call = call(&req)?;
        let input = &req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let algorithm = match &input.checksum_algorithm {
            Some(a) => Some(body::algorithm(a.as_str())?),
            None => None,
        };
        let tags = match &input.tagging {
            Some(text) => tags::from_query(text).map_err(refused)?,
            None => Vec::new(),
        };
        let upload = Upload {
            id: upload_id(),
            key: input.key.clone(),
            initiated: self.clock.now(),
            owner: call.account.clone(),
            meta: Meta {
                content_type: input.content_type.clone(),
                content_encoding: input.content_encoding.clone(),
                content_disposition: input.content_disposition.clone(),
                content_language: input.content_language.clone(),
                cache_control: input.cache_control.clone(),
                expires: input.expires.as_ref().map(millis),
                metadata: metadata(input.metadata.clone()),
                checksum: None,
                tags,
            },
            algorithm,
            parts: BTreeMap::new(),
        };
        let id = upload.id.clone();
        bucket.start_upload(upload).map_err(refused)?;
        Ok(S3Response::new(CreateMultipartUploadOutput {
            bucket: Some(input.bucket.clone()),
            key: Some(input.key.clone()),
            upload_id: Some(id),
            checksum_algorithm: input.checksum_algorithm.clone(),
            ..CreateMultipartUploadOutput::default()
        }))
    }

    pub(super) async fn upload_part(
        &self,
        req: S3Request<UploadPartInput>,
    ) -> S3Result<S3Response<UploadPartOutput>> {
        let call = call(&req)?.clone();
        let trailer = body::trailer(&req.headers);
        let mut input = req.input;
        let number = part_number(input.part_number)?;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let upload = bucket
            .upload(&input.upload_id, &input.key)
            .map_err(refused)?;
        let declared = body::declared!(input, trailer.as_deref(), upload.algorithm);
        let length = input.content_length.and_then(|n| u64::try_from(n).ok());
        let sink = body::Sink::new(&self.store, length, MAX_PART)?;
        let (data, md5, checksum) = body::read(input.body.take(), sink, &declared, &call).await?;
        let part = Part {
            data,
            etag: etag_of(&md5),
            modified: self.clock.now(),
            checksum: checksum.as_ref().map(|c| c.value.clone()),
        };
        let etag = part.etag.clone();
        bucket
            .put_part((&input.upload_id, &input.key), number, part)
            .map_err(refused)?;
        Ok(S3Response::new(UploadPartOutput {
            e_tag: Some(ETag::Strong(etag)),
            ..super::checksums::part(checksum.as_ref())
        }))
    }

    pub(super) async fn upload_part_copy(
        &self,
        req: S3Request<UploadPartCopyInput>,
    ) -> S3Result<S3Response<UploadPartCopyOutput>> {
        let input = req.input;
        let number = part_number(input.part_number)?;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        bucket
            .upload(&input.upload_id, &input.key)
            .map_err(refused)?;
        let conditions = read_condition(
            (input.copy_source_if_match, input.copy_source_if_none_match),
            (
                input.copy_source_if_modified_since.as_ref(),
                input.copy_source_if_unmodified_since.as_ref(),
            ),
        );
        let source = self.copy_source(super::copy::named(&input.copy_source)?, &conditions)?;
        let (start, end) = match &input.copy_source_range {
            Some(range) => copy_range(range, source.size())?,
            None => (0, source.size()),
        };
        if end - start > MAX_PART {
            return Err(refused(Refusal::EntityTooLarge(format!(
                "Your proposed upload exceeds the maximum allowed size of {MAX_PART} bytes."
            ))));
        }
        let data = source.data.slice(start, end);
        let digest = body::md5_of(&data).await?;
        let now = self.clock.now();
        let part = Part {
            data,
            etag: etag_of(&digest),
            modified: now,
            checksum: None,
        };
        let etag = part.etag.clone();
        bucket
            .put_part((&input.upload_id, &input.key), number, part)
            .map_err(refused)?;
        Ok(S3Response::new(UploadPartCopyOutput {
            copy_part_result: Some(CopyPartResult {
                e_tag: Some(ETag::Strong(etag)),
                last_modified: Some(timestamp(now)),
                ..CopyPartResult::default()
            }),
            ..UploadPartCopyOutput::default()
        }))
    }

    pub(super) async fn complete_multipart_upload(
        &self,
        req: S3Request<CompleteMultipartUploadInput>,
    ) -> S3Result<S3Response<CompleteMultipartUploadOutput>> {
        let call = call(&req)?.clone();
        let input = req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let condition = write_condition(input.if_match, input.if_none_match)?;
        let named = input
            .multipart_upload
            .and_then(|m| m.parts)
            .unwrap_or_default()
            .into_iter()
            .map(|p| Named {
                number: u32::try_from(p.part_number.unwrap_or(0)).unwrap_or(0),
                etag: p.e_tag.map(ETag::into_value).unwrap_or_default(),
            })
            .collect::<Vec<_>>();
        let object = bucket
            .complete(
                (&input.upload_id, &input.key),
                &named,
                &condition,
                self.clock.now(),
            )
            .map_err(refused)?;
        let created = Some((object.size(), object.etag.as_str()));
        let event = ("ObjectCreated:CompleteMultipartUpload", input.key.as_str());
        self.notify(&bucket, &call, event, created);
        Ok(S3Response::new(CompleteMultipartUploadOutput {
            bucket: Some(input.bucket.clone()),
            key: Some(input.key.clone()),
            location: Some(format!("/{}/{}", input.bucket, input.key)),
            e_tag: Some(ETag::Strong(object.etag.clone())),
            ..CompleteMultipartUploadOutput::default()
        }))
    }

    pub(super) async fn abort_multipart_upload(
        &self,
        req: S3Request<AbortMultipartUploadInput>,
    ) -> S3Result<S3Response<AbortMultipartUploadOutput>> {
        let input = &req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        bucket
            .abort(&input.upload_id, &input.key)
            .map_err(refused)?;
        Ok(S3Response::new(AbortMultipartUploadOutput::default()))
    }
}

/// `x-amz-copy-source-range: bytes=<first>-<last>` within an object of `size` bytes, as a
/// start and an (exclusive) end.
fn copy_range(range: &str, size: u64) -> S3Result<(u64, u64)> {
    let invalid = || {
        error(
            S3ErrorCode::InvalidArgument,
            "The x-amz-copy-source-range value must be of the form bytes=first-last where first \
             and last are the zero-based offsets of the first and last bytes to copy",
        )
    };
    let (first, last) = range
        .strip_prefix("bytes=")
        .and_then(|r| r.split_once('-'))
        .ok_or_else(invalid)?;
    let first: u64 = first.trim().parse().map_err(|_| invalid())?;
    let last: u64 = last.trim().parse().map_err(|_| invalid())?;
    if first > last || last >= size {
        return Err(refused(Refusal::InvalidRange));
    }
    Ok((first, last + 1))
}
