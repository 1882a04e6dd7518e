//! Requests signed with aws-sigv4 (the SDKs' own signer) at the server's time, for tests that
//! build or tamper with signed requests by hand.

use aws_sigv4::http_request::{sign, SignableBody, SignableRequest, SignatureLocation};
use sqslite::Clock;

use super::{RawResponse, TestServer};

/// How to sign: which key, region and location, over which payload.
#[derive(Clone, Copy)]
pub struct Signer<'a> {
    pub key: &'a str,
    pub secret: &'a str,
    pub region: &'a str,
    /// Presign in the URL, valid for this many seconds; `None` signs in headers.
    pub presign: Option<u64>,
    /// Sign `UNSIGNED-PAYLOAD` instead of the body's hash.
    pub unsigned_payload: bool,
    /// The signing name of the credential scope: `sqs`, `sns`.
    pub service: &'a str,
}

impl Default for Signer<'_> {
    fn default() -> Self {
        Signer {
            key: "AKIDEXAMPLE",
            secret: "secret",
            region: "us-east-1",
            presign: None,
            unsigned_payload: false,
            service: "sqs",
        }
    }
}

/// A request as sent: path with query, headers (every one the test passes is signed; `host`
/// is added), body.
pub struct Signed {
    pub path: String,
    pub headers: Vec<(String, String)>,
}

impl Signed {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Replaces (or adds) a header after signing.
    pub fn set(&mut self, name: &str, value: &str) {
        self.headers.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
        self.headers.push((name.to_owned(), value.to_owned()));
    }

    pub async fn send(&self, s: &TestServer, method: &str, body: &str) -> RawResponse {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        s.raw(method, &self.path, &headers, body).await
    }
}

impl Signer<'_> {
    pub fn sign(
        &self,
        s: &TestServer,
        method: &str,
        path_and_query: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Signed {
        let host = s.endpoint().trim_start_matches("http://").to_owned();
        let mut all = vec![("host".to_owned(), host.clone())];
        all.extend(
            headers
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        );
        let identity =
            aws_credential_types::Credentials::new(self.key, self.secret, None, None, "t");
        let identity = aws_smithy_runtime_api::client::identity::Identity::from(identity);
        let mut settings = aws_sigv4::http_request::SigningSettings::default();
        if let Some(seconds) = self.presign {
            settings.signature_location = SignatureLocation::QueryParams;
            settings.expires_in = Some(std::time::Duration::from_secs(seconds));
        }
        let params = aws_sigv4::sign::v4::SigningParams::builder()
            .identity(&identity)
            .region(self.region)
            .name(self.service)
            .time(std::time::UNIX_EPOCH + std::time::Duration::from_millis(s.clock.now()))
            .settings(settings)
            .build()
            .unwrap()
            .into();
        let url = format!("http://{host}{path_and_query}");
        let payload = if self.unsigned_payload {
            SignableBody::UnsignedPayload
        } else {
            SignableBody::Bytes(body.as_bytes())
        };
        let request = SignableRequest::new(
            method,
            &url,
            all.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            payload,
        )
        .unwrap();
        let (instructions, _) = sign(request, &params).unwrap().into_parts();
        let mut path = path_and_query.to_owned();
        for (k, v) in instructions.params() {
            let sep = if path.contains('?') { '&' } else { '?' };
            let v: String = form_urlencoded::byte_serialize(v.as_bytes()).collect();
            path.extend([sep.to_string(), (*k).to_owned(), "=".into(), v]);
        }
        for (k, v) in instructions.headers() {
            all.push((k.to_owned(), v.to_owned()));
        }
        Signed { path, headers: all }
    }
}

/// A Query request signed with the default key: in the URL (`presign`, valid for that many
/// seconds) or in headers. Returns the path and the headers.
pub fn sign_query(
    s: &TestServer,
    method: &str,
    path_and_query: &str,
    body: &str,
    secret: &str,
    presign: Option<u64>,
) -> (String, Vec<(String, String)>) {
    let form = [("content-type", "application/x-www-form-urlencoded")];
    let headers: &[(&str, &str)] = if method == "POST" { &form } else { &[] };
    let signer = Signer {
        secret,
        presign,
        ..Signer::default()
    };
    let request = signer.sign(s, method, path_and_query, headers, body);
    (request.path, request.headers)
}

pub async fn send_signed(
    s: &TestServer,
    method: &str,
    path: &str,
    headers: &[(String, String)],
    body: &str,
) -> RawResponse {
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    s.raw(method, path, &headers, body).await
}
