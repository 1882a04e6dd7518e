//! S3's requests in `/metrics`, by operation and outcome, as every service's are.

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
