//! S3 requests with `[[credentials]]` declared: the SDK's signatures (its streamed, trailing
//! checksums included) verified on the server's clock, presigned GET and PUT URLs, STS's
//! temporary keys, and S3's refusals of a wrong secret, an unknown key, an expired key or URL
//! and no signature at all. Without credentials any signature is accepted.

use std::time::Duration;

use aws_sdk_s3::presigning::PresigningConfig;
use aws_sdk_s3::primitives::ByteStream;
use sqslite::config::Credential;
use sqslite::Config;

use crate::common::s3::{body, s3_client_with, status};
use crate::common::{expect_code, message, sts_client_with, TestServer, OWNER};

/// A server that verifies callers: `AKIDEXAMPLE` is OWNER's key.
async fn verified() -> TestServer {
    let config =
        Config::ephemeral().with_credential(Credential::new("AKIDEXAMPLE", "secret", OWNER));
    TestServer::start_with(config).await
}

#[tokio::test]
async fn the_sdks_signatures_verify_and_others_are_refused() {
    let t = verified().await;
    let s3 = t.bucket("signed").await;
    let data = vec![7u8; 300_000];
    let put = s3
        .put_object()
        .bucket("signed")
        .key("k")
        .body(ByteStream::from(data.clone()));
    put.send().await.unwrap();
    let got = s3
        .get_object()
        .bucket("signed")
        .key("k")
        .send()
        .await
        .unwrap();
    assert_eq!(body(got).await, data);
    let wrong = s3_client_with(&t.endpoint(), ("AKIDEXAMPLE", "wrong", None), &t.clock);
    let err = expect_code(wrong.list_buckets().send().await, "SignatureDoesNotMatch");
    assert_eq!(status(&err), 403);
    let unknown = s3_client_with(&t.endpoint(), ("AKIDNOBODY", "secret", None), &t.clock);
    let err = expect_code(unknown.list_buckets().send().await, "InvalidAccessKeyId");
    assert_eq!(status(&err), 403);
    let anonymous = t.raw("GET", "/signed/k", &[], "").await;
    assert_eq!(
        (anonymous.status, anonymous.xml("Code").as_deref()),
        (403, Some("AccessDenied"))
    );
}

#[tokio::test]
async fn presigned_urls_get_and_put_until_they_expire() {
    let t = verified().await;
    let s3 = t.bucket("pre").await;
    let presign = PresigningConfig::builder()
        .expires_in(Duration::from_mins(5))
        .start_time(std::time::UNIX_EPOCH + Duration::from_millis(crate::common::T0))
        .build()
        .unwrap();
    let put = s3
        .put_object()
        .bucket("pre")
        .key("up.txt")
        .presigned(presign.clone())
        .await
        .unwrap();
    let uri = put.uri().trim_start_matches(&t.endpoint()).to_owned();
    let r = t.raw("PUT", &uri, &[], "uploaded by URL").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let get = s3
        .get_object()
        .bucket("pre")
        .key("up.txt")
        .presigned(presign)
        .await
        .unwrap();
    let uri = get.uri().trim_start_matches(&t.endpoint()).to_owned();
    let r = t.raw("GET", &uri, &[], "").await;
    assert_eq!((r.status, r.body.as_str()), (200, "uploaded by URL"));
    t.advance(301);
    let r = t.raw("GET", &uri, &[], "").await;
    assert_eq!(
        (r.status, r.xml("Code").as_deref()),
        (403, Some("AccessDenied"))
    );
    assert_eq!(r.xml("Message").as_deref(), Some("Request has expired"));
}

#[tokio::test]
async fn sts_keys_act_as_their_caller_until_they_expire() {
    let t = verified().await;
    t.bucket("mine").await;
    let sts = sts_client_with(&t.endpoint(), ("AKIDEXAMPLE", "secret", None), &t.clock);
    let out = sts
        .get_session_token()
        .duration_seconds(900)
        .send()
        .await
        .unwrap();
    let c = out.credentials().unwrap();
    let keys = (
        c.access_key_id(),
        c.secret_access_key(),
        Some(c.session_token()),
    );
    let temporary = s3_client_with(&t.endpoint(), keys, &t.clock);
    let put = temporary
        .put_object()
        .bucket("mine")
        .key("k")
        .body(ByteStream::from_static(b"x"));
    put.send().await.unwrap();
    let names = temporary.list_buckets().send().await.unwrap();
    assert_eq!(names.buckets()[0].name(), Some("mine"));
    let tokenless = s3_client_with(&t.endpoint(), (keys.0, keys.1, None), &t.clock);
    expect_code(tokenless.list_buckets().send().await, "InvalidAccessKeyId");
    t.advance(901);
    let err = expect_code(temporary.list_buckets().send().await, "ExpiredToken");
    assert_eq!(message(&err), "The provided token has expired.");
}

#[tokio::test]
async fn without_credentials_any_signature_is_accepted() {
    let t = TestServer::start().await;
    let s3 = t.bucket("open").await;
    let other = s3_client_with(&t.endpoint(), ("anything", "whatever", None), &t.clock);
    let put = other
        .put_object()
        .bucket("open")
        .key("k")
        .body(ByteStream::from(vec![1u8; 100_000]));
    put.send().await.unwrap();
    let r = t.raw("GET", "/open/k", &[], "").await;
    assert_eq!((r.status, r.body.len()), (200, 100_000));
    let got = s3
        .get_object()
        .bucket("open")
        .key("k")
        .send()
        .await
        .unwrap();
    assert_eq!(body(got).await.len(), 100_000);
}

#[tokio::test]
async fn a_policys_deny_binds_the_owner_too() {
    let t = verified().await;
    let s3 = t.bucket("denied").await;
    let put = s3
        .put_object()
        .bucket("denied")
        .key("k")
        .body(ByteStream::from_static(b"x"));
    put.send().await.unwrap();
    let policy = serde_json::json!({"Version": "2012-10-17", "Statement": [{"Effect": "Deny",
        "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::denied/*"}]});
    let call = s3
        .put_bucket_policy()
        .bucket("denied")
        .policy(policy.to_string());
    call.send().await.unwrap();
    let err = expect_code(
        s3.get_object().bucket("denied").key("k").send().await,
        "AccessDenied",
    );
    assert_eq!(
        (status(&err), message(&err).as_str()),
        (403, "Access Denied")
    );
    s3.list_objects_v2().bucket("denied").send().await.unwrap();
}

/// Keys with every character URL encoding treats specially, signed and verified (S3's
/// canonical path is the key encoded once, its `.`/`..`/`//` left as they are).
#[tokio::test]
async fn keys_with_every_encoding_edge_are_signed_stored_and_listed() {
    let t = verified().await;
    let s3 = t.bucket("edges").await;
    let keys = [
        "a b",
        "a+b=c&d",
        "100%",
        "q?x=1#y",
        "ünï/çødé/日本",
        "dir/../up",
        "dir/./here",
        "dir//double",
        "~tilde*star(paren)'quote'",
        "emoji 🎉",
    ];
    for key in keys {
        let put = s3
            .put_object()
            .bucket("edges")
            .key(key)
            .body(ByteStream::from(key.as_bytes().to_vec()));
        put.send().await.unwrap_or_else(|e| panic!("{key}: {e:?}"));
        let got = s3.get_object().bucket("edges").key(key).send().await;
        let got = got.unwrap_or_else(|e| panic!("{key}: {e:?}"));
        assert_eq!(body(got).await, key.as_bytes(), "{key}");
    }
    let listed = s3.list_objects_v2().bucket("edges").send().await.unwrap();
    let mut listed: Vec<&str> = listed.contents().iter().filter_map(|o| o.key()).collect();
    let mut want = keys.to_vec();
    want.sort_unstable();
    listed.sort_unstable();
    assert_eq!(listed, want);
}

#[tokio::test]
async fn an_expected_bucket_owner_that_is_not_the_owner_is_refused() {
    let t = verified().await;
    let s3 = t.bucket("expected").await;
    s3.head_bucket()
        .bucket("expected")
        .expected_bucket_owner(OWNER)
        .send()
        .await
        .unwrap();
    let call = s3
        .list_objects_v2()
        .bucket("expected")
        .expected_bucket_owner("999999999999");
    let err = expect_code(call.send().await, "AccessDenied");
    assert_eq!(status(&err), 403);
}
