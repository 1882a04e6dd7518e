//! Conditional requests: a read's If-Match, If-None-Match, If-Modified-Since and
//! If-Unmodified-Since (412 or 304 as S3 documents their precedence), a write's
//! If-None-Match: * and If-Match.

use aws_sdk_s3::primitives::{ByteStream, DateTime};

use crate::common::s3::status;
use crate::common::{expect_code, TestServer, T0};

/// An instant `seconds` after the test clock's start.
fn at(seconds: i64) -> DateTime {
    DateTime::from_secs((T0 / 1000) as i64 + seconds)
}

#[tokio::test]
async fn reads_answer_412_or_304_as_their_conditions_say() {
    let t = TestServer::start().await;
    let s3 = t.bucket("cond").await;
    let put = s3
        .put_object()
        .bucket("cond")
        .key("k")
        .body(ByteStream::from_static(b"v1"));
    let etag = put.send().await.unwrap().e_tag.unwrap();
    let get = || s3.get_object().bucket("cond").key("k");
    get().if_match(&etag).send().await.unwrap();
    get().if_match("*").send().await.unwrap();
    let err = expect_code(
        get().if_match("\"0123\"").send().await,
        "PreconditionFailed",
    );
    assert_eq!(status(&err), 412);
    let err = get().if_none_match(&etag).send().await.unwrap_err();
    assert_eq!(status(&err), 304);
    get().if_none_match("\"other\"").send().await.unwrap();
    // Written at T0: modified since a second before, not since a second after.
    get().if_modified_since(at(-1)).send().await.unwrap();
    let err = get().if_modified_since(at(1)).send().await.unwrap_err();
    assert_eq!(status(&err), 304);
    get().if_unmodified_since(at(1)).send().await.unwrap();
    let err = get().if_unmodified_since(at(-1)).send().await.unwrap_err();
    assert_eq!(status(&err), 412);
    // If-Match that holds wins over If-Unmodified-Since that does not; If-None-Match that
    // holds over If-Modified-Since that does not.
    get()
        .if_match(&etag)
        .if_unmodified_since(at(-1))
        .send()
        .await
        .unwrap();
    get()
        .if_none_match("\"other\"")
        .if_modified_since(at(1))
        .send()
        .await
        .unwrap();
    let head = s3
        .head_object()
        .bucket("cond")
        .key("k")
        .if_none_match(&etag)
        .send()
        .await;
    assert_eq!(status(&head.unwrap_err()), 304);
}

#[tokio::test]
async fn conditional_writes() {
    let t = TestServer::start().await;
    let s3 = t.bucket("writes").await;
    let put = |body: &'static [u8]| {
        s3.put_object()
            .bucket("writes")
            .key("k")
            .body(ByteStream::from_static(body))
    };
    let first = put(b"one").if_none_match("*").send().await.unwrap();
    let err = expect_code(
        put(b"two").if_none_match("*").send().await,
        "PreconditionFailed",
    );
    assert_eq!(status(&err), 412);
    expect_code(
        put(b"two").if_match("\"abc\"").send().await,
        "PreconditionFailed",
    );
    put(b"two")
        .if_match(first.e_tag().unwrap())
        .send()
        .await
        .unwrap();
    let missing = s3
        .put_object()
        .bucket("writes")
        .key("absent")
        .if_match("\"abc\"")
        .body(ByteStream::from_static(b"x"));
    let err = expect_code(missing.send().await, "NoSuchKey");
    assert_eq!(status(&err), 404);
}
