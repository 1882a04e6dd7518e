//! CreateBucket, HeadBucket, DeleteBucket, ListBuckets and GetBucketLocation.

use s3s::dto::{
    Bucket, BucketLocationConstraint, CreateBucketInput, CreateBucketOutput, DeleteBucketInput,
    DeleteBucketOutput, GetBucketLocationInput, GetBucketLocationOutput, HeadBucketInput,
    HeadBucketOutput, ListBucketsInput, ListBucketsOutput, Owner,
};
use s3s::{S3ErrorCode, S3Request, S3Response, S3Result};
use sha2::{Digest, Sha256};

use super::{call, timestamp, Ops};
use crate::s3::error::{error, refused};

/// The region S3 writes as no LocationConstraint at all.
const DEFAULT_REGION: &str = "us-east-1";
/// ListBuckets' page when MaxBuckets does not say.
const MAX_BUCKETS: usize = 10_000;

/// An account's canonical user id as S3 shows owners: 64 hex digits, stable per account.
pub fn canonical_id(account: &str) -> String {
    crate::s3::engine::object::etag_of(&Sha256::digest(format!("sqslite:{account}").as_bytes()))
}

/// The owner element of `account`.
pub fn owner(account: &str) -> Owner {
    Owner {
        display_name: Some(account.to_owned()),
        id: Some(canonical_id(account)),
    }
}

impl Ops {
    pub(super) async fn create_bucket(
        &self,
        req: S3Request<CreateBucketInput>,
    ) -> S3Result<S3Response<CreateBucketOutput>> {
        let call = call(&req)?;
        let input = &req.input;
        let constraint = input
            .create_bucket_configuration
            .as_ref()
            .and_then(|c| c.location_constraint.as_ref())
            .map(|c| c.as_str().to_owned());
        // S3 refuses us-east-1 named as a constraint: it is the region of no constraint.
        if constraint.as_deref() == Some(DEFAULT_REGION) {
            return Err(error(
                S3ErrorCode::InvalidLocationConstraint,
                "The specified location-constraint is not valid",
            ));
        }
        let region = constraint.unwrap_or_else(|| call.region.clone());
        self.store
            .create(&input.bucket, &call.account, &region, self.clock.now())
            .map_err(refused)?;
        Ok(S3Response::new(CreateBucketOutput {
            location: Some(format!("/{}", input.bucket)),
        }))
    }

    pub(super) async fn head_bucket(
        &self,
        req: S3Request<HeadBucketInput>,
    ) -> S3Result<S3Response<HeadBucketOutput>> {
        let bucket = self.store.bucket(&req.input.bucket).map_err(refused)?;
        Ok(S3Response::new(HeadBucketOutput {
            bucket_region: Some(bucket.region.clone()),
            ..HeadBucketOutput::default()
        }))
    }

    pub(super) async fn delete_bucket(
        &self,
        req: S3Request<DeleteBucketInput>,
    ) -> S3Result<S3Response<DeleteBucketOutput>> {
        self.store.delete(&req.input.bucket).map_err(refused)?;
        Ok(S3Response::new(DeleteBucketOutput::default()))
    }

    pub(super) async fn list_buckets(
        &self,
        req: S3Request<ListBucketsInput>,
    ) -> S3Result<S3Response<ListBucketsOutput>> {
        let call = call(&req)?;
        let input = &req.input;
        let max = input
            .max_buckets
            .and_then(|m| usize::try_from(m).ok())
            .unwrap_or(MAX_BUCKETS);
        let prefix = input.prefix.as_deref().unwrap_or("");
        let after = input.continuation_token.as_deref().unwrap_or("");
        let mut buckets: Vec<Bucket> = self
            .store
            .owned_by(&call.account)
            .into_iter()
            .filter(|b| b.name.starts_with(prefix) && b.name.as_str() > after)
            .filter(|b| input.bucket_region.as_ref().is_none_or(|r| *r == b.region))
            .map(|b| Bucket {
                bucket_region: Some(b.region.clone()),
                creation_date: Some(timestamp(b.created)),
                name: Some(b.name.clone()),
            })
            .take(max + 1)
            .collect();
        let more = buckets.len() > max;
        buckets.truncate(max);
        let token = more
            .then(|| buckets.last().and_then(|b| b.name.clone()))
            .flatten();
        Ok(S3Response::new(ListBucketsOutput {
            buckets: Some(buckets),
            continuation_token: token,
            owner: Some(owner(&call.account)),
            prefix: input.prefix.clone(),
        }))
    }

    pub(super) async fn get_bucket_location(
        &self,
        req: S3Request<GetBucketLocationInput>,
    ) -> S3Result<S3Response<GetBucketLocationOutput>> {
        let bucket = self.store.bucket(&req.input.bucket).map_err(refused)?;
        let constraint = (bucket.region != DEFAULT_REGION)
            .then(|| BucketLocationConstraint::from(bucket.region.clone()));
        Ok(S3Response::new(GetBucketLocationOutput {
            location_constraint: constraint,
        }))
    }
}
