//! What the front door knows of one S3 request, handed through s3s to the gate and the
//! operations in the request's extensions (s3s itself sees an anonymous request).

use std::net::IpAddr;
use std::sync::{Arc, OnceLock};

use super::wire::inbound::Trailers;

/// One request's caller and circumstances.
#[derive(Debug, Clone)]
pub struct Call {
    /// The caller's account: it owns the buckets it creates.
    pub account: String,
    /// The caller's principal ARN, which bucket Policies name.
    pub arn: String,
    /// The caller's unique id (`AIDA…`, or an account id), as events name it.
    pub principal: Arc<str>,
    /// The request's id.
    pub request_id: String,
    /// Whether the caller was verified (`[[credentials]]` declared): only then do owners and
    /// Policies decide.
    pub verified: bool,
    /// The region the request is signed for (or the server's).
    pub region: String,
    /// The client's address (aws:SourceIp).
    pub peer: Option<IpAddr>,
    /// The trailer of the request's streamed body, once read.
    pub trailers: Trailers,
    /// The operation's place in the action list, set by the gate.
    pub action: Arc<OnceLock<usize>>,
}
