//! ListObjects and ListObjectsV2: a bucket's keys by prefix, rolled up by a delimiter, a page
//! at a time (V2 pages by an opaque continuation token, V1 by a marker), keys URL-encoded when
//! `encoding-type=url` asks.

use base64::Engine as _;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use s3s::dto::{
    CommonPrefix, ETag, EncodingType, ListObjectsInput, ListObjectsOutput, ListObjectsV2Input,
    ListObjectsV2Output, Object, ObjectStorageClass,
};
use s3s::{S3ErrorCode, S3Request, S3Response, S3Result};

use super::buckets::owner;
use super::{timestamp, Ops};
use crate::s3::engine::listing::{Page, Query};
use crate::s3::error::{error, refused};

/// The most keys a page holds, and the page when `max-keys` does not say.
const MAX_KEYS: i32 = 1000;

/// What `encoding-type=url` leaves as it is: the unreserved characters and `/` (a space is
/// `%20`, which decoders of both `+` and `%20` read back) [unverified: S3's own choice of
/// escapes is not documented].
const KEPT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b'/');

/// A page's size from `max-keys`.
fn page_size(max_keys: Option<i32>) -> S3Result<usize> {
    match max_keys {
        Some(n) if n < 0 => Err(error(
            S3ErrorCode::InvalidArgument,
            "Argument maxKeys must be an integer between 0 and 2147483647",
        )),
        Some(n) => Ok(n.min(MAX_KEYS) as usize),
        None => Ok(MAX_KEYS as usize),
    }
}

/// Text as the listing writes it: URL-encoded when asked.
struct Encode(bool);

impl Encode {
    fn of(encoding: Option<&EncodingType>) -> S3Result<Encode> {
        match encoding.map(EncodingType::as_str) {
            None => Ok(Encode(false)),
            Some(e) if e.eq_ignore_ascii_case("url") => Ok(Encode(true)),
            Some(_) => Err(error(
                S3ErrorCode::InvalidArgument,
                "Invalid Encoding Method specified in Request",
            )),
        }
    }

    fn text(&self, text: &str) -> String {
        if self.0 {
            utf8_percent_encode(text, KEPT).to_string()
        } else {
            text.to_owned()
        }
    }

    fn opt(&self, text: Option<&String>) -> Option<String> {
        text.map(|t| self.text(t))
    }
}

/// The page's keys and common prefixes as S3 lists them.
fn entries(
    page: &Page,
    encode: &Encode,
    with_owner: Option<&str>,
) -> (Vec<Object>, Vec<CommonPrefix>) {
    let objects = page
        .objects
        .iter()
        .map(|(key, o)| Object {
            e_tag: Some(ETag::Strong(o.etag.clone())),
            key: Some(encode.text(key)),
            last_modified: Some(timestamp(o.modified)),
            owner: with_owner.map(owner),
            size: i64::try_from(o.size()).ok(),
            storage_class: Some(ObjectStorageClass::from_static(
                ObjectStorageClass::STANDARD,
            )),
            ..Object::default()
        })
        .collect();
    let prefixes = page
        .prefixes
        .iter()
        .map(|p| CommonPrefix {
            prefix: Some(encode.text(p)),
        })
        .collect();
    (objects, prefixes)
}

impl Ops {
    pub(super) async fn list_objects_v2(
        &self,
        req: S3Request<ListObjectsV2Input>,
    ) -> S3Result<S3Response<ListObjectsV2Output>> {
        let input = req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let encode = Encode::of(input.encoding_type.as_ref())?;
        let token = match &input.continuation_token {
            Some(t) => Some(from_token(t)?),
            None => None,
        };
        let after = token.as_deref().or(input.start_after.as_deref());
        let max = page_size(input.max_keys)?;
        let query = Query {
            prefix: input.prefix.as_deref().unwrap_or(""),
            delimiter: input.delimiter.as_deref(),
            after,
            max,
        };
        let page = bucket.list(&query).map_err(refused)?;
        let fetch_owner = input
            .fetch_owner
            .unwrap_or(false)
            .then_some(bucket.owner.as_str());
        let (contents, prefixes) = entries(&page, &encode, fetch_owner);
        let next = page
            .truncated
            .then(|| page.last.as_deref().map(to_token))
            .flatten();
        Ok(S3Response::new(ListObjectsV2Output {
            name: Some(input.bucket.clone()),
            prefix: Some(encode.text(query.prefix)),
            max_keys: Some(max as i32),
            key_count: Some((contents.len() + prefixes.len()) as i32),
            continuation_token: input.continuation_token.clone(),
            is_truncated: Some(page.truncated),
            next_continuation_token: next,
            contents: Some(contents),
            common_prefixes: Some(prefixes),
            delimiter: encode.opt(input.delimiter.as_ref()),
            encoding_type: input.encoding_type.clone(),
            start_after: encode.opt(input.start_after.as_ref()),
            request_charged: None,
        }))
    }

    pub(super) async fn list_objects(
        &self,
        req: S3Request<ListObjectsInput>,
    ) -> S3Result<S3Response<ListObjectsOutput>> {
        let input = req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let encode = Encode::of(input.encoding_type.as_ref())?;
        let max = page_size(input.max_keys)?;
        let query = Query {
            prefix: input.prefix.as_deref().unwrap_or(""),
            delimiter: input.delimiter.as_deref(),
            after: input.marker.as_deref().filter(|m| !m.is_empty()),
            max,
        };
        let page = bucket.list(&query).map_err(refused)?;
        let (contents, prefixes) = entries(&page, &encode, Some(&bucket.owner));
        // S3 names the next marker only when a delimiter rolls keys up; without one the
        // last key listed is the next marker.
        let next = (page.truncated && input.delimiter.is_some())
            .then(|| page.last.as_deref().map(|l| encode.text(l)))
            .flatten();
        Ok(S3Response::new(ListObjectsOutput {
            name: Some(input.bucket.clone()),
            prefix: Some(encode.text(query.prefix)),
            marker: Some(encode.text(input.marker.as_deref().unwrap_or(""))),
            max_keys: Some(max as i32),
            is_truncated: Some(page.truncated),
            contents: Some(contents),
            common_prefixes: Some(prefixes),
            delimiter: encode.opt(input.delimiter.as_ref()),
            next_marker: next,
            encoding_type: input.encoding_type.clone(),
            request_charged: None,
        }))
    }
}

/// A continuation token: the last entry listed, base64 (opaque to clients, as S3's are).
fn to_token(last: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(last)
}

/// The entry a continuation token names.
fn from_token(token: &str) -> S3Result<String> {
    base64::engine::general_purpose::STANDARD
        .decode(token)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(|| {
            error(
                S3ErrorCode::InvalidArgument,
                "The continuation token provided is incorrect",
            )
        })
}
