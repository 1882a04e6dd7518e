//! Multipart uploads: parts uploaded (and copied), listed, completed into one object whose
//! ETag names its part count, aborted; S3's errors for parts too small, missing, out of order
//! and for an upload that is gone.

use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{CompletedMultipartUpload, CompletedPart};
use md5::Digest;

use crate::common::s3::{body, hex, status};
use crate::common::{expect_code, TestServer};

const MIB: usize = 1024 * 1024;

/// Starts an upload of `key`; its id.
async fn start(s3: &aws_sdk_s3::Client, key: &str) -> String {
    let made = s3
        .create_multipart_upload()
        .bucket("mpu")
        .key(key)
        .content_type("text/csv");
    made.send().await.unwrap().upload_id.unwrap()
}

/// Uploads part `number`; its ETag.
async fn part(
    s3: &aws_sdk_s3::Client,
    (key, id): (&str, &str),
    number: i32,
    data: Vec<u8>,
) -> String {
    let call = s3
        .upload_part()
        .bucket("mpu")
        .key(key)
        .upload_id(id)
        .part_number(number);
    call.body(ByteStream::from(data))
        .send()
        .await
        .unwrap()
        .e_tag
        .unwrap()
}

fn completed(parts: &[(i32, &str)]) -> CompletedMultipartUpload {
    let parts = parts
        .iter()
        .map(|(n, e)| CompletedPart::builder().part_number(*n).e_tag(*e).build());
    CompletedMultipartUpload::builder()
        .set_parts(Some(parts.collect()))
        .build()
}

#[tokio::test]
async fn parts_complete_into_one_object() {
    let t = TestServer::start().await;
    let s3 = t.bucket("mpu").await;
    let id = start(&s3, "big.csv").await;
    let first = vec![b'a'; 5 * MIB];
    let last = b"tail".to_vec();
    let e1 = part(&s3, ("big.csv", &id), 1, first.clone()).await;
    let e2 = part(&s3, ("big.csv", &id), 2, last.clone()).await;
    let done = s3
        .complete_multipart_upload()
        .bucket("mpu")
        .key("big.csv")
        .upload_id(&id);
    let done = done
        .multipart_upload(completed(&[(1, &e1), (2, &e2)]))
        .send()
        .await
        .unwrap();
    let mut md5s = md5::Md5::new();
    for data in [&first, &last] {
        md5s.update(md5::Md5::digest(data));
    }
    assert_eq!(
        done.e_tag(),
        Some(format!("\"{}-2\"", hex(&md5s.finalize())).as_str())
    );
    let got = s3
        .get_object()
        .bucket("mpu")
        .key("big.csv")
        .send()
        .await
        .unwrap();
    assert_eq!(
        (got.content_type(), got.parts_count()),
        (Some("text/csv"), Some(2))
    );
    let bytes = body(got).await;
    assert_eq!(bytes.len(), 5 * MIB + 4);
    assert_eq!(&bytes[5 * MIB..], b"tail");
    let uploads = s3
        .list_multipart_uploads()
        .bucket("mpu")
        .send()
        .await
        .unwrap();
    assert!(uploads.uploads().is_empty());
    let gone = s3.list_parts().bucket("mpu").key("big.csv").upload_id(&id);
    let err = expect_code(gone.send().await, "NoSuchUpload");
    assert_eq!(status(&err), 404);
}

#[tokio::test]
async fn an_uploads_parts_and_a_buckets_uploads_are_listed() {
    let t = TestServer::start().await;
    let s3 = t.bucket("mpu").await;
    let id = start(&s3, "a/1").await;
    start(&s3, "a/2").await;
    start(&s3, "b").await;
    for n in 1..=3 {
        part(&s3, ("a/1", &id), n, vec![0; n as usize]).await;
    }
    let listed = s3.list_parts().bucket("mpu").key("a/1").upload_id(&id);
    let listed = listed.max_parts(2).send().await.unwrap();
    let sizes: Vec<i64> = listed
        .parts()
        .iter()
        .filter_map(aws_sdk_s3::types::Part::size)
        .collect();
    assert_eq!((sizes, listed.is_truncated()), (vec![1, 2], Some(true)));
    let rest = s3.list_parts().bucket("mpu").key("a/1").upload_id(&id);
    let marker = listed.next_part_number_marker().unwrap();
    let rest = rest.part_number_marker(marker).send().await.unwrap();
    assert_eq!(rest.parts()[0].part_number(), Some(3));
    let uploads = s3
        .list_multipart_uploads()
        .bucket("mpu")
        .send()
        .await
        .unwrap();
    let keys: Vec<&str> = uploads.uploads().iter().filter_map(|u| u.key()).collect();
    assert_eq!(keys, ["a/1", "a/2", "b"]);
    let rolled = s3.list_multipart_uploads().bucket("mpu").delimiter("/");
    let rolled = rolled.send().await.unwrap();
    assert_eq!(rolled.common_prefixes()[0].prefix(), Some("a/"));
    assert_eq!(rolled.uploads()[0].key(), Some("b"));
}

#[tokio::test]
async fn s3s_errors_for_completions() {
    let t = TestServer::start().await;
    let s3 = t.bucket("mpu").await;
    let id = start(&s3, "k").await;
    let small = part(&s3, ("k", &id), 1, b"small".to_vec()).await;
    let other = part(&s3, ("k", &id), 2, b"other".to_vec()).await;
    let complete = |parts: &[(i32, &str)]| {
        s3.complete_multipart_upload()
            .bucket("mpu")
            .key("k")
            .upload_id(&id)
            .multipart_upload(completed(parts))
    };
    let err = expect_code(
        complete(&[(1, &small), (2, &other)]).send().await,
        "EntityTooSmall",
    );
    assert_eq!(status(&err), 400);
    expect_code(
        complete(&[(2, &other), (1, &small)]).send().await,
        "InvalidPartOrder",
    );
    expect_code(complete(&[(3, &small)]).send().await, "InvalidPart");
    expect_code(complete(&[(1, &other)]).send().await, "InvalidPart");
    let call = s3
        .upload_part()
        .bucket("mpu")
        .key("k")
        .upload_id(&id)
        .part_number(10_001);
    expect_code(
        call.body(ByteStream::from_static(b"x")).send().await,
        "InvalidArgument",
    );
    s3.abort_multipart_upload()
        .bucket("mpu")
        .key("k")
        .upload_id(&id)
        .send()
        .await
        .unwrap();
    expect_code(complete(&[(1, &small)]).send().await, "NoSuchUpload");
    let call = s3
        .upload_part()
        .bucket("mpu")
        .key("k")
        .upload_id(&id)
        .part_number(1);
    expect_code(
        call.body(ByteStream::from_static(b"x")).send().await,
        "NoSuchUpload",
    );
    let abort = s3
        .abort_multipart_upload()
        .bucket("mpu")
        .key("k")
        .upload_id("nope");
    expect_code(abort.send().await, "NoSuchUpload");
}

#[tokio::test]
async fn a_part_copied_from_an_object_and_a_range_of_it() {
    let t = TestServer::start().await;
    let s3 = t.bucket("mpu").await;
    let data: Vec<u8> = (0..5 * MIB + 10).map(|i| (i % 251) as u8).collect();
    let put = s3
        .put_object()
        .bucket("mpu")
        .key("src")
        .body(ByteStream::from(data.clone()));
    put.send().await.unwrap();
    let id = start(&s3, "dst").await;
    let copy = |n: i32| {
        s3.upload_part_copy()
            .bucket("mpu")
            .key("dst")
            .upload_id(&id)
            .part_number(n)
            .copy_source("mpu/src")
    };
    let e1 = copy(1)
        .send()
        .await
        .unwrap()
        .copy_part_result
        .unwrap()
        .e_tag
        .unwrap();
    let e2 = copy(2).copy_source_range("bytes=0-9").send().await.unwrap();
    let e2 = e2.copy_part_result.unwrap().e_tag.unwrap();
    let err = copy(3).copy_source_range("bytes=0-99999999").send().await;
    expect_code(err, "InvalidRange");
    let done = s3
        .complete_multipart_upload()
        .bucket("mpu")
        .key("dst")
        .upload_id(&id);
    done.multipart_upload(completed(&[(1, &e1), (2, &e2)]))
        .send()
        .await
        .unwrap();
    let got = body(
        s3.get_object()
            .bucket("mpu")
            .key("dst")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(got.len(), data.len() + 10);
    assert_eq!(&got[..data.len()], &data[..]);
    assert_eq!(&got[data.len()..], &data[..10]);
}

/// GetObject and HeadObject with `partNumber` read that part of a multipart object (what SDK
/// v2's multipart S3AsyncClient downloads by: the first answer's parts count, then each part);
/// a one-part object is its own part 1. sqslite once answered every part with the whole
/// object and the parts count, and the SDK put the object together three times over.
#[tokio::test]
async fn a_part_of_an_object_is_read_by_its_number() {
    let t = TestServer::start().await;
    let s3 = t.bucket("mpu").await;
    let id = start(&s3, "parts.bin").await;
    let e1 = part(&s3, ("parts.bin", &id), 1, vec![b'a'; 5 * MIB]).await;
    let e2 = part(&s3, ("parts.bin", &id), 2, vec![b'b'; 5 * MIB]).await;
    let e3 = part(&s3, ("parts.bin", &id), 3, b"tail".to_vec()).await;
    let done = s3
        .complete_multipart_upload()
        .bucket("mpu")
        .key("parts.bin");
    let done = done.upload_id(&id);
    let all = completed(&[(1, &e1), (2, &e2), (3, &e3)]);
    done.multipart_upload(all).send().await.unwrap();

    let get = |n: i32| {
        s3.get_object()
            .bucket("mpu")
            .key("parts.bin")
            .part_number(n)
    };
    let second = get(2).send().await.unwrap();
    let total = 10 * MIB + 4;
    let range = format!("bytes {}-{}/{total}", 5 * MIB, 10 * MIB - 1);
    assert_eq!(second.content_range(), Some(range.as_str()));
    assert_eq!(second.parts_count(), Some(3));
    assert_eq!(second.content_length(), Some(5 * MIB as i64));
    assert_eq!(body(second).await, vec![b'b'; 5 * MIB]);
    let last = get(3).send().await.unwrap();
    assert_eq!(body(last).await, b"tail");
    let head = s3
        .head_object()
        .bucket("mpu")
        .key("parts.bin")
        .part_number(3);
    let head = head.send().await.unwrap();
    assert_eq!(
        (head.content_length(), head.parts_count()),
        (Some(4), Some(3))
    );
    let err = expect_code(get(4).send().await, "InvalidPart");
    assert_eq!(status(&err), 400);
    expect_code(get(10_001).send().await, "InvalidArgument");
    let both = get(1).range("bytes=0-9").send().await;
    expect_code(both, "InvalidRequest");

    let plain = s3.put_object().bucket("mpu").key("plain.txt");
    plain
        .body(ByteStream::from_static(b"plain"))
        .send()
        .await
        .unwrap();
    let get = |n: i32| {
        s3.get_object()
            .bucket("mpu")
            .key("plain.txt")
            .part_number(n)
    };
    let whole = get(1).send().await.unwrap();
    assert_eq!(whole.content_range(), Some("bytes 0-4/5"));
    assert_eq!(whole.parts_count(), None);
    assert_eq!(body(whole).await, b"plain");
    expect_code(get(2).send().await, "InvalidPart");
}
