//! Buckets: created in the caller's account, one namespace for every account, listed,
//! located, deleted when empty; S3's errors for each misuse.

use aws_sdk_s3::types::{BucketLocationConstraint, CreateBucketConfiguration};

use crate::common::s3::status;
use crate::common::{expect_code, message, TestServer};

#[tokio::test]
async fn a_bucket_is_created_listed_located_and_deleted() {
    let t = TestServer::start().await;
    let s3 = t.s3();
    let made = s3.create_bucket().bucket("orders").send().await.unwrap();
    assert_eq!(made.location(), Some("/orders"));
    let constraint = CreateBucketConfiguration::builder()
        .location_constraint(BucketLocationConstraint::EuWest1)
        .build();
    s3.create_bucket()
        .bucket("archive.eu")
        .create_bucket_configuration(constraint)
        .send()
        .await
        .unwrap();
    let listed = s3.list_buckets().send().await.unwrap();
    let names: Vec<&str> = listed.buckets().iter().filter_map(|b| b.name()).collect();
    assert_eq!(names, ["archive.eu", "orders"]);
    let created = listed.buckets()[1].creation_date().unwrap();
    assert_eq!(created.secs(), (crate::common::T0 / 1000) as i64);
    assert!(listed
        .owner()
        .and_then(|o| o.id())
        .is_some_and(|id| id.len() == 64));
    // us-east-1's is an empty LocationConstraint, which the SDK reads as an empty name.
    let location = s3
        .get_bucket_location()
        .bucket("orders")
        .send()
        .await
        .unwrap();
    assert_eq!(
        location
            .location_constraint()
            .map(BucketLocationConstraint::as_str),
        Some("")
    );
    let location = s3
        .get_bucket_location()
        .bucket("archive.eu")
        .send()
        .await
        .unwrap();
    assert_eq!(
        location.location_constraint(),
        Some(&BucketLocationConstraint::EuWest1)
    );
    let head = s3.head_bucket().bucket("archive.eu").send().await.unwrap();
    assert_eq!(head.bucket_region(), Some("eu-west-1"));
    s3.delete_bucket().bucket("orders").send().await.unwrap();
    let gone = s3.head_bucket().bucket("orders").send().await.unwrap_err();
    assert_eq!(status(&gone), 404);
    let names = s3.list_buckets().send().await.unwrap();
    assert_eq!(names.buckets().len(), 1);
}

#[tokio::test]
async fn s3s_errors_for_buckets() {
    let t = TestServer::start().await;
    let s3 = t.bucket("taken").await;
    // us-east-1 answers a second create of one's own bucket with 200, for legacy's sake.
    s3.create_bucket().bucket("taken").send().await.unwrap();
    let other =
        crate::common::s3::s3_client_with(&t.endpoint(), ("222222222222", "x", None), &t.clock);
    let err = expect_code(
        other.create_bucket().bucket("taken").send().await,
        "BucketAlreadyExists",
    );
    assert_eq!(status(&err), 409);
    let eu = CreateBucketConfiguration::builder()
        .location_constraint(BucketLocationConstraint::EuWest1)
        .build();
    let call = || {
        s3.create_bucket()
            .bucket("mine.eu")
            .create_bucket_configuration(eu.clone())
    };
    call().send().await.unwrap();
    let err = expect_code(call().send().await, "BucketAlreadyOwnedByYou");
    assert_eq!(status(&err), 409);
    let err = expect_code(
        s3.create_bucket().bucket("Bad_Name").send().await,
        "InvalidBucketName",
    );
    assert_eq!(
        (status(&err), message(&err).as_str()),
        (400, "The specified bucket is not valid.")
    );
    let err = expect_code(
        s3.delete_bucket().bucket("nothing-here").send().await,
        "NoSuchBucket",
    );
    assert_eq!(
        (status(&err), message(&err).as_str()),
        (404, "The specified bucket does not exist")
    );
    s3.put_object()
        .bucket("taken")
        .key("k")
        .body(b"x".to_vec().into())
        .send()
        .await
        .unwrap();
    let err = expect_code(
        s3.delete_bucket().bucket("taken").send().await,
        "BucketNotEmpty",
    );
    assert_eq!(status(&err), 409);
    let us = CreateBucketConfiguration::builder()
        .location_constraint(BucketLocationConstraint::from("us-east-1"))
        .build();
    let call = s3
        .create_bucket()
        .bucket("named-us")
        .create_bucket_configuration(us);
    expect_code(call.send().await, "InvalidLocationConstraint");
}
