//! HTTP plumbing every layer may use: the response body type (whole or streamed), form
//! decoding and the AWS Query deserializer ([`query`]), AWS Query's XML answers ([`xml`]),
//! byte splitting ([`text`]), the answers' content types, request ids, an error's [`Fault`]
//! and [`DropConnection`]. It sits below the protocols, the admin API and the
//! server, so each can build a response or read a form without importing the others.

pub mod auth;
pub mod body;
pub mod client;
pub mod context;
pub mod form;
pub mod guard;
pub mod outbound;
pub mod query;
pub mod request_body;
pub mod server;
pub mod service;
pub mod text;
pub mod tls;
pub mod xml;

use hyper::header::{HeaderName, HeaderValue};

pub use context::Context;

/// What every service, the admin API and the accept loop answer with.
pub type HttpResponse = hyper::Response<body::Body>;

// The content types of answers, built once: `from_static` outside a constant checks every
// byte each time it runs.
pub const AMZ_JSON: HeaderValue = HeaderValue::from_static("application/x-amz-json-1.0");
pub const TEXT_XML: HeaderValue = HeaderValue::from_static("text/xml");
pub const APPLICATION_JSON: HeaderValue = HeaderValue::from_static("application/json");
pub const APPLICATION_XML: HeaderValue = HeaderValue::from_static("application/xml");

/// The header that names a JSON protocol's operation (`AmazonSQS.SendMessage`).
pub const X_AMZ_TARGET: HeaderName = HeaderName::from_static("x-amz-target");

/// Whether the caller or the service is to blame for an error; rendered as `Sender`/`Receiver`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The request was wrong (4xx): retrying it unchanged fails again.
    Sender,
    /// sqslite failed (5xx): the same request may succeed later.
    Receiver,
}

impl Fault {
    /// `Sender` or `Receiver`, as AWS's error documents write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::Sender => "Sender",
            Fault::Receiver => "Receiver",
        }
    }
}

/// A new request id, a UUID as AWS writes them, formatted without `fmt` (it is on every
/// request's path).
pub fn request_id() -> String {
    uuid_text(&uuid::Uuid::new_v4())
}

/// A UUID in its usual lower-case, hyphenated text form.
pub fn uuid_text(id: &uuid::Uuid) -> String {
    let mut buf = [0u8; uuid::fmt::Hyphenated::LENGTH];
    id.hyphenated().encode_lower(&mut buf).to_owned()
}

/// Returned by a service to make hyper close the connection without answering (a fault
/// rule's `drop_connection`).
#[derive(Debug)]
pub struct DropConnection;

impl std::fmt::Display for DropConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection dropped by a fault rule")
    }
}

impl std::error::Error for DropConnection {}
