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

/// A request signed for S3 as the SDKs sign it (path encoded once, not normalized, the
/// declared payload hash in `x-amz-content-sha256`) at the server's time: its headers and
/// signature.
pub struct SignedS3 {
    pub headers: Vec<(String, String)>,
    pub signature: String,
    /// `X-Amz-Date`.
    pub amz_date: String,
    /// When it was signed.
    pub time: std::time::SystemTime,
}

/// Signs `method path` with `headers` for S3, declaring `payload` as the body's hash.
pub fn sign_s3(
    t: &TestServer,
    (key, secret): (&str, &str),
    (method, path): (&str, &str),
    headers: &[(&str, &str)],
    payload: &str,
) -> SignedS3 {
    use aws_sigv4::http_request::{
        sign, PayloadChecksumKind, PercentEncodingMode, SignableBody, SignableRequest,
        SigningSettings, UriPathNormalizationMode,
    };
    use sqslite::Clock;
    let host = t.endpoint().trim_start_matches("http://").to_owned();
    let mut all = vec![("host".to_owned(), host.clone())];
    all.extend(
        headers
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    let identity = aws_credential_types::Credentials::new(key, secret, None, None, "t");
    let identity = aws_smithy_runtime_api::client::identity::Identity::from(identity);
    let mut settings = SigningSettings::default();
    settings.percent_encoding_mode = PercentEncodingMode::Single;
    settings.uri_path_normalization_mode = UriPathNormalizationMode::Disabled;
    settings.payload_checksum_kind = PayloadChecksumKind::XAmzSha256;
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_millis(t.clock.now());
    let params = aws_sigv4::sign::v4::SigningParams::builder()
        .identity(&identity)
        .region("us-east-1")
        .name("s3")
        .time(time)
        .settings(settings)
        .build()
        .unwrap()
        .into();
    let url = format!("http://{host}{path}");
    let request = SignableRequest::new(
        method,
        &url,
        all.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        SignableBody::Precomputed(payload.to_owned()),
    )
    .unwrap();
    let (instructions, signature) = sign(request, &params).unwrap().into_parts();
    for (k, v) in instructions.headers() {
        all.push((k.to_owned(), v.to_owned()));
    }
    let amz_date = all
        .iter()
        .find(|(k, _)| k == "x-amz-date")
        .unwrap()
        .1
        .clone();
    SignedS3 {
        headers: all,
        signature,
        amz_date,
        time,
    }
}

/// An `aws-chunked` body of `chunks`, each signed in the chain from `seed` (SigV4 streaming)
/// with `secret` under the request's date; `tamper` changes the first chunk's signature.
pub fn signed_chunks(secret: &str, signed: &SignedS3, chunks: &[&[u8]], tamper: bool) -> String {
    use sha2::{Digest, Sha256};
    use std::fmt::Write;
    let day = &signed.amz_date[..8];
    let key = aws_sigv4::sign::v4::generate_signing_key(secret, signed.time, "us-east-1", "s3");
    let scope = format!("{day}/us-east-1/s3/aws4_request");
    let empty = hex(&Sha256::digest(b""));
    let mut previous = signed.signature.clone();
    let mut body = String::new();
    for (i, chunk) in chunks.iter().chain([&&b""[..]]).enumerate() {
        let to_sign = format!(
            "AWS4-HMAC-SHA256-PAYLOAD\n{}\n{scope}\n{previous}\n{empty}\n{}",
            signed.amz_date,
            hex(&Sha256::digest(chunk))
        );
        let mut signature = aws_sigv4::sign::v4::calculate_signature(&key, to_sign.as_bytes());
        previous.clone_from(&signature);
        if tamper && i == 0 {
            signature = "0".repeat(64);
        }
        let _ = write!(body, "{:x};chunk-signature={signature}\r\n", chunk.len());
        body.push_str(std::str::from_utf8(chunk).unwrap());
        body.push_str("\r\n");
    }
    body
}

/// Sends a request the SDK addressed to a virtual host (`<bucket>.<name>:<port>`) to the test
/// server whatever that name resolves to: the SDK's name in the Host header, as it signed it,
/// the connection to the server's address.
#[derive(Debug)]
struct Loopback {
    addr: String,
    /// The hosts the SDK addressed, in order.
    hosts: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl aws_sdk_s3::config::Intercept for Loopback {
    fn name(&self) -> &'static str {
        "Loopback"
    }

    fn modify_before_transmit(
        &self,
        context: &mut aws_sdk_s3::config::interceptors::BeforeTransmitInterceptorContextMut<'_>,
        _: &aws_sdk_s3::config::RuntimeComponents,
        _: &mut aws_sdk_s3::config::ConfigBag,
    ) -> Result<(), aws_sdk_s3::error::BoxError> {
        let request = context.request_mut();
        let uri: hyper::Uri = request.uri().parse()?;
        let authority = uri.authority().map(ToString::to_string).unwrap_or_default();
        let path = uri.path_and_query().map_or("/", |p| p.as_str());
        self.hosts.lock().unwrap().push(authority.clone());
        request.headers_mut().insert("host", authority);
        request.set_uri(format!("http://{}{path}", self.addr))?;
        Ok(())
    }
}

/// The hosts a [`virtual_host_client`] addressed.
pub type Hosts = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// A client addressing buckets as virtual hosts below `endpoint` (a name with the server's
/// port), reaching the test server whatever the name resolves to; the hosts it addressed.
pub fn virtual_host_client(t: &TestServer, endpoint: &str) -> (Client, Hosts) {
    let hosts = Hosts::default();
    let credentials = Credentials::new("AKIDEXAMPLE", "secret", None, None, "test");
    let config = aws_sdk_s3::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .credentials_provider(credentials)
        .retry_config(aws_sdk_s3::config::retry::RetryConfig::disabled())
        .time_source(ClockTime(t.clock.clone()))
        .interceptor(Loopback {
            addr: t.endpoint().trim_start_matches("http://").to_owned(),
            hosts: hosts.clone(),
        })
        .build();
    (Client::from_conf(config), hosts)
}
