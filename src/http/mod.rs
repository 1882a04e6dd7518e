//! HTTP plumbing every layer may use: the response body type (whole or streamed), form
//! decoding and the AWS Query deserializer ([`query`]), byte splitting ([`text`]), the answers'
//! content types and [`DropConnection`]. It sits below the protocols, the admin API and the
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

use hyper::header::HeaderValue;

pub use context::Context;

/// What every service, the admin API and the accept loop answer with.
pub type HttpResponse = hyper::Response<body::Body>;

// The content types of answers, built once: `from_static` outside a constant checks every
// byte each time it runs.
pub const AMZ_JSON: HeaderValue = HeaderValue::from_static("application/x-amz-json-1.0");
pub const TEXT_XML: HeaderValue = HeaderValue::from_static("text/xml");
pub const APPLICATION_JSON: HeaderValue = HeaderValue::from_static("application/json");
pub const APPLICATION_XML: HeaderValue = HeaderValue::from_static("application/xml");

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
