//! Objects: put and read back whole or by range, with what their request said of them
//! (content type and encoding, user metadata), deleted; conditional requests.

use aws_sdk_s3::primitives::ByteStream;

use crate::common::s3::{body, etag, status};
use crate::common::{expect_code, message, TestServer};

#[tokio::test]
async fn an_object_comes_back_as_it_was_put() {
    let t = TestServer::start().await;
    let s3 = t.bucket("payloads").await;
    let put = s3
        .put_object()
        .bucket("payloads")
        .key("orders/2024/o-1.json")
        .body(ByteStream::from_static(b"{\"id\":1}"))
        .content_type("application/json")
        .content_encoding("identity")
        .metadata("Origin", "checkout")
        .send()
        .await
        .unwrap();
    // The MD5 of the body, quoted as S3 sends it.
    assert_eq!(put.e_tag(), Some(etag(b"{\"id\":1}").as_str()));
    let got = s3
        .get_object()
        .bucket("payloads")
        .key("orders/2024/o-1.json")
        .send()
        .await
        .unwrap();
    assert_eq!(got.content_type(), Some("application/json"));
    assert_eq!(got.content_encoding(), Some("identity"));
    assert_eq!(
        got.metadata().unwrap().get("origin").map(String::as_str),
        Some("checkout")
    );
    assert_eq!(got.e_tag(), put.e_tag());
    assert_eq!(got.content_length(), Some(8));
    assert_eq!(body(got).await, b"{\"id\":1}");
}

#[tokio::test]
async fn a_deleted_object_is_no_such_key_and_deleting_nothing_is_no_error() {
    let t = TestServer::start().await;
    let s3 = t.bucket("payloads").await;
    let put = s3
        .put_object()
        .bucket("payloads")
        .key("orders/2024/o-1.json");
    let put = put
        .body(ByteStream::from_static(b"12345678"))
        .send()
        .await
        .unwrap();
    let head = s3
        .head_object()
        .bucket("payloads")
        .key("orders/2024/o-1.json")
        .send()
        .await
        .unwrap();
    assert_eq!(
        (head.content_length(), head.e_tag()),
        (Some(8), put.e_tag())
    );
    s3.delete_object()
        .bucket("payloads")
        .key("orders/2024/o-1.json")
        .send()
        .await
        .unwrap();
    let err = expect_code(
        s3.get_object()
            .bucket("payloads")
            .key("orders/2024/o-1.json")
            .send()
            .await,
        "NoSuchKey",
    );
    assert_eq!(
        (status(&err), message(&err).as_str()),
        (404, "The specified key does not exist.")
    );
    // Deleting what is not there is no error.
    s3.delete_object()
        .bucket("payloads")
        .key("never")
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn a_large_body_streams_both_ways() {
    let t = TestServer::start().await;
    let s3 = t.bucket("big").await;
    let data: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    s3.put_object()
        .bucket("big")
        .key("blob")
        .body(data.clone().into())
        .send()
        .await
        .unwrap();
    let got = s3
        .get_object()
        .bucket("big")
        .key("blob")
        .send()
        .await
        .unwrap();
    assert_eq!(body(got).await, data);
    let range = s3
        .get_object()
        .bucket("big")
        .key("blob")
        .range("bytes=1000-1999")
        .send()
        .await
        .unwrap();
    assert_eq!(range.content_range(), Some("bytes 1000-1999/3000000"));
    assert_eq!(body(range).await, &data[1000..2000]);
    let tail = s3
        .get_object()
        .bucket("big")
        .key("blob")
        .range("bytes=-10")
        .send()
        .await
        .unwrap();
    assert_eq!(body(tail).await, &data[data.len() - 10..]);
    let err = expect_code(
        s3.get_object()
            .bucket("big")
            .key("blob")
            .range("bytes=3000000-")
            .send()
            .await,
        "InvalidRange",
    );
    assert_eq!(status(&err), 416);
}
