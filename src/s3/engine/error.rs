//! Why the S3 engine refused an operation, in S3's terms but no wire form: `s3::error` renders
//! each as S3's code, status and message, in one table.

/// A refusal of the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No bucket of that name.
    NoSuchBucket,
    /// The name is another account's bucket.
    BucketAlreadyExists,
    /// The caller's own bucket, outside us-east-1 (where S3 answers 200 instead).
    BucketAlreadyOwnedByYou,
    /// DeleteBucket of a bucket with objects or uploads in it.
    BucketNotEmpty,
    /// A name S3 does not allow.
    InvalidBucketName,
    /// No object at that key.
    NoSuchKey,
    /// No multipart upload of that id (aborted, completed, or never made).
    NoSuchUpload,
    /// The bucket has no Policy.
    NoSuchBucketPolicy,
    /// The bucket has no tags.
    NoSuchTagSet,
    /// A Policy document S3 cannot use, with why.
    MalformedPolicy(&'static str),
    /// A condition (`If-Match`, `If-None-Match`, their copy-source forms) does not hold.
    PreconditionFailed,
    /// GET/HEAD `If-None-Match` or `If-Modified-Since` holds: nothing new to send.
    NotModified,
    /// A Range that starts past the object's end.
    InvalidRange,
    /// A GET or HEAD `partNumber` past the object's last part.
    NoSuchPart,
    /// A completion naming a part that was not uploaded, or with another ETag.
    InvalidPart,
    /// A completion naming no parts.
    MalformedXml,
    /// A completion's parts not in ascending order.
    InvalidPartOrder,
    /// A completed part, not the last, under 5 MiB: its number, size and the minimum.
    EntityTooSmall,
    /// A body over S3's limit for it (5 GiB a PUT or part), or over what the server holds.
    EntityTooLarge(String),
    /// Tags S3 does not accept, with why.
    InvalidTag(String),
    /// An argument S3 refuses, with why.
    InvalidArgument(String),
}

/// A result of the engine.
pub type Result<T> = std::result::Result<T, Refusal>;
