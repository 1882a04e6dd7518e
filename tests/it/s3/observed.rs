//! S3 as the admin API and the observers see it: its requests in `/metrics` by operation and
//! outcome, as every service's, and its buckets gone with a reset.

use aws_sdk_s3::primitives::ByteStream;

use crate::common::TestServer;

#[tokio::test]
async fn s3_requests_are_counted_by_operation_and_outcome() {
    let t = TestServer::start().await;
    let s3 = t.bucket("counted").await;
    let put = s3.put_object().bucket("counted").key("k");
    put.body(ByteStream::from_static(b"x"))
        .send()
        .await
        .unwrap();
    s3.get_object()
        .bucket("counted")
        .key("k")
        .send()
        .await
        .unwrap();
    let _ = s3.get_object().bucket("counted").key("none").send().await;
    let metrics = t.raw("GET", "/metrics", &[], "").await.body;
    for line in [
        r#"sqslite_requests_total{action="CreateBucket",outcome="success",service="s3"} 1"#,
        r#"sqslite_requests_total{action="PutObject",outcome="success",service="s3"} 1"#,
        r#"sqslite_requests_total{action="GetObject",outcome="success",service="s3"} 1"#,
        r#"sqslite_requests_total{action="GetObject",outcome="client_error",service="s3"} 1"#,
    ] {
        assert!(metrics.contains(line), "{line} not in:\n{metrics}");
    }
}

#[tokio::test]
async fn the_admin_reset_empties_s3_too() {
    let t = TestServer::start().await;
    let s3 = t.bucket("reset").await;
    let put = s3.put_object().bucket("reset").key("k");
    put.body(ByteStream::from(vec![0u8; 1000]))
        .send()
        .await
        .unwrap();
    let r = t.raw("POST", "/_sqslite/reset", &[], "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(s3.list_buckets().send().await.unwrap().buckets().is_empty());
    let err = s3
        .get_object()
        .bucket("reset")
        .key("k")
        .send()
        .await
        .unwrap_err();
    assert_eq!(crate::common::code(&err), "NoSuchBucket");
}
