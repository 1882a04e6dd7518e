//! A bucket's Policy and tags, and an object's tags: set, read back, deleted; S3's errors for
//! what is missing or malformed.

use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{Tag, Tagging};

use crate::common::s3::status;
use crate::common::{expect_code, TestServer};

fn tagging(pairs: &[(&str, &str)]) -> Tagging {
    let tags = pairs
        .iter()
        .map(|(k, v)| Tag::builder().key(*k).value(*v).build().unwrap());
    Tagging::builder()
        .set_tag_set(Some(tags.collect()))
        .build()
        .unwrap()
}

#[tokio::test]
async fn bucket_policy_set_read_and_deleted() {
    let t = TestServer::start().await;
    let s3 = t.bucket("pol").await;
    let err = expect_code(
        s3.get_bucket_policy().bucket("pol").send().await,
        "NoSuchBucketPolicy",
    );
    assert_eq!(status(&err), 404);
    let policy = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::pol/*"}]}"#;
    s3.put_bucket_policy()
        .bucket("pol")
        .policy(policy)
        .send()
        .await
        .unwrap();
    let got = s3.get_bucket_policy().bucket("pol").send().await.unwrap();
    assert_eq!(got.policy(), Some(policy));
    for bad in ["not json", r#"{"Statement":[{"Effect":"Maybe"}]}"#] {
        let call = s3.put_bucket_policy().bucket("pol").policy(bad);
        let err = expect_code(call.send().await, "MalformedPolicy");
        assert_eq!(status(&err), 400);
    }
    s3.delete_bucket_policy()
        .bucket("pol")
        .send()
        .await
        .unwrap();
    expect_code(
        s3.get_bucket_policy().bucket("pol").send().await,
        "NoSuchBucketPolicy",
    );
}

#[tokio::test]
async fn bucket_tags() {
    let t = TestServer::start().await;
    let s3 = t.bucket("tags").await;
    expect_code(
        s3.get_bucket_tagging().bucket("tags").send().await,
        "NoSuchTagSet",
    );
    let call = s3
        .put_bucket_tagging()
        .bucket("tags")
        .tagging(tagging(&[("env", "ci")]));
    call.send().await.unwrap();
    let got = s3.get_bucket_tagging().bucket("tags").send().await.unwrap();
    assert_eq!(
        (got.tag_set()[0].key(), got.tag_set()[0].value()),
        ("env", "ci")
    );
    s3.delete_bucket_tagging()
        .bucket("tags")
        .send()
        .await
        .unwrap();
    expect_code(
        s3.get_bucket_tagging().bucket("tags").send().await,
        "NoSuchTagSet",
    );
    let twice = tagging(&[("k", "1"), ("k", "2")]);
    let call = s3.put_bucket_tagging().bucket("tags").tagging(twice);
    expect_code(call.send().await, "InvalidTag");
}

#[tokio::test]
async fn object_tags() {
    let t = TestServer::start().await;
    let s3 = t.bucket("tags").await;
    let put = s3.put_object().bucket("tags").key("k").tagging("a=1&b=2");
    put.body(ByteStream::from_static(b"x"))
        .send()
        .await
        .unwrap();
    assert_eq!(object_tags_of(&s3, "k").await.len(), 2);
    let object = s3.get_object().bucket("tags").key("k").send().await;
    assert_eq!(object.unwrap().tag_count(), Some(2));
    let call = s3.put_object_tagging().bucket("tags").key("k");
    call.tagging(tagging(&[("c", "3")])).send().await.unwrap();
    assert_eq!(object_tags_of(&s3, "k").await[0].key(), "c");
    let call = s3.delete_object_tagging().bucket("tags").key("k");
    call.send().await.unwrap();
    assert!(object_tags_of(&s3, "k").await.is_empty());
    let eleven: Vec<(String, String)> = (0..11).map(|i| (i.to_string(), "v".into())).collect();
    let eleven: Vec<(&str, &str)> = eleven
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let call = s3.put_object_tagging().bucket("tags").key("k");
    expect_code(call.tagging(tagging(&eleven)).send().await, "InvalidTag");
    let call = s3.get_object_tagging().bucket("tags").key("none");
    expect_code(call.send().await, "NoSuchKey");
}

/// The tags of the object `key` in `tags`.
async fn object_tags_of(s3: &aws_sdk_s3::Client, key: &str) -> Vec<Tag> {
    let got = s3.get_object_tagging().bucket("tags").key(key).send().await;
    got.unwrap().tag_set().to_vec()
}
