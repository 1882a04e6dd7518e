//! Amazon S3 beside SQS on the same port, as the queue flow needs it: buckets and objects in
//! memory, or as files with `--data-dir`. S3's REST protocol (routing by method, path, query and headers; typed inputs and
//! outputs; XML; error documents; virtual-host parsing) is the `s3s` adapter's, generated
//! from S3's model; sqslite keeps the front door (claim, signature, context, log, metrics),
//! the authorization ([`actions`]: the action list and the gate) and the storage
//! ([`engine`], knowing nothing of HTTP). [`ops`] maps the adapter's calls onto the engine,
//! [`wire`] hands requests and answers between the front door and the adapter (the body
//! streamed, never read whole), [`host`] says where a request names its bucket, [`error`]
//! is S3's error table.
//!
//! Why the front door checks signatures rather than s3s: s3s reads the wall clock for a
//! signature's date and a presigned URL's expiry (the server's clock may be a manual one),
//! knows only a key's secret (an STS key needs its session token and expiry too), and cannot
//! accept any signature, which a server without `[[credentials]]` does for every service. So
//! the front door verifies once for all services (S3's canonical path and streamed payloads
//! included, `http::auth`), chunk signatures are checked as the body streams
//! ([`wire::chunked`]), and s3s is handed the request unsigned.

pub mod actions;
pub mod call;
pub mod engine;
pub mod error;
pub mod host;
pub mod notify;
pub mod ops;
pub mod wire;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use hyper::header::HeaderValue;
use hyper::http::request::Parts;

use crate::clock::SharedClock;
use crate::http::auth::{AuthResult, Credential, Principal, TemporaryKeys};
use crate::http::service::{Answered, Refusal, Streamed};
use crate::http::{Context, DropConnection, HttpResponse};
use call::Call;

/// S3's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct S3Config {
    /// The object data (objects and parts, each buffer counted once) the server holds at
    /// most; a PUT or part past it is refused EntityTooLarge.
    pub max_bytes: u64,
}

/// 2 GiB: a laptop's share for tests' payloads, and room for a 1 GiB upload.
pub const DEFAULT_MAX_BYTES: u64 = 2 << 30;

impl Default for S3Config {
    fn default() -> Self {
        S3Config {
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// What the S3 service is built from.
pub struct Settings<'a> {
    /// The store recovered from a data directory; `None` starts one in memory.
    pub store: Option<Arc<engine::Store>>,
    /// The object data the server holds at most (`--s3-max-bytes`).
    pub max_bytes: u64,
    /// The public URL, whose host's subdomains name buckets.
    pub public_url: Option<&'a str>,
    /// The declared keys, whose secrets check streamed bodies' chunk signatures.
    pub credentials: &'a [Credential],
    /// How long a body may stall before the request is cut off.
    pub idle: Duration,
}

/// The S3 service: its store and the adapter that speaks S3's protocol over it.
pub struct Service {
    store: Arc<engine::Store>,
    /// Sends the buckets' events, and remembers how they went.
    notifier: Arc<notify::Notifier>,
    adapter: s3s::service::S3Service,
    credentials: Vec<Credential>,
    temporary: Arc<dyn TemporaryKeys>,
    idle: Duration,
}

impl Service {
    /// The service from `settings`, on the server's clock, accepting STS's keys, sending its
    /// buckets' events to `destinations`.
    pub fn new(
        settings: &Settings<'_>,
        clock: SharedClock,
        temporary: Arc<dyn TemporaryKeys>,
        destinations: notify::destinations::Destinations,
    ) -> Self {
        let store = settings
            .store
            .clone()
            .unwrap_or_else(|| Arc::new(engine::Store::new(settings.max_bytes)));
        let notifier = Arc::new(notify::Notifier::new(destinations));
        let gate = actions::Gate {
            store: store.clone(),
            clock: clock.clone(),
        };
        let ops = ops::Ops {
            store: store.clone(),
            clock,
            gate: gate.clone(),
            notifier: notifier.clone(),
        };
        let mut builder = s3s::service::S3ServiceBuilder::new(ops);
        builder.set_host(Hosts {
            public: settings
                .public_url
                .and_then(|u| u.parse::<hyper::Uri>().ok())
                .and_then(|u| u.host().map(str::to_ascii_lowercase)),
        });
        builder.set_auth(Unsigned);
        builder.set_access(gate);
        builder.set_validation(BucketNames);
        Service {
            store,
            notifier,
            adapter: builder.build(),
            credentials: settings.credentials.to_vec(),
            temporary,
            idle: settings.idle,
        }
    }

    /// Every bucket and object gone (the admin API's reset).
    pub fn reset(&self) {
        self.store.reset();
        self.notifier.deliveries.clear();
    }

    /// The store, for the data directory's snapshots.
    pub fn store(&self) -> &engine::Store {
        &self.store
    }

    /// Every bucket, for observers (the dashboard).
    pub fn buckets(&self) -> Vec<Arc<engine::Bucket>> {
        self.store.all()
    }

    /// What became of the buckets' events.
    pub fn deliveries(&self) -> &notify::deliveries::Deliveries {
        &self.notifier.deliveries
    }

    /// The chain a verified, chunk-signed body's signatures are checked against.
    fn chain(&self, parts: &Parts) -> Option<crate::http::auth::sigv4::Chain> {
        let signed = crate::http::auth::read(parts).ok()??;
        let keys = crate::http::auth::Keys {
            declared: &self.credentials,
            temporary: &*self.temporary,
        };
        crate::http::auth::chain(&keys, &signed, parts).ok()
    }
}

/// A bucket in the Host, by [`host::parse`].
struct Hosts {
    public: Option<String>,
}

impl s3s::host::S3Host for Hosts {
    fn parse_host_header<'a>(&'a self, host: &'a str) -> s3s::S3Result<s3s::host::VirtualHost<'a>> {
        let found = host::parse(host, self.public.as_deref());
        let mut virtual_host = s3s::host::VirtualHost::new(host);
        if let Some(bucket) = found.as_ref().and_then(|v| v.bucket) {
            virtual_host = virtual_host.with_bucket(bucket);
        }
        if let Some(region) = found.and_then(|v| v.region) {
            virtual_host = virtual_host.with_region(region);
        }
        Ok(virtual_host)
    }
}

/// The adapter sees only unsigned requests (the front door checked and took off the
/// signature); it asks for a secret only for a browser form's POST, which is not served.
struct Unsigned;

#[async_trait::async_trait]
impl s3s::auth::S3Auth for Unsigned {
    async fn get_secret_key(&self, _: &str) -> s3s::S3Result<s3s::auth::SecretKey> {
        Err(error::error(
            s3s::S3ErrorCode::NotImplemented,
            "A header you provided implies functionality that is not implemented",
        ))
    }
}

/// Bucket names by the engine's one rule.
struct BucketNames;

impl s3s::validation::NameValidation for BucketNames {
    fn validate_bucket_name(&self, name: &str) -> bool {
        engine::names::valid_bucket(name)
    }
}

/// An S3 error as its XML answer, with the request's id.
fn answer(request_id: &str, e: s3s::S3Error) -> HttpResponse {
    answer_with(request_id, e, &[])
}

/// An S3 error as its XML answer, with the request's id and the `arguments` it names.
fn answer_with(
    request_id: &str,
    mut e: s3s::S3Error,
    arguments: &[(String, String)],
) -> HttpResponse {
    e.set_request_id(request_id);
    if let Ok(response) = e.to_http_response() {
        let (parts, body) = response.into_parts();
        let body = match body.bytes() {
            Some(document) => s3s::Body::from(wire::with_arguments(document, arguments)),
            None => body,
        };
        let response = s3s::HttpResponse::from_parts(parts, body);
        return stamped(wire::response(response).0, request_id);
    }
    // An error document s3s cannot write: its status alone.
    let mut response = HttpResponse::new(Bytes::new().into());
    *response.status_mut() = hyper::StatusCode::INTERNAL_SERVER_ERROR;
    stamped(response, request_id)
}

/// S3's request id headers on an answer.
fn stamped(mut response: HttpResponse, request_id: &str) -> HttpResponse {
    if let Ok(id) = HeaderValue::from_str(request_id) {
        response.headers_mut().insert("x-amz-id-2", id.clone());
        response.headers_mut().insert("x-amz-request-id", id);
    }
    response
}

/// S3 at the router's front door: requests whose credential scope names `s3`, or unsigned,
/// whose Host or path names a bucket ([`host::names`]); claimed by the head, the body
/// streamed.
impl crate::http::service::Service for Service {
    const NAME: &'static str = "s3";
    const SIGNING_NAME: &'static str = "s3";
    const ACTIONS: &'static [&'static str] = actions::NAMES;
    const STREAMS: bool = true;
    type Body<'a> = &'a Streamed;

    fn names(parts: &Parts, _: &[u8]) -> bool {
        host::names(parts)
    }

    fn refuse(_: &Parts, request_id: &str, refusal: Refusal, message: &str) -> HttpResponse {
        answer(request_id, error::from_door(refusal, message))
    }

    async fn handle<'a>(
        &'a self,
        mut ctx: Context,
        verdict: AuthResult<Option<Principal>>,
        parts: &'a Parts,
        body: &'a Streamed,
    ) -> Result<Answered, DropConnection> {
        let Some(body) = body.take() else {
            return Err(DropConnection);
        };
        let principal = match verdict {
            Ok(principal) => principal,
            Err(e) => return Ok(failed(&ctx.request_id, "", &error::from_auth(&e))),
        };
        let chain = principal.as_ref().and_then(|_| self.chain(parts));
        let verified = principal.is_some();
        if let Some(principal) = principal {
            ctx.authenticate(principal);
        }
        let (mut request, trailers) = match wire::request(parts, body, chain, self.idle) {
            Ok(prepared) => prepared,
            Err(e) => return Ok(failed(&ctx.request_id, "", &e)),
        };
        let call = Call {
            arn: ctx.caller_arn().into_owned(),
            principal: ctx.sender_id.clone(),
            request_id: ctx.request_id.clone(),
            account: ctx.account.clone(),
            verified,
            region: ctx.region.clone(),
            peer: ctx.peer,
            trailers,
            action: Arc::new(OnceLock::new()),
        };
        request.extensions_mut().insert(call.clone());
        let answered = self
            .adapter
            .call(request)
            .await
            .map_err(|_| DropConnection)?;
        let (mut response, error) = wire::response(answered);
        let index = call.action.get().copied();
        let name = index.map_or("", |i| actions::NAMES[i]);
        let response = match &error {
            // Every error document in S3's words and with the request's id, s3s's own too.
            Some((code, message)) => {
                let mut e = error::worded(code, message);
                e.set_status_code(response.status());
                let arguments = wire::arguments(response.headers_mut());
                answer_with(&ctx.request_id, e, &arguments)
            }
            None => stamped(response, &ctx.request_id),
        };
        Ok(Answered {
            response,
            action: name,
            index,
            error: error.map(|(code, message)| (code_name(&code), message)),
        })
    }

    fn unstored(&self, request_id: &str, message: &str) -> Answered {
        let e = error::error(s3s::S3ErrorCode::InternalError, message);
        failed(request_id, "", &e)
    }
}

/// An error answered before the adapter ran, with its code and message for the log.
fn failed(request_id: &str, action: &'static str, e: &s3s::S3Error) -> Answered {
    let mut copy = error::error(e.code().clone(), e.message().unwrap_or_default());
    if let Some(status) = e.status_code() {
        copy.set_status_code(status);
    }
    let response = answer(request_id, copy);
    let message = e.message().unwrap_or_default().to_owned();
    Answered {
        response,
        action,
        index: None,
        error: Some((code_name(e.code().as_str()), message)),
    }
}

/// A code as the log keeps it: the codes sqslite answers by name, any other as `S3Error`
/// (its message still says it).
fn code_name(code: &str) -> &'static str {
    LOGGED_CODES
        .iter()
        .find(|c| **c == code)
        .copied()
        .unwrap_or("S3Error")
}

/// The S3 error codes the log names.
const LOGGED_CODES: &[&str] = &[
    "AccessDenied",
    "BadDigest",
    "BucketAlreadyExists",
    "BucketAlreadyOwnedByYou",
    "BucketNotEmpty",
    "EntityTooLarge",
    "EntityTooSmall",
    "ExpiredToken",
    "IncompleteBody",
    "InternalError",
    "InvalidAccessKeyId",
    "InvalidArgument",
    "InvalidBucketName",
    "InvalidDigest",
    "InvalidLocationConstraint",
    "InvalidPart",
    "InvalidPartOrder",
    "InvalidRange",
    "InvalidRequest",
    "InvalidTag",
    "InvalidURI",
    "KeyTooLongError",
    "MalformedPolicy",
    "MalformedXML",
    "MaxMessageLengthExceeded",
    "MethodNotAllowed",
    "MissingContentLength",
    "NoSuchBucket",
    "NoSuchBucketPolicy",
    "NoSuchKey",
    "NoSuchTagSet",
    "NoSuchUpload",
    "NotImplemented",
    "NotModified",
    "PreconditionFailed",
    "RequestTimeout",
    "SignatureDoesNotMatch",
    "SlowDown",
    "XAmzContentSHA256Mismatch",
];
