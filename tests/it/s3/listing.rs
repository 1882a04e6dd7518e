//! ListObjectsV2 and ListObjects: prefixes, delimiters and their common prefixes, pages by
//! continuation token, start-after and marker, keys URL-encoded on request.

use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::EncodingType;

use crate::common::{expect_code, TestServer};

/// A bucket holding these keys.
async fn filled(t: &TestServer, keys: &[&str]) -> aws_sdk_s3::Client {
    let s3 = t.bucket("list").await;
    for key in keys {
        let put = s3.put_object().bucket("list").key(*key);
        put.body(ByteStream::from_static(b"x"))
            .send()
            .await
            .unwrap();
    }
    s3
}

const KEYS: &[&str] = &["a.txt", "docs/1", "docs/2", "docs/x/3", "img/1", "z"];

#[tokio::test]
async fn v2_lists_by_prefix_and_delimiter_a_page_at_a_time() {
    let t = TestServer::start().await;
    let s3 = filled(&t, KEYS).await;
    let all = s3.list_objects_v2().bucket("list").send().await.unwrap();
    let keys: Vec<&str> = all.contents().iter().filter_map(|o| o.key()).collect();
    assert_eq!(keys, KEYS);
    assert_eq!(
        (all.key_count(), all.is_truncated()),
        (Some(6), Some(false))
    );
    assert_eq!(all.contents()[0].size(), Some(1));
    let rolled = s3.list_objects_v2().bucket("list").delimiter("/");
    let rolled = rolled.send().await.unwrap();
    let keys: Vec<&str> = rolled.contents().iter().filter_map(|o| o.key()).collect();
    let prefixes: Vec<&str> = rolled
        .common_prefixes()
        .iter()
        .filter_map(|p| p.prefix())
        .collect();
    assert_eq!(
        (keys, prefixes),
        (vec!["a.txt", "z"], vec!["docs/", "img/"])
    );
    let under = s3
        .list_objects_v2()
        .bucket("list")
        .prefix("docs/")
        .delimiter("/");
    let under = under.send().await.unwrap();
    let keys: Vec<&str> = under.contents().iter().filter_map(|o| o.key()).collect();
    assert_eq!(keys, ["docs/1", "docs/2"]);
    assert_eq!(under.common_prefixes()[0].prefix(), Some("docs/x/"));
    let mut seen = Vec::new();
    let mut token = None;
    loop {
        let page = s3.list_objects_v2().bucket("list").max_keys(2);
        let page = page.set_continuation_token(token).send().await.unwrap();
        seen.extend(
            page.contents()
                .iter()
                .filter_map(|o| o.key().map(str::to_owned)),
        );
        assert!(page.key_count().unwrap() <= 2);
        if page.is_truncated() != Some(true) {
            break;
        }
        token = page.next_continuation_token().map(str::to_owned);
    }
    assert_eq!(seen, KEYS);
    let after = s3.list_objects_v2().bucket("list").start_after("docs/2");
    let after = after.send().await.unwrap();
    assert_eq!(after.contents()[0].key(), Some("docs/x/3"));
    let err = s3
        .list_objects_v2()
        .bucket("list")
        .continuation_token("%%%");
    expect_code(err.send().await, "InvalidArgument");
    expect_code(
        s3.list_objects_v2().bucket("nope").send().await,
        "NoSuchBucket",
    );
}

#[tokio::test]
async fn v1_pages_by_marker_and_names_the_next_with_a_delimiter() {
    let t = TestServer::start().await;
    let s3 = filled(&t, KEYS).await;
    let page = s3
        .list_objects()
        .bucket("list")
        .max_keys(2)
        .send()
        .await
        .unwrap();
    let keys: Vec<&str> = page.contents().iter().filter_map(|o| o.key()).collect();
    assert_eq!(keys, ["a.txt", "docs/1"]);
    assert_eq!(
        (page.is_truncated(), page.next_marker()),
        (Some(true), None)
    );
    assert!(page.contents()[0].owner().is_some());
    let next = s3
        .list_objects()
        .bucket("list")
        .marker("docs/1")
        .max_keys(2);
    let next = next.send().await.unwrap();
    let keys: Vec<&str> = next.contents().iter().filter_map(|o| o.key()).collect();
    assert_eq!(keys, ["docs/2", "docs/x/3"]);
    let rolled = s3.list_objects().bucket("list").delimiter("/").max_keys(2);
    let rolled = rolled.send().await.unwrap();
    assert_eq!(rolled.next_marker(), Some("docs/"));
}

#[tokio::test]
async fn keys_are_url_encoded_when_asked() {
    let t = TestServer::start().await;
    let s3 = filled(&t, &["a b+c/ü.txt"]).await;
    let listed = s3
        .list_objects_v2()
        .bucket("list")
        .encoding_type(EncodingType::Url);
    let listed = listed.send().await.unwrap();
    assert_eq!(listed.contents()[0].key(), Some("a%20b%2Bc/%C3%BC.txt"));
    let plain = s3.list_objects_v2().bucket("list").send().await.unwrap();
    assert_eq!(plain.contents()[0].key(), Some("a b+c/ü.txt"));
}
