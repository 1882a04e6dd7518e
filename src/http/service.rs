//! What the router asks of every service on the port: its signing name, how an unsigned
//! request names it, how it takes its bodies, its operations' names, one request handled past
//! the front door, and its words for the refusals made before it runs. The router does the
//! rest once for every service: which service a request is for (one table, `service::claim`),
//! the bounded body (or, for a service whose bodies stream, the connection's), the one reading
//! and verification of the signature, the context, the durable scope, the request log and the
//! metrics.

use std::future::Future;

use bytes::Bytes;
use hyper::body::Incoming;
use hyper::http::request::Parts;

use super::auth::sigv4::Payload;
use super::auth::{AuthResult, Principal};
use super::{Context, DropConnection, HttpResponse};

/// A service's answer, with what the router logs and counts of it.
#[derive(Debug)]
pub struct Answered {
    pub response: HttpResponse,
    /// The operation the request named, `""` when it named none the service knows.
    pub action: &'static str,
    /// Its position in the service's `ACTIONS`, when the service found it already (so the
    /// metrics need not look it up again).
    pub index: Option<usize>,
    /// The failure's code and message, for the request log.
    pub error: Option<(&'static str, String)>,
}

impl Answered {
    /// A success of `action`.
    pub fn ok(response: HttpResponse, action: &'static str) -> Self {
        Answered {
            response,
            action,
            index: None,
            error: None,
        }
    }

    /// A failure, rendered as `response`, with its code and message for the log.
    pub fn failed(
        response: HttpResponse,
        action: &'static str,
        code: &'static str,
        message: &str,
    ) -> Self {
        Answered {
            response,
            action,
            index: None,
            error: Some((code, message.to_owned())),
        }
    }
}

/// A refusal the router makes before a service runs, answered in that service's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A browser origin, or on loopback a Host, the settings do not name (403).
    Origin,
    /// A body over the size bound, or one too slow to arrive (400).
    Body,
    /// A connection over the cap (503, or the service's retryable throttle).
    Busy,
}

/// A service's answer as a future that is often ready already: the calls that need not wait
/// are answered within [`Service::handle`] itself, so their request carries no state machine
/// of the service's; the others run boxed.
// The ready answer inline on purpose: boxing it would allocate on every request, which is
// what this type saves the hot path.
#[allow(clippy::large_enum_variant)]
pub enum Handled<'a> {
    /// Answered already (taken by the first poll).
    Now(Option<Result<Answered, DropConnection>>),
    /// Still to run.
    Later(std::pin::Pin<Box<dyn Future<Output = Result<Answered, DropConnection>> + Send + 'a>>),
}

impl<'a> Handled<'a> {
    /// An answer made already.
    pub fn now(answered: Answered) -> Self {
        Handled::Now(Some(Ok(answered)))
    }

    /// An answer still to make.
    pub fn later(
        future: impl Future<Output = Result<Answered, DropConnection>> + Send + 'a,
    ) -> Self {
        Handled::Later(Box::pin(future))
    }
}

impl Future for Handled<'_> {
    type Output = Result<Answered, DropConnection>;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        match self.get_mut() {
            Handled::Now(answer) => {
                std::task::Poll::Ready(answer.take().unwrap_or(Err(DropConnection)))
            }
            Handled::Later(future) => future.as_mut().poll(cx),
        }
    }
}

impl Answered {
    /// The answer with its action's position in the service's `ACTIONS`.
    #[must_use]
    pub fn at(mut self, index: Option<usize>) -> Self {
        self.index = index;
        self
    }
}

/// A request's body as the router hands it to a service: by reference, taken by value (a
/// body borrowed in the router's generic path would stay in every request's future).
pub trait RequestBody<'a>: Copy + Send {
    /// What the signature's payload hash is checked against.
    fn payload(self) -> Payload<'a>;
}

/// The whole body, read within the router's bound before the service is chosen.
impl<'a> RequestBody<'a> for &'a Bytes {
    fn payload(self) -> Payload<'a> {
        Payload::Read(self)
    }
}

/// The connection's body, unread, for a service whose bodies are gigabytes (S3): it takes the
/// body once, reads it as it arrives and holds it to the hash the signature covers. Handed
/// over by reference, as every body is, so the router's generic path moves no body of a type
/// that may need dropping (which would cost every SQS request's future a flag).
pub struct Streamed(std::sync::Mutex<Option<Incoming>>);

impl Streamed {
    /// `body`, to be taken once.
    pub fn new(body: Incoming) -> Self {
        Streamed(std::sync::Mutex::new(Some(body)))
    }

    /// The body, the first time.
    pub fn take(&self) -> Option<Incoming> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
}

impl<'a> RequestBody<'a> for &'a Streamed {
    fn payload(self) -> Payload<'a> {
        Payload::Streamed
    }
}

/// See the module docs. Dispatched statically: the router names each service once.
pub trait Service: Send + Sync {
    /// The service's name in logs and metrics (`sqs`, `sns`, `lambda`).
    const NAME: &'static str;
    /// The SigV4 signing name its requests' credential scope carries.
    const SIGNING_NAME: &'static str;
    /// Its operations, in the action list its dispatch is generated from.
    const ACTIONS: &'static [&'static str];
    /// Whether its bodies stream: it is claimed by the request's head, before any of the body
    /// is read, and handed the connection's body ([`Streamed`]) instead of a bounded buffer.
    const STREAMS: bool = false;

    /// The body it is handed: `&Bytes`, or `&Streamed` when it [streams](Self::STREAMS).
    type Body<'a>: RequestBody<'a>
    where
        Self: 'a;

    /// Whether an unsigned request names this service (its `Version`, its actions' names, its
    /// paths); `body` is empty when the router asks before reading it. A signed request is
    /// the service's its scope names.
    fn names(parts: &Parts, body: &[u8]) -> bool;

    /// The answer to `refusal`, in the service's error shape and words.
    fn refuse(parts: &Parts, request_id: &str, refusal: Refusal, message: &str) -> HttpResponse;

    /// One request: authenticated by the router's verdict (`verdict`), decoded, authorized by
    /// its action list's rule, applied and encoded.
    fn handle<'a>(
        &'a self,
        ctx: Context,
        verdict: AuthResult<Option<Principal>>,
        parts: &'a Parts,
        body: Self::Body<'a>,
    ) -> impl Future<Output = Result<Answered, DropConnection>> + Send + 'a;

    /// The answer to a request whose changes could not be stored (`--data-dir`), in the
    /// service's own terms.
    fn unstored(&self, request_id: &str, message: &str) -> Answered;
}
