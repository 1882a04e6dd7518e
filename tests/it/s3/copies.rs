//! CopyObject (metadata and tags copied or replaced, source conditions, a copy onto itself)
//! and DeleteObjects (each key answered, the quiet form listing failures only).

use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{Delete, MetadataDirective, ObjectIdentifier, TaggingDirective};

use crate::common::s3::{body, status};
use crate::common::{expect_code, message, TestServer};

#[tokio::test]
async fn a_copy_keeps_or_replaces_what_the_source_says_of_itself() {
    let t = TestServer::start().await;
    let s3 = t.bucket("src").await;
    s3.create_bucket().bucket("dst").send().await.unwrap();
    let put = s3
        .put_object()
        .bucket("src")
        .key("a")
        .content_type("text/plain");
    let put = put.metadata("k", "v").tagging("team=ops");
    let etag = put
        .body(ByteStream::from_static(b"hello"))
        .send()
        .await
        .unwrap()
        .e_tag
        .unwrap();
    let copied = s3.copy_object().bucket("dst").key("b").copy_source("src/a");
    let result = copied.send().await.unwrap().copy_object_result.unwrap();
    assert_eq!(result.e_tag(), Some(etag.as_str()));
    let got = s3.get_object().bucket("dst").key("b").send().await.unwrap();
    assert_eq!(got.content_type(), Some("text/plain"));
    assert_eq!(got.metadata().unwrap()["k"], "v");
    assert_eq!(body(got).await, b"hello");
    let tags = s3
        .get_object_tagging()
        .bucket("dst")
        .key("b")
        .send()
        .await
        .unwrap();
    assert_eq!(tags.tag_set()[0].key(), "team");
}

#[tokio::test]
async fn a_copy_replaces_what_the_request_says() {
    let t = TestServer::start().await;
    let s3 = t.bucket("src").await;
    s3.create_bucket().bucket("dst").send().await.unwrap();
    let put = s3.put_object().bucket("src").key("a").metadata("k", "v");
    put.body(ByteStream::from_static(b"hello"))
        .send()
        .await
        .unwrap();
    let replaced = s3
        .copy_object()
        .bucket("dst")
        .key("c")
        .copy_source("/src/a");
    let replaced = replaced
        .metadata_directive(MetadataDirective::Replace)
        .content_type("a/b");
    let replaced = replaced
        .tagging_directive(TaggingDirective::Replace)
        .tagging("x=y");
    replaced.send().await.unwrap();
    let head = s3
        .head_object()
        .bucket("dst")
        .key("c")
        .send()
        .await
        .unwrap();
    assert_eq!(head.content_type(), Some("a/b"));
    assert!(
        head.metadata()
            .is_none_or(std::collections::HashMap::is_empty),
        "{head:?}"
    );
    let tags = s3
        .get_object_tagging()
        .bucket("dst")
        .key("c")
        .send()
        .await
        .unwrap();
    assert_eq!(tags.tag_set()[0].key(), "x");
}

#[tokio::test]
async fn s3s_errors_for_copies() {
    let t = TestServer::start().await;
    let s3 = t.bucket("src").await;
    s3.put_object()
        .bucket("src")
        .key("a")
        .body(ByteStream::from_static(b"x"))
        .send()
        .await
        .unwrap();
    let copy = || s3.copy_object().bucket("src").key("b");
    expect_code(copy().copy_source("src/none").send().await, "NoSuchKey");
    expect_code(
        copy().copy_source("nobucket/a").send().await,
        "NoSuchBucket",
    );
    let err = copy()
        .copy_source("src/a")
        .copy_source_if_match("\"0\"")
        .send()
        .await;
    assert_eq!(status(&expect_code(err, "PreconditionFailed")), 412);
    let err = copy()
        .copy_source("src/a")
        .copy_source_if_none_match("*")
        .send()
        .await;
    expect_code(err, "PreconditionFailed");
    let onto_itself = s3.copy_object().bucket("src").key("a").copy_source("src/a");
    let err = expect_code(onto_itself.send().await, "InvalidRequest");
    assert!(
        message(&err).starts_with("This copy request is illegal"),
        "{err:?}"
    );
    let with_change = s3.copy_object().bucket("src").key("a").copy_source("src/a");
    let with_change = with_change
        .metadata_directive(MetadataDirective::Replace)
        .metadata("n", "1");
    with_change.send().await.unwrap();
}

#[tokio::test]
async fn delete_objects_answers_each_key() {
    let t = TestServer::start().await;
    let s3 = t.bucket("del").await;
    for key in ["a", "b"] {
        let put = s3.put_object().bucket("del").key(key);
        put.body(ByteStream::from_static(b"x"))
            .send()
            .await
            .unwrap();
    }
    let ids = |keys: &[&str]| {
        let objects = keys
            .iter()
            .map(|k| ObjectIdentifier::builder().key(*k).build().unwrap());
        Delete::builder().set_objects(Some(objects.collect()))
    };
    let deleted = s3
        .delete_objects()
        .bucket("del")
        .delete(ids(&["a", "b", "never"]).build().unwrap());
    let deleted = deleted.send().await.unwrap();
    let keys: Vec<&str> = deleted.deleted().iter().filter_map(|d| d.key()).collect();
    assert_eq!(keys, ["a", "b", "never"]);
    assert!(deleted.errors().is_empty());
    let listed = s3.list_objects_v2().bucket("del").send().await.unwrap();
    assert_eq!(listed.key_count(), Some(0));
    let quiet = ids(&["a"]).quiet(true).build().unwrap();
    let quiet = s3
        .delete_objects()
        .bucket("del")
        .delete(quiet)
        .send()
        .await
        .unwrap();
    assert!(quiet.deleted().is_empty());
    let many: Vec<String> = (0..1001).map(|i| i.to_string()).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let too_many = s3
        .delete_objects()
        .bucket("del")
        .delete(ids(&many).build().unwrap());
    expect_code(too_many.send().await, "MalformedXML");
}
