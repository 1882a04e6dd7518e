//! A bucket's Policy (Put/Get/DeleteBucketPolicy) and the bucket's and objects' tags
//! (Put/Get/DeleteBucketTagging, Put/Get/DeleteObjectTagging).

use s3s::dto::{
    DeleteBucketPolicyInput, DeleteBucketPolicyOutput, DeleteBucketTaggingInput,
    DeleteBucketTaggingOutput, DeleteObjectTaggingInput, DeleteObjectTaggingOutput,
    GetBucketPolicyInput, GetBucketPolicyOutput, GetBucketTaggingInput, GetBucketTaggingOutput,
    GetObjectTaggingInput, GetObjectTaggingOutput, PutBucketPolicyInput, PutBucketPolicyOutput,
    PutBucketTaggingInput, PutBucketTaggingOutput, PutObjectTaggingInput, PutObjectTaggingOutput,
    Tag, Tagging,
};
use s3s::{S3Request, S3Response, S3Result};

use super::Ops;
use crate::policy::{Policy, Quotas};
use crate::s3::engine::tags::Tags;
use crate::s3::engine::Refusal;
use crate::s3::error::refused;

/// A bucket policy's limits: 20 KB (S3 User Guide, "Bucket policy examples"); S3 publishes no
/// statement, action, principal or condition counts, so those are generous \[unverified\].
const QUOTAS: Quotas = Quotas {
    bytes: 20 * 1024,
    statements: 1000,
    actions: 1000,
    principals: 1000,
    conditions: 1000,
};

/// `text` as a bucket Policy, or S3's MalformedPolicy.
fn policy(text: &str) -> Result<Policy, Refusal> {
    if !text.trim_start().starts_with('{') {
        return Err(Refusal::MalformedPolicy(
            "Policies must be valid JSON and the first byte must be '{'",
        ));
    }
    Policy::parse_with(text, &QUOTAS)
        .map_err(|_| Refusal::MalformedPolicy("Policy has invalid statement or is too large"))
}

/// Tags as the engine keeps them.
fn tags_of(tagging: Tagging) -> Tags {
    tagging
        .tag_set
        .into_iter()
        .map(|t| (t.key.unwrap_or_default(), t.value.unwrap_or_default()))
        .collect()
}

/// Tags as S3 lists them.
fn tag_set(tags: &Tags) -> Vec<Tag> {
    tags.iter()
        .map(|(k, v)| Tag {
            key: Some(k.clone()),
            value: Some(v.clone()),
        })
        .collect()
}

impl Ops {
    pub(super) async fn put_bucket_policy(
        &self,
        req: S3Request<PutBucketPolicyInput>,
    ) -> S3Result<S3Response<PutBucketPolicyOutput>> {
        let bucket = self.store.bucket(&req.input.bucket).map_err(refused)?;
        let parsed = policy(&req.input.policy).map_err(refused)?;
        bucket.set_policy(Some(parsed)).map_err(refused)?;
        Ok(S3Response::new(PutBucketPolicyOutput::default()))
    }

    pub(super) async fn get_bucket_policy(
        &self,
        req: S3Request<GetBucketPolicyInput>,
    ) -> S3Result<S3Response<GetBucketPolicyOutput>> {
        let bucket = self.store.bucket(&req.input.bucket).map_err(refused)?;
        let policy = bucket.policy().map_err(refused)?;
        let text = policy.ok_or_else(|| refused(Refusal::NoSuchBucketPolicy))?;
        Ok(S3Response::new(GetBucketPolicyOutput {
            policy: Some(text.text().to_owned()),
        }))
    }

    pub(super) async fn delete_bucket_policy(
        &self,
        req: S3Request<DeleteBucketPolicyInput>,
    ) -> S3Result<S3Response<DeleteBucketPolicyOutput>> {
        let bucket = self.store.bucket(&req.input.bucket).map_err(refused)?;
        bucket.set_policy(None).map_err(refused)?;
        Ok(S3Response::new(DeleteBucketPolicyOutput::default()))
    }

    pub(super) async fn put_bucket_tagging(
        &self,
        req: S3Request<PutBucketTaggingInput>,
    ) -> S3Result<S3Response<PutBucketTaggingOutput>> {
        let input = req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        bucket
            .set_tags(Some(tags_of(input.tagging)))
            .map_err(refused)?;
        Ok(S3Response::new(PutBucketTaggingOutput::default()))
    }

    pub(super) async fn get_bucket_tagging(
        &self,
        req: S3Request<GetBucketTaggingInput>,
    ) -> S3Result<S3Response<GetBucketTaggingOutput>> {
        let bucket = self.store.bucket(&req.input.bucket).map_err(refused)?;
        let tags = bucket.tags().map_err(refused)?;
        Ok(S3Response::new(GetBucketTaggingOutput {
            tag_set: tag_set(&tags),
        }))
    }

    pub(super) async fn delete_bucket_tagging(
        &self,
        req: S3Request<DeleteBucketTaggingInput>,
    ) -> S3Result<S3Response<DeleteBucketTaggingOutput>> {
        let bucket = self.store.bucket(&req.input.bucket).map_err(refused)?;
        bucket.set_tags(None).map_err(refused)?;
        Ok(S3Response::new(DeleteBucketTaggingOutput::default()))
    }

    pub(super) async fn put_object_tagging(
        &self,
        req: S3Request<PutObjectTaggingInput>,
    ) -> S3Result<S3Response<PutObjectTaggingOutput>> {
        let input = req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let tags = tags_of(input.tagging);
        bucket.tag_object(&input.key, tags).map_err(refused)?;
        Ok(S3Response::new(PutObjectTaggingOutput::default()))
    }

    pub(super) async fn get_object_tagging(
        &self,
        req: S3Request<GetObjectTaggingInput>,
    ) -> S3Result<S3Response<GetObjectTaggingOutput>> {
        let input = req.input;
        let object = self
            .store
            .bucket(&input.bucket)
            .and_then(|b| b.object(&input.key))
            .map_err(refused)?;
        Ok(S3Response::new(GetObjectTaggingOutput {
            tag_set: tag_set(&object.meta.tags),
            version_id: None,
        }))
    }

    pub(super) async fn delete_object_tagging(
        &self,
        req: S3Request<DeleteObjectTaggingInput>,
    ) -> S3Result<S3Response<DeleteObjectTaggingOutput>> {
        let input = req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        bucket.tag_object(&input.key, Vec::new()).map_err(refused)?;
        Ok(S3Response::new(DeleteObjectTaggingOutput::default()))
    }
}
