//! S3 clients for the tests' servers: the real aws-sdk-s3 on the manual clock, path style on
//! the endpoint (or virtual-host style through a name the test resolves itself).

use aws_sdk_s3::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_s3::Client;
use sqslite::ManualClock;

use super::clients::ClockTime;
use super::TestServer;

/// A client signing with this key (and session token), path style, at the clock's time.
pub fn s3_client_with(
    endpoint: &str,
    (access_key, secret, token): (&str, &str, Option<&str>),
    clock: &ManualClock,
) -> Client {
    let credentials = Credentials::new(access_key, secret, token.map(str::to_owned), None, "test");
    let config = aws_sdk_s3::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .force_path_style(true)
        .credentials_provider(credentials)
        .retry_config(aws_sdk_s3::config::retry::RetryConfig::disabled())
        .time_source(ClockTime(clock.clone()))
        .build();
    Client::from_conf(config)
}

impl TestServer {
    /// The default key's S3 client (`AKIDEXAMPLE`).
    pub fn s3(&self) -> Client {
        s3_client_with(
            &self.endpoint(),
            ("AKIDEXAMPLE", "secret", None),
            &self.clock,
        )
    }

    /// A bucket of the default key's, created.
    pub async fn bucket(&self, name: &str) -> Client {
        let s3 = self.s3();
        s3.create_bucket()
            .bucket(name)
            .send()
            .await
            .expect("create bucket");
        s3
    }
}

/// The HTTP status of a failed call.
pub fn status<E>(
    err: &aws_sdk_s3::error::SdkError<E, aws_sdk_s3::config::http::HttpResponse>,
) -> u16 {
    err.raw_response().map_or(0, |r| r.status().as_u16())
}

/// An object's body as bytes.
pub async fn body(out: aws_sdk_s3::operation::get_object::GetObjectOutput) -> Vec<u8> {
    out.body
        .collect()
        .await
        .expect("the body")
        .into_bytes()
        .to_vec()
}

/// S3's ETag of a single-part object: its MD5 in hex, quoted.
pub fn etag(data: &[u8]) -> String {
    use md5::Digest;
    format!("\"{}\"", hex(&md5::Md5::digest(data)))
}

/// Bytes as lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
