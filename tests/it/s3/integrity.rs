//! A body held to what its request declares: Content-MD5 and flexible checksums (BadDigest),
//! x-amz-content-sha256 (XAmzContentSHA256Mismatch), signed `aws-chunked` bodies whose every
//! chunk signature is checked (SignatureDoesNotMatch), an unsigned one's trailing checksum;
//! and the bound on what the server holds (EntityTooLarge).

use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{ChecksumAlgorithm, ChecksumMode};
use sqslite::config::Credential;
use sqslite::Config;

use crate::common::s3::{body, hex, sign_s3, signed_chunks, status};
use crate::common::{expect_code, message, TestServer, OWNER};

#[tokio::test]
async fn digests_the_request_declares_are_checked() {
    let t = TestServer::start().await;
    let s3 = t.bucket("sums").await;
    let put = || {
        s3.put_object()
            .bucket("sums")
            .key("k")
            .body(ByteStream::from_static(b"data"))
    };
    let err = expect_code(
        put().content_md5("AAAAAAAAAAAAAAAAAAAAAA==").send().await,
        "BadDigest",
    );
    assert_eq!(
        message(&err),
        "The Content-MD5 you specified did not match what we received."
    );
    expect_code(put().content_md5("not-md5").send().await, "InvalidDigest");
    let err = expect_code(put().checksum_crc32("AAAAAA==").send().await, "BadDigest");
    assert_eq!(
        message(&err),
        "The CRC32 you specified did not match the calculated checksum."
    );
    assert_eq!(status(&err), 400);
    let sha = put()
        .checksum_algorithm(ChecksumAlgorithm::Sha256)
        .send()
        .await
        .unwrap();
    let stored = sha.checksum_sha256().unwrap().to_owned();
    let got = s3
        .get_object()
        .bucket("sums")
        .key("k")
        .checksum_mode(ChecksumMode::Enabled);
    let got = got.send().await.unwrap();
    assert_eq!(got.checksum_sha256(), Some(stored.as_str()));
    assert_eq!(body(got).await, b"data");
}

#[tokio::test]
async fn a_body_that_is_not_the_one_its_hash_declares_is_refused() {
    let t = TestServer::start().await;
    t.bucket("hashed").await;
    let declared = {
        use sha2::Digest;
        hex(&sha2::Sha256::digest(b"other"))
    };
    let signed = sign_s3(&t, ("AKID", "x"), ("PUT", "/hashed/k"), &[], &declared);
    let headers: Vec<(&str, &str)> = signed
        .headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let r = t.raw("PUT", "/hashed/k", &headers, "data").await;
    assert_eq!(
        (r.status, r.xml("Code").as_deref()),
        (400, Some("XAmzContentSHA256Mismatch"))
    );
    let r = t.raw("GET", "/hashed/k", &[], "").await;
    assert_eq!(r.xml("Code").as_deref(), Some("NoSuchKey"));
}

/// A server verifying `AKIDEXAMPLE`, with a bucket of its own.
async fn verified() -> TestServer {
    let config =
        Config::ephemeral().with_credential(Credential::new("AKIDEXAMPLE", "secret", OWNER));
    let t = TestServer::start_with(config).await;
    t.bucket("chunks").await;
    t
}

#[tokio::test]
async fn every_chunk_of_a_signed_streamed_body_is_checked() {
    let t = verified().await;
    let chunks: [&[u8]; 2] = [&[b'a'; 9000], b"the rest"];
    for tamper in [false, true] {
        let declared = [
            ("content-encoding", "aws-chunked"),
            ("x-amz-decoded-content-length", "9008"),
        ];
        let signed = sign_s3(
            &t,
            ("AKIDEXAMPLE", "secret"),
            ("PUT", "/chunks/k"),
            &declared,
            "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
        );
        let chunked = signed_chunks("secret", &signed, &chunks, tamper);
        let headers: Vec<(&str, &str)> = signed
            .headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let r = t.raw("PUT", "/chunks/k", &headers, &chunked).await;
        if tamper {
            assert_eq!(
                (r.status, r.xml("Code").as_deref()),
                (403, Some("SignatureDoesNotMatch"))
            );
        } else {
            assert_eq!(r.status, 200, "{}", r.body);
        }
    }
    let got = t
        .s3()
        .get_object()
        .bucket("chunks")
        .key("k")
        .send()
        .await
        .unwrap();
    let data = body(got).await;
    assert_eq!((data.len(), &data[9000..]), (9008, &b"the rest"[..]));
}

#[tokio::test]
async fn an_unsigned_streamed_bodys_trailing_checksum_is_checked() {
    let t = TestServer::start().await;
    t.bucket("trailer").await;
    let headers = [
        ("content-encoding", "aws-chunked"),
        ("x-amz-content-sha256", "STREAMING-UNSIGNED-PAYLOAD-TRAILER"),
        ("x-amz-decoded-content-length", "11"),
        ("x-amz-trailer", "x-amz-checksum-crc32"),
    ];
    // CRC32 of "hello world" is 0x0d4a1185.
    for (crc, status, code) in [
        ("DUoRhQ==", 200, None),
        ("AAAAAA==", 400, Some("BadDigest")),
    ] {
        let body = format!("b\r\nhello world\r\n0\r\nx-amz-checksum-crc32:{crc}\r\n\r\n");
        let r = t.raw("PUT", "/trailer/k", &headers, &body).await;
        assert_eq!(
            (r.status, r.xml("Code").as_deref()),
            (status, code),
            "{}",
            r.body
        );
    }
    let got = t
        .s3()
        .get_object()
        .bucket("trailer")
        .key("k")
        .checksum_mode(ChecksumMode::Enabled);
    let got = got.send().await.unwrap();
    assert_eq!(got.checksum_crc32(), Some("DUoRhQ=="));
    let short = [
        ("content-encoding", "aws-chunked"),
        ("x-amz-decoded-content-length", "11"),
    ];
    let r = t
        .raw("PUT", "/trailer/k", &short, "5\r\nhello\r\n0\r\n\r\n")
        .await;
    assert_eq!(
        r.xml("Code").as_deref(),
        Some("IncompleteBody"),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn the_server_holds_at_most_its_bound() {
    let mut config = Config::ephemeral();
    config.s3.max_bytes = 100_000;
    let t = TestServer::start_with(config).await;
    let s3 = t.bucket("bound").await;
    let put = |key: &'static str, n: usize| {
        s3.put_object()
            .bucket("bound")
            .key(key)
            .body(ByteStream::from(vec![0u8; n]))
    };
    put("a", 60_000).send().await.unwrap();
    let err = expect_code(put("b", 60_000).send().await, "EntityTooLarge");
    assert!(message(&err).contains("--s3-max-bytes 100000"), "{err:?}");
    s3.delete_object()
        .bucket("bound")
        .key("a")
        .send()
        .await
        .unwrap();
    put("b", 60_000).send().await.unwrap();
}

/// A body that ends before its Content-Length says (the client closes its side): S3's
/// IncompleteBody, nothing stored.
#[tokio::test]
async fn a_content_length_that_lies_is_incomplete_body() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let t = TestServer::start().await;
    t.bucket("short").await;
    let addr = t.endpoint().trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let head = format!("PUT /short/k HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 10\r\n\r\nabc");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.shutdown().await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("<Code>IncompleteBody</Code>"), "{answer}");
    let r = t.raw("GET", "/short/k", &[], "").await;
    assert_eq!(r.xml("Code").as_deref(), Some("NoSuchKey"));
}
