//! S3's action list: every operation sqslite serves, the IAM action it is authorized as and
//! the rule it is checked by, in one table; the gate ([`Gate`]) checks each request by its row
//! before its input is even read, so no operation runs unchecked, and an operation without a
//! row is S3's NotImplemented. Checks apply to a verified caller (`[[credentials]]`), as
//! every service's do: the bucket belongs to the account that created it, and another account
//! gets what the bucket's Policy allows (`s3:` actions on `arn:aws:s3:::<bucket>[/<key>]`,
//! read by the shared evaluator; an explicit Deny binds the owner too).

use std::sync::Arc;

use s3s::access::{S3Access, S3AccessContext};
use s3s::path::S3Path;
use s3s::{S3ErrorCode, S3Result};

use super::call::Call;
use super::engine::Store;
use super::error::{access_denied, error};
use crate::clock::SharedClock;
use crate::policy::{Caller, Decision};

/// The rule an operation is checked by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Acts in the caller's own account (ListBuckets, CreateBucket).
    Own,
    /// On the bucket it names: the owner's account, or what the bucket's Policy allows.
    Bucket,
    /// On the object it names (`<bucket>/<key>`): the owner's account, or the Policy.
    Object,
    /// The bucket owner's account only: a Policy cannot grant it (the Policy's own operations).
    Owner,
    /// On each key its body names (DeleteObjects): the operation asks the gate per key.
    Keys,
    /// On the object it writes, and `s3:GetObject` on the one it copies from
    /// (`x-amz-copy-source`).
    Copy,
}

/// Declares the list: each operation's name, IAM action and rule.
macro_rules! actions {
    ($($name:ident => $iam:ident, $access:ident;)*) => {
        /// The operations' names, as s3s routes them and the router counts them.
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];
        /// Each operation's IAM action (`s3:<action>`) and rule, in the order of [`NAMES`].
        pub const ACCESS: &[(&str, Access)] = &[$((stringify!($iam), Access::$access)),*];
        /// Each operation's name, rule and IAM action as text, for the tests' tables.
        pub const TABLE: &[(&str, &str, &str)] =
            &[$((stringify!($name), stringify!($access), stringify!($iam))),*];
    };
}

actions! {
    ListBuckets => ListAllMyBuckets, Own;
    CreateBucket => CreateBucket, Own;
    HeadBucket => ListBucket, Bucket;
    DeleteBucket => DeleteBucket, Bucket;
    GetBucketLocation => GetBucketLocation, Bucket;
    PutBucketPolicy => PutBucketPolicy, Owner;
    GetBucketPolicy => GetBucketPolicy, Owner;
    DeleteBucketPolicy => DeleteBucketPolicy, Owner;
    GetBucketTagging => GetBucketTagging, Bucket;
    PutBucketTagging => PutBucketTagging, Bucket;
    DeleteBucketTagging => PutBucketTagging, Bucket;
    ListObjects => ListBucket, Bucket;
    ListObjectsV2 => ListBucket, Bucket;
    PutObject => PutObject, Object;
    GetObject => GetObject, Object;
    HeadObject => GetObject, Object;
    DeleteObject => DeleteObject, Object;
    DeleteObjects => DeleteObject, Keys;
    CopyObject => PutObject, Copy;
    GetObjectTagging => GetObjectTagging, Object;
    PutObjectTagging => PutObjectTagging, Object;
    DeleteObjectTagging => DeleteObjectTagging, Object;
    CreateMultipartUpload => PutObject, Object;
    UploadPart => PutObject, Object;
    UploadPartCopy => PutObject, Copy;
    CompleteMultipartUpload => PutObject, Object;
    AbortMultipartUpload => AbortMultipartUpload, Object;
    ListParts => ListMultipartUploadParts, Object;
    ListMultipartUploads => ListBucketMultipartUploads, Bucket;
    PutBucketNotificationConfiguration => PutBucketNotification, Bucket;
    GetBucketNotificationConfiguration => GetBucketNotification, Bucket;
}

/// The gate: checks each request by its operation's row.
#[derive(Clone)]
pub struct Gate {
    /// The buckets, their owners and Policies.
    pub store: Arc<Store>,
    /// The server's clock (aws:CurrentTime).
    pub clock: SharedClock,
}

#[async_trait::async_trait]
impl S3Access for Gate {
    async fn check(&self, cx: &mut S3AccessContext<'_>) -> S3Result<()> {
        let name = cx.s3_op().name();
        let Some(index) = NAMES.iter().position(|n| *n == name) else {
            return Err(error(
                S3ErrorCode::NotImplemented,
                "A header you provided implies functionality that is not implemented",
            ));
        };
        let call = cx
            .extensions_mut()
            .get::<Call>()
            .cloned()
            .ok_or_else(access_denied)?;
        let _ = call.action.set(index);
        let (iam, rule) = ACCESS[index];
        let (bucket, key) = match cx.s3_path() {
            S3Path::Root => (None, None),
            S3Path::Bucket { bucket } => (Some(&**bucket), None),
            S3Path::Object { bucket, key } => (Some(&**bucket), Some(&**key)),
        };
        let header = |name: &str| {
            cx.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let copy_source = header("x-amz-copy-source");
        if let (Some(expected), Some(b)) = (header("x-amz-expected-bucket-owner"), bucket) {
            if !self.owned_by(b, &expected) {
                return Err(access_denied());
            }
        }
        let ask = Ask { call: &call, iam };
        let allowed = match (rule, bucket) {
            (Access::Own | Access::Keys, _) | (_, None) => true,
            (Access::Owner, Some(b)) => self.owner(&call, b),
            (Access::Bucket, Some(b)) => self.allows(&ask, b, None),
            (Access::Object, Some(b)) => self.allows(&ask, b, key),
            (Access::Copy, Some(b)) => {
                self.allows(&ask, b, key) && self.may_read(&call, copy_source.as_deref())
            }
        };
        if allowed {
            Ok(())
        } else {
            Err(access_denied())
        }
    }
}

/// One question to a bucket's Policy: who asks for which action.
pub struct Ask<'a> {
    /// Who asks.
    pub call: &'a Call,
    /// The IAM action, without its `s3:` prefix.
    pub iam: &'a str,
}

impl Gate {
    /// Whether the caller's account owns `bucket` (a bucket that does not exist is left to
    /// the operation's NoSuchBucket).
    fn owner(&self, call: &Call, bucket: &str) -> bool {
        !call.verified
            || self
                .store
                .bucket(bucket)
                .map_or(true, |b| b.owner == call.account)
    }

    /// Whether `bucket` belongs to `account`, as `x-amz-expected-bucket-owner` asks (a bucket
    /// that does not exist is left to the operation's NoSuchBucket).
    fn owned_by(&self, bucket: &str, account: &str) -> bool {
        self.store
            .bucket(bucket)
            .map_or(true, |b| b.owner == account)
    }

    /// Whether the caller may do `ask.iam` on `bucket` (or on its `key`): an explicit Deny
    /// refuses anyone, the owner's account is otherwise allowed, another account needs an
    /// Allow.
    pub fn allows(&self, ask: &Ask<'_>, bucket: &str, key: Option<&str>) -> bool {
        if !ask.call.verified {
            return true;
        }
        let Ok(found) = self.store.bucket(bucket) else {
            return true;
        };
        // A bucket deleted meanwhile is the operation's NoSuchBucket.
        let Ok(policy) = found.policy() else {
            return true;
        };
        let resource = match key {
            Some(key) => format!("arn:aws:s3:::{bucket}/{key}"),
            None => format!("arn:aws:s3:::{bucket}"),
        };
        let caller = Caller {
            account: &ask.call.account,
            arn: &ask.call.arn,
        };
        let mut request =
            crate::policy::Request::direct(caller, ask.iam, self.clock.now()).for_service("s3");
        request.source_ip = ask.call.peer;
        let decision =
            crate::policy::evaluate(policy.as_deref(), &resource, &found.owner, &request);
        decision == Decision::Allow
    }

    /// Whether the caller may read the copy source `source` (`<bucket>/<key>`, URL-encoded).
    fn may_read(&self, call: &Call, source: Option<&str>) -> bool {
        let Some((bucket, key)) = source.and_then(super::ops::copy::source) else {
            return true;
        };
        let ask = Ask {
            call,
            iam: "GetObject",
        };
        self.allows(&ask, &bucket, Some(&key))
    }
}
