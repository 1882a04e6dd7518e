//! ListParts and ListMultipartUploads: an upload's parts by number after a marker, and a
//! bucket's uploads in progress by key (then by when each started), a page at a time.

use s3s::dto::{
    CommonPrefix, ETag, Initiator, ListMultipartUploadsInput, ListMultipartUploadsOutput,
    ListPartsInput, ListPartsOutput, MultipartUpload, Part, StorageClass,
};
use s3s::{S3ErrorCode, S3Request, S3Response, S3Result};

use super::buckets::{canonical_id, owner};
use super::{timestamp, Ops};
use crate::s3::engine::multipart::Upload;
use crate::s3::error::{error, refused};

/// The most entries a page holds, and the page when the request does not say.
const PAGE: i32 = 1000;

/// A page's size from the request's maximum.
fn page(max: Option<i32>, name: &str) -> S3Result<usize> {
    match max {
        Some(n) if n < 0 => Err(error(
            S3ErrorCode::InvalidArgument,
            format!("Argument {name} must be an integer between 0 and 2147483647"),
        )),
        Some(n) => Ok(n.min(PAGE) as usize),
        None => Ok(PAGE as usize),
    }
}

/// Who started an upload, as S3 names an initiator.
fn initiator(account: &str) -> Initiator {
    Initiator {
        display_name: Some(account.to_owned()),
        id: Some(canonical_id(account)),
    }
}

fn standard() -> StorageClass {
    StorageClass::from_static(StorageClass::STANDARD)
}

impl Ops {
    pub(super) async fn list_parts(
        &self,
        req: S3Request<ListPartsInput>,
    ) -> S3Result<S3Response<ListPartsOutput>> {
        let input = &req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let upload = bucket
            .upload(&input.upload_id, &input.key)
            .map_err(refused)?;
        let max = page(input.max_parts, "max-parts")?;
        let after = input
            .part_number_marker
            .and_then(|m| u32::try_from(m).ok())
            .unwrap_or(0);
        let mut parts: Vec<Part> = upload
            .parts
            .range(after + 1..)
            .take(max + 1)
            .map(|(n, p)| {
                let mut part = Part {
                    e_tag: Some(ETag::Strong(p.etag.clone())),
                    last_modified: Some(timestamp(p.modified)),
                    part_number: i32::try_from(*n).ok(),
                    size: i64::try_from(p.data.len()).ok(),
                    ..Part::default()
                };
                super::checksums::listed(&mut part, upload.algorithm, p.checksum.as_deref());
                part
            })
            .collect();
        let truncated = parts.len() > max;
        parts.truncate(max);
        let next = truncated
            .then(|| parts.last().and_then(|p| p.part_number))
            .flatten();
        Ok(S3Response::new(ListPartsOutput {
            bucket: Some(input.bucket.clone()),
            key: Some(input.key.clone()),
            upload_id: Some(upload.id.clone()),
            initiator: Some(initiator(&upload.owner)),
            owner: Some(owner(&upload.owner)),
            storage_class: Some(standard()),
            part_number_marker: input.part_number_marker,
            next_part_number_marker: next,
            max_parts: Some(max as i32),
            is_truncated: Some(truncated),
            parts: Some(parts),
            ..ListPartsOutput::default()
        }))
    }

    pub(super) async fn list_multipart_uploads(
        &self,
        req: S3Request<ListMultipartUploadsInput>,
    ) -> S3Result<S3Response<ListMultipartUploadsOutput>> {
        let input = &req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let max = page(input.max_uploads, "max-uploads")?;
        let prefix = input.prefix.as_deref().unwrap_or("");
        let key_marker = input.key_marker.as_deref().unwrap_or("");
        let query = UploadQuery {
            prefix,
            delimiter: input.delimiter.as_deref().filter(|d| !d.is_empty()),
            key_marker,
            id_marker: input.upload_id_marker.as_deref(),
            max,
        };
        let listed = upload_page(bucket.uploads().map_err(refused)?, &query);
        let (next_key, next_id) = match listed.last.filter(|_| listed.truncated) {
            Some((key, id)) => (Some(key), Some(id)),
            None => (None, None),
        };
        let prefixes = listed.prefixes.into_iter();
        Ok(S3Response::new(ListMultipartUploadsOutput {
            bucket: Some(input.bucket.clone()),
            common_prefixes: Some(
                prefixes
                    .into_iter()
                    .map(|p| CommonPrefix { prefix: Some(p) })
                    .collect(),
            ),
            delimiter: input.delimiter.clone(),
            encoding_type: input.encoding_type.clone(),
            is_truncated: Some(listed.truncated),
            key_marker: Some(key_marker.to_owned()),
            max_uploads: Some(max as i32),
            next_key_marker: next_key,
            next_upload_id_marker: next_id,
            prefix: Some(prefix.to_owned()),
            upload_id_marker: input.upload_id_marker.clone(),
            uploads: Some(listed.uploads),
            request_charged: None,
        }))
    }
}

/// Which uploads to list.
struct UploadQuery<'a> {
    prefix: &'a str,
    delimiter: Option<&'a str>,
    key_marker: &'a str,
    id_marker: Option<&'a str>,
    max: usize,
}

/// One page of uploads.
#[derive(Default)]
struct UploadPage {
    uploads: Vec<MultipartUpload>,
    prefixes: Vec<String>,
    /// The last key and upload id listed.
    last: Option<(String, String)>,
    truncated: bool,
}

/// The page of `all` (sorted by key, then start) that `query` asks for.
fn upload_page(all: Vec<Upload>, query: &UploadQuery<'_>) -> UploadPage {
    let after = |u: &Upload| match query.id_marker {
        Some(id) if u.key == query.key_marker => u.id.as_str() > id,
        _ => u.key.as_str() > query.key_marker,
    };
    let mut page = UploadPage::default();
    for upload in all {
        if !upload.key.starts_with(query.prefix) || !after(&upload) {
            continue;
        }
        let rolled = query.delimiter.and_then(|d| {
            let rest = &upload.key[query.prefix.len()..];
            rest.find(d)
                .map(|at| upload.key[..query.prefix.len() + at + d.len()].to_owned())
        });
        if rolled
            .as_ref()
            .is_some_and(|r| page.prefixes.last() == Some(r))
        {
            continue;
        }
        if page.uploads.len() + page.prefixes.len() == query.max {
            page.truncated = true;
            break;
        }
        page.last = Some((upload.key.clone(), upload.id.clone()));
        if let Some(common) = rolled {
            page.prefixes.push(common);
        } else {
            page.uploads.push(MultipartUpload {
                initiated: Some(timestamp(upload.initiated)),
                initiator: Some(initiator(&upload.owner)),
                key: Some(upload.key.clone()),
                owner: Some(owner(&upload.owner)),
                storage_class: Some(standard()),
                upload_id: Some(upload.id.clone()),
                ..MultipartUpload::default()
            });
        }
    }
    page
}
