//! Every S3 operation, asked by another account of the owner's bucket without a Policy grant,
//! is refused AccessDenied, and let through once the bucket's Policy grants its IAM action,
//! where S3's action list says a Policy can (the list is `sqslite::support::S3_ACCESS`, so an
//! operation added without its rule, or without a call here, fails). The operations that act
//! in the caller's own account show it nothing of the owner's.

use std::collections::BTreeSet;

use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{CompletedMultipartUpload, Delete, ObjectIdentifier, Tag, Tagging};
use aws_sdk_s3::Client;

use crate::common::accounts::two_accounts;
use crate::common::s3::{s3_client_with, status};
use crate::common::{code, OTHER};

/// The owner's bucket.
const BUCKET: &str = "owned";

/// What one call got: its error code (a HEAD's, which has no body, is its status), or `None`
/// for a success.
type Got = Option<String>;

fn got<T, E: aws_sdk_s3::error::ProvideErrorMetadata>(
    result: Result<T, aws_sdk_s3::error::SdkError<E, aws_sdk_s3::config::http::HttpResponse>>,
) -> Got {
    result
        .err()
        .map(|e| match e.as_service_error().and_then(|s| s.code()) {
            Some(code) => code.to_owned(),
            None => status(&e).to_string(),
        })
}

/// Whether `got` is S3's refusal: AccessDenied, or a HEAD's 403.
fn refused(got: Option<&str>) -> bool {
    matches!(got, Some("AccessDenied" | "403"))
}

fn tagging() -> Tagging {
    let tag = Tag::builder().key("k").value("v").build().unwrap();
    Tagging::builder().tag_set(tag).build().unwrap()
}

// One arm per operation, every argument spelled out: the table is the point.
#[allow(clippy::too_many_lines)]
/// The other account's call of operation `name` on the owner's bucket; `uploads` are two of
/// the owner's multipart uploads of `k` (the second for AbortMultipartUpload).
async fn call(s3: &Client, name: &str, uploads: (&str, &str)) -> Got {
    let b = BUCKET;
    let body = || ByteStream::from_static(b"x");
    match name {
        "ListBuckets" => got(s3.list_buckets().send().await),
        "CreateBucket" => got(s3.create_bucket().bucket("others").send().await),
        "HeadBucket" => got(s3.head_bucket().bucket(b).send().await),
        "DeleteBucket" => got(s3.delete_bucket().bucket(b).send().await),
        "GetBucketLocation" => got(s3.get_bucket_location().bucket(b).send().await),
        "PutBucketPolicy" => got(s3.put_bucket_policy().bucket(b).policy("{}").send().await),
        "GetBucketPolicy" => got(s3.get_bucket_policy().bucket(b).send().await),
        "DeleteBucketPolicy" => got(s3.delete_bucket_policy().bucket(b).send().await),
        "GetBucketTagging" => got(s3.get_bucket_tagging().bucket(b).send().await),
        "PutBucketTagging" => got(s3
            .put_bucket_tagging()
            .bucket(b)
            .tagging(tagging())
            .send()
            .await),
        "DeleteBucketTagging" => got(s3.delete_bucket_tagging().bucket(b).send().await),
        "ListObjects" => got(s3.list_objects().bucket(b).send().await),
        "ListObjectsV2" => got(s3.list_objects_v2().bucket(b).send().await),
        "PutObject" => got(s3
            .put_object()
            .bucket(b)
            .key("new")
            .body(body())
            .send()
            .await),
        "GetObject" => got(s3.get_object().bucket(b).key("k").send().await),
        "HeadObject" => got(s3.head_object().bucket(b).key("k").send().await),
        "DeleteObject" => got(s3.delete_object().bucket(b).key("gone").send().await),
        "DeleteObjects" => delete_objects(s3).await,
        "CopyObject" => got(s3
            .copy_object()
            .bucket(b)
            .key("copy")
            .copy_source("owned/k")
            .send()
            .await),
        "GetObjectTagging" => got(s3.get_object_tagging().bucket(b).key("k").send().await),
        "PutObjectTagging" => got(s3
            .put_object_tagging()
            .bucket(b)
            .key("k")
            .tagging(tagging())
            .send()
            .await),
        "DeleteObjectTagging" => got(s3.delete_object_tagging().bucket(b).key("k").send().await),
        "CreateMultipartUpload" => {
            got(s3.create_multipart_upload().bucket(b).key("k").send().await)
        }
        "UploadPart" => {
            let call = s3
                .upload_part()
                .bucket(b)
                .key("k")
                .upload_id(uploads.0)
                .part_number(1);
            got(call.body(body()).send().await)
        }
        "UploadPartCopy" => {
            let call = s3
                .upload_part_copy()
                .bucket(b)
                .key("k")
                .upload_id(uploads.0);
            got(call.part_number(2).copy_source("owned/k").send().await)
        }
        "CompleteMultipartUpload" => {
            let call = s3
                .complete_multipart_upload()
                .bucket(b)
                .key("k")
                .upload_id(uploads.0);
            let none = CompletedMultipartUpload::builder().build();
            got(call.multipart_upload(none).send().await)
        }
        "AbortMultipartUpload" => {
            let call = s3.abort_multipart_upload().bucket(b).key("k");
            got(call.upload_id(uploads.1).send().await)
        }
        "ListParts" => got(s3
            .list_parts()
            .bucket(b)
            .key("k")
            .upload_id(uploads.0)
            .send()
            .await),
        "ListMultipartUploads" => got(s3.list_multipart_uploads().bucket(b).send().await),
        "PutBucketNotificationConfiguration" => {
            let none = aws_sdk_s3::types::NotificationConfiguration::builder().build();
            let call = s3.put_bucket_notification_configuration().bucket(b);
            got(call.notification_configuration(none).send().await)
        }
        "GetBucketNotificationConfiguration" => got(s3
            .get_bucket_notification_configuration()
            .bucket(b)
            .send()
            .await),
        other => panic!("no call for {other}: add one"),
    }
}

/// DeleteObjects answers 200 with each key's error: its first error's code stands for it.
async fn delete_objects(s3: &Client) -> Got {
    let id = ObjectIdentifier::builder().key("k").build().unwrap();
    let delete = Delete::builder().objects(id).build().unwrap();
    match s3
        .delete_objects()
        .bucket(BUCKET)
        .delete(delete)
        .send()
        .await
    {
        Ok(out) => out
            .errors()
            .first()
            .and_then(|e| e.code().map(str::to_owned)),
        Err(e) => Some(code(&e)),
    }
}

#[tokio::test]
async fn every_s3_action_on_the_owners_bucket_is_refused_to_another_account_until_granted() {
    let a = two_accounts(Vec::new()).await;
    let owner = a.t.bucket(BUCKET).await;
    let put = owner
        .put_object()
        .bucket(BUCKET)
        .key("k")
        .body(ByteStream::from_static(b"v"));
    put.send().await.unwrap();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let up = owner
            .create_multipart_upload()
            .bucket(BUCKET)
            .key("k")
            .send()
            .await;
        ids.push(up.unwrap().upload_id.unwrap());
    }
    let uploads = (ids[0].as_str(), ids[1].as_str());
    let other = s3_client_with(
        &a.t.endpoint(),
        ("AKIDOTHER", "other-secret", None),
        &a.t.clock,
    );
    let table = sqslite::support::S3_ACCESS;
    let names: BTreeSet<&str> = table.iter().map(|(n, ..)| *n).collect();
    assert_eq!(names.len(), table.len(), "a name listed twice");
    for (name, rule, _) in table {
        let answer = call(&other, name, uploads).await;
        match *rule {
            "Own" => assert_eq!(answer, None, "{name}"),
            _ => assert!(refused(answer.as_deref()), "{name}: {answer:?}"),
        }
    }
    let listed = other.list_buckets().send().await.unwrap();
    let names: Vec<&str> = listed.buckets().iter().filter_map(|b| b.name()).collect();
    assert_eq!(names, ["others"]);
    // A Policy granting the other account every action a Policy can grant on the bucket lets
    // each through; the Policy's own operations stay the owner's.
    let grantable: BTreeSet<String> = table
        .iter()
        .filter(|(_, rule, _)| !matches!(*rule, "Own" | "Owner"))
        .map(|(_, _, iam)| format!("s3:{iam}"))
        .collect();
    let policy = serde_json::json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Principal": {"AWS": format!("arn:aws:iam::{OTHER}:root")}, "Action": grantable,
        "Resource": [format!("arn:aws:s3:::{BUCKET}"), format!("arn:aws:s3:::{BUCKET}/*")]}]});
    let call_policy = owner
        .put_bucket_policy()
        .bucket(BUCKET)
        .policy(policy.to_string());
    call_policy.send().await.unwrap();
    for (name, rule, _) in table {
        let answer = call(&other, name, uploads).await;
        match *rule {
            "Own" => {}
            "Owner" => assert!(refused(answer.as_deref()), "{name}: {answer:?}"),
            _ => assert!(!refused(answer.as_deref()), "{name}: {answer:?}"),
        }
    }
}
