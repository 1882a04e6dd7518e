//! S3's operations on sqslite's engine, as the s3s adapter calls them: each takes its typed
//! input (the gate has checked it by its action-list row first), calls the engine and fills
//! its typed output. The operations sqslite does not serve are s3s's defaults, S3's
//! NotImplemented.

pub mod body;
mod buckets;
mod checksums;
mod config;
pub mod copy;
mod delete;
mod headers;
mod listing;
mod multipart;
mod notifications;
mod objects;
mod uploads;

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use s3s::dto::Timestamp;
use s3s::{S3Request, S3Response, S3Result, S3};

use super::actions::Gate;
use super::call::Call;
use super::engine::Store;
use super::error::access_denied;
use crate::clock::{Millis, SharedClock};

/// The operations over the store.
pub struct Ops {
    /// The buckets.
    pub store: Arc<Store>,
    /// The server's clock: Last-Modified and creation dates.
    pub clock: SharedClock,
    /// The gate, which DeleteObjects asks per key.
    pub gate: Gate,
    /// What sends the buckets' events.
    pub notifier: Arc<super::notify::Notifier>,
}

/// The front door's word on the request.
fn call<T>(req: &S3Request<T>) -> S3Result<&Call> {
    req.extensions.get::<Call>().ok_or_else(access_denied)
}

/// An instant as s3s writes it.
pub fn timestamp(at: Millis) -> Timestamp {
    Timestamp::from(UNIX_EPOCH + Duration::from_millis(at))
}

/// A timestamp as an instant (before 1970 as 1970).
pub fn millis(at: &Timestamp) -> Millis {
    let at = time::OffsetDateTime::from(at.clone());
    u64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(0)
}

/// Declares the served operations' methods, each handed to its `Ops` method of the same name.
macro_rules! served {
    ($($op:ident: $input:ident => $output:ident;)*) => {
        #[async_trait::async_trait]
        impl S3 for Ops {
            $(
                async fn $op(
                    &self,
                    req: S3Request<s3s::dto::$input>,
                ) -> S3Result<S3Response<s3s::dto::$output>> {
                    Ops::$op(self, req).await
                }
            )*
        }
    };
}

served! {
    create_bucket: CreateBucketInput => CreateBucketOutput;
    head_bucket: HeadBucketInput => HeadBucketOutput;
    delete_bucket: DeleteBucketInput => DeleteBucketOutput;
    list_buckets: ListBucketsInput => ListBucketsOutput;
    get_bucket_location: GetBucketLocationInput => GetBucketLocationOutput;
    put_object: PutObjectInput => PutObjectOutput;
    get_object: GetObjectInput => GetObjectOutput;
    head_object: HeadObjectInput => HeadObjectOutput;
    delete_object: DeleteObjectInput => DeleteObjectOutput;
    delete_objects: DeleteObjectsInput => DeleteObjectsOutput;
    copy_object: CopyObjectInput => CopyObjectOutput;
    list_objects: ListObjectsInput => ListObjectsOutput;
    list_objects_v2: ListObjectsV2Input => ListObjectsV2Output;
    put_bucket_policy: PutBucketPolicyInput => PutBucketPolicyOutput;
    get_bucket_policy: GetBucketPolicyInput => GetBucketPolicyOutput;
    delete_bucket_policy: DeleteBucketPolicyInput => DeleteBucketPolicyOutput;
    put_bucket_tagging: PutBucketTaggingInput => PutBucketTaggingOutput;
    get_bucket_tagging: GetBucketTaggingInput => GetBucketTaggingOutput;
    delete_bucket_tagging: DeleteBucketTaggingInput => DeleteBucketTaggingOutput;
    put_object_tagging: PutObjectTaggingInput => PutObjectTaggingOutput;
    get_object_tagging: GetObjectTaggingInput => GetObjectTaggingOutput;
    delete_object_tagging: DeleteObjectTaggingInput => DeleteObjectTaggingOutput;
    create_multipart_upload: CreateMultipartUploadInput => CreateMultipartUploadOutput;
    upload_part: UploadPartInput => UploadPartOutput;
    upload_part_copy: UploadPartCopyInput => UploadPartCopyOutput;
    complete_multipart_upload: CompleteMultipartUploadInput => CompleteMultipartUploadOutput;
    abort_multipart_upload: AbortMultipartUploadInput => AbortMultipartUploadOutput;
    list_parts: ListPartsInput => ListPartsOutput;
    list_multipart_uploads: ListMultipartUploadsInput => ListMultipartUploadsOutput;
    put_bucket_notification_configuration: PutBucketNotificationConfigurationInput => PutBucketNotificationConfigurationOutput;
    get_bucket_notification_configuration: GetBucketNotificationConfigurationInput => GetBucketNotificationConfigurationOutput;
}
