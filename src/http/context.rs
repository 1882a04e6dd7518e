//! Who is calling and where, for every service: region and account from the one reading of
//! the SigV4 signature (`auth::read`) or a regional Host, the verified principal, the
//! request id, and the base that URLs minted for this request start with. How a QueueUrl names
//! a queue is SQS's (`sqs::protocol::QueueUrls`).

use std::sync::Arc;

use hyper::header::{HeaderMap, HeaderName, HOST};

use std::borrow::Cow;

use crate::http::auth::principal::{unverified, Caller, ANONYMOUS};
use crate::http::auth::{host_region, Signed};
use crate::http::text::split_at_byte;

const X_AMZN_TRACE_ID: HeaderName = HeaderName::from_static("x-amzn-trace-id");

/// How minted queue URLs begin when no fixed `public_url` is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UrlStyle {
    /// `http://<Host header>/<account>/<name>`: right for callers in and out of containers.
    #[default]
    Host,
    /// `/<account>/<name>`: for clients that always call their configured endpoint.
    Path,
    /// `http://sqs.<region>.<Host header>/<account>/<name>`: AWS's own shape, for setups that
    /// map such names to sqslite (docker-compose aliases, `/etc/hosts`, `*.localhost`).
    Region,
}

/// The server's settings a [`Context`] reads: the region and account a request that names
/// neither acts in, and how minted queue URLs begin.
#[derive(Debug, Clone, Copy)]
pub struct Defaults<'a> {
    pub region: &'a str,
    pub account_id: &'a str,
    /// Fixed base written into queue URLs; wins over `url_style`.
    pub public_url: Option<&'a str>,
    pub url_style: UrlStyle,
}

#[derive(Debug, Clone)]
pub struct Context {
    pub request_id: String,
    pub region: String,
    pub account: String,
    /// SenderId of what this caller sends: its principal's unique id, never its access key
    /// ([`crate::http::auth::principal`]). Shared, so a send copies a pointer, not the text.
    pub sender_id: Arc<str>,
    /// Scheme, host and port that minted queue URLs start with.
    pub base_url: String,
    /// The `X-Amzn-Trace-Id` header, which SendMessage keeps as the message's AWSTraceHeader
    /// unless the request sets that system attribute itself.
    pub trace_header: Option<String>,
    /// The verified caller, when the server has credentials configured ([`crate::http::auth`]);
    /// queue policies are enforced for it.
    pub principal: Option<crate::http::auth::Principal>,
    /// Who a signed request names when nothing verifies it (no credentials declared).
    pub unverified: Option<Arc<Caller>>,
    /// The client's address (aws:SourceIp in queue policies), when the connection knows it.
    pub peer: Option<std::net::IpAddr>,
}

impl Context {
    /// The context of a request whose signature (if it carries a readable one) is `signed`.
    /// The region is the signature's, else the one a `sqs.<region>.…` Host names, else the
    /// server's; the account is a 12-digit access key id, else the server's.
    pub fn new(
        config: &Defaults<'_>,
        headers: &HeaderMap,
        signed: Option<&Signed>,
        request_id: String,
    ) -> Self {
        let host = headers.get(HOST).and_then(|v| v.to_str().ok());
        let access_key = signed
            .map(|s| s.access_key.as_str())
            .filter(|k| !k.is_empty());
        let region = signed
            .map(|s| s.region.as_str())
            .filter(|r| !r.is_empty())
            .or_else(|| host.and_then(host_region))
            .unwrap_or(config.region)
            .to_owned();
        let account = access_key
            .filter(|k| k.len() == 12 && k.bytes().all(|b| b.is_ascii_digit()))
            .unwrap_or(config.account_id)
            .to_owned();
        let mut base_url = match (config.public_url, config.url_style) {
            (Some(url), UrlStyle::Region) => regional_url(url, &region),
            (Some(url), _) => url.to_owned(),
            (None, UrlStyle::Path) => String::new(),
            (None, style) => {
                let host = host.unwrap_or("localhost:9324");
                let mut url = String::with_capacity(16 + host.len());
                url.push_str("http://");
                if style == UrlStyle::Region {
                    url.push_str("sqs.");
                    url.push_str(&region);
                    url.push('.');
                    url.push_str(without_region(host));
                } else {
                    url.push_str(host);
                }
                url
            }
        };
        base_url.truncate(base_url.trim_end_matches('/').len());
        let trace_header = headers
            .get(X_AMZN_TRACE_ID)
            .and_then(|v| v.to_str().ok())
            .filter(|v| !v.is_empty())
            .map(str::to_owned);
        let unverified = access_key.map(|key| unverified(&account, key));
        let sender_id = unverified
            .as_ref()
            .map_or_else(|| ANONYMOUS.clone(), |c| c.sender_id.clone());
        Context {
            request_id,
            region,
            account,
            sender_id,
            base_url,
            trace_header,
            principal: None,
            unverified,
            peer: None,
        }
    }

    /// Makes the request act as a verified principal: its account owns what it creates and
    /// lists, and queue policies decide what it may do to other queues.
    pub fn authenticate(&mut self, principal: crate::http::auth::Principal) {
        self.account.clone_from(&principal.account);
        self.sender_id = principal.sender_id.clone();
        self.principal = Some(principal);
        self.unverified = None;
    }

    /// Makes an unverified request (no credentials declared) act as whom its temporary key
    /// was issued for ([`crate::http::auth::TemporaryKeys`]): STS's keys act in their role's
    /// account even where nothing is verified.
    pub fn act_as_issued(&mut self, principal: &crate::http::auth::Principal) {
        self.account.clone_from(&principal.account);
        self.sender_id = principal.sender_id.clone();
        self.unverified = Some(Arc::new(Caller {
            account: principal.account.clone(),
            arn: principal.arn.clone(),
            sender_id: principal.sender_id.clone(),
        }));
    }

    /// Who this caller is, the one reading behind its messages' SenderId, a subscription's
    /// SubscriptionPrincipal and policy checks: the verified principal; else, for a signed
    /// request, its key as an IAM user of its account ([`Caller`]); else, unsigned, the
    /// account's root.
    pub fn caller_arn(&self) -> Cow<'_, str> {
        match (&self.principal, &self.unverified) {
            (Some(p), _) => Cow::Borrowed(&p.arn),
            (None, Some(c)) => Cow::Borrowed(&c.arn),
            (None, None) => Cow::Owned(format!("arn:aws:iam::{}:root", self.account)),
        }
    }

    /// Whether the request carried a signature (verified or not).
    pub fn signed(&self) -> bool {
        self.principal.is_some() || self.unverified.is_some()
    }
}

/// A Host without its `sqs.<region>.` prefix, so a regional URL is not minted twice over.
/// A `--public-url` with the request's region put in front of its host (in place of one it
/// names already): `http://localhost.localstack.cloud:4566` becomes
/// `http://sqs.eu-west-1.localhost.localstack.cloud:4566` for a request in eu-west-1.
pub fn regional_url(url: &str, region: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
    let host_end = rest.find('/').unwrap_or(rest.len());
    let (host, path) = rest.split_at(host_end);
    format!("{scheme}://sqs.{region}.{}{path}", without_region(host))
}

fn without_region(host: &str) -> &str {
    match host
        .strip_prefix("sqs.")
        .and_then(|rest| split_at_byte(rest, b'.'))
    {
        Some((region, rest)) if host_region(host) == Some(region) => rest,
        _ => host,
    }
}
