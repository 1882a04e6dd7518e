//! Both addressing styles: path style on the endpoint, and the virtual hosts SDKs build from
//! the endpoints LocalStack users configure (`localhost`, `s3.localhost.localstack.cloud`,
//! `localhost.localstack.cloud`) and from `--public-url`'s host; unsigned requests by path and
//! by host.

use aws_sdk_s3::primitives::ByteStream;
use sqslite::Config;

use crate::common::s3::{body, virtual_host_client};
use crate::common::TestServer;

/// The server's port.
fn port(t: &TestServer) -> String {
    t.endpoint().rsplit(':').next().unwrap().to_owned()
}

#[tokio::test]
async fn buckets_addressed_as_virtual_hosts() {
    let t = TestServer::start().await;
    let port = port(&t);
    for (n, base) in [
        "localhost",
        "s3.localhost.localstack.cloud",
        "localhost.localstack.cloud",
    ]
    .iter()
    .enumerate()
    {
        let (s3, hosts) = virtual_host_client(&t, &format!("http://{base}:{port}"));
        let bucket = format!("vhost-{n}");
        s3.create_bucket().bucket(&bucket).send().await.unwrap();
        let put = s3.put_object().bucket(&bucket).key("dir/obj.txt");
        put.body(ByteStream::from_static(b"hosted"))
            .send()
            .await
            .unwrap();
        let got = s3
            .get_object()
            .bucket(&bucket)
            .key("dir/obj.txt")
            .send()
            .await
            .unwrap();
        assert_eq!(body(got).await, b"hosted", "{base}");
        let listed = s3.list_objects_v2().bucket(&bucket).send().await.unwrap();
        assert_eq!(listed.contents()[0].key(), Some("dir/obj.txt"), "{base}");
        let want = format!("{bucket}.{base}:{port}");
        assert!(
            hosts.lock().unwrap().iter().all(|h| *h == want),
            "{hosts:?}"
        );
        // The same object by path style on the endpoint.
        let got = t
            .s3()
            .get_object()
            .bucket(&bucket)
            .key("dir/obj.txt")
            .send()
            .await;
        assert_eq!(body(got.unwrap()).await, b"hosted");
    }
    let regional = format!("http://s3.us-east-1.localhost.localstack.cloud:{port}");
    let (regional, hosts) = virtual_host_client(&t, &regional);
    regional
        .head_bucket()
        .bucket("vhost-0")
        .send()
        .await
        .unwrap();
    let want = format!("vhost-0.s3.us-east-1.localhost.localstack.cloud:{port}");
    assert_eq!(*hosts.lock().unwrap(), [want]);
}

#[tokio::test]
async fn the_public_urls_subdomains_name_buckets() {
    let mut config = Config::ephemeral();
    config.public_url = Some("http://objects.test".into());
    let t = TestServer::start_with(config).await;
    let (s3, hosts) = virtual_host_client(&t, "http://objects.test");
    s3.create_bucket().bucket("public").send().await.unwrap();
    let put = s3.put_object().bucket("public").key("k");
    put.body(ByteStream::from_static(b"v"))
        .send()
        .await
        .unwrap();
    let names = t.s3().list_buckets().send().await.unwrap();
    assert_eq!(names.buckets()[0].name(), Some("public"));
    assert_eq!(hosts.lock().unwrap()[1], "public.objects.test");
}

#[tokio::test]
async fn unsigned_requests_by_path_and_by_host() {
    let t = TestServer::start().await;
    let s3 = t.bucket("anon").await;
    let put = s3
        .put_object()
        .bucket("anon")
        .key("a/b c.txt")
        .content_type("text/plain");
    put.body(ByteStream::from_static(b"open"))
        .send()
        .await
        .unwrap();
    let r = t.raw("GET", "/anon/a/b%20c.txt", &[], "").await;
    assert_eq!((r.status, r.body.as_str()), (200, "open"));
    assert_eq!(r.header("content-type"), Some("text/plain"));
    let host = [("host", "anon.s3.localhost.localstack.cloud")];
    let r = t.raw("GET", "/a/b%20c.txt", &host, "").await;
    assert_eq!((r.status, r.body.as_str()), (200, "open"));
    let r = t.raw("HEAD", "/anon/a/b%20c.txt", &[], "").await;
    assert_eq!((r.status, r.header("content-length")), (200, Some("4")));
    let r = t.raw("GET", "/anon?list-type=2", &[], "").await;
    assert_eq!(r.xml("Key").as_deref(), Some("a/b c.txt"));
    let r = t.raw("DELETE", "/anon/a/b%20c.txt", &[], "").await;
    assert_eq!(r.status, 204);
}
