//! Who may reach what, checked before routing: no request from a web page whose origin is not
//! named (`--allow-origin` for the SQS API, `--admin-allow-origin` for the admin API: cross-site
//! requests), and the admin API only with its bearer token or, without one, on loopback for a
//! loopback or configured Host (DNS rebinding). On loopback without `[[credentials]]` that Host
//! rule holds for every route: nothing there tells a page whose name was rebound to 127.0.0.1
//! from a program on this machine but the name it sends.

use std::net::IpAddr;

use hyper::header::{
    HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, CONTENT_TYPE, HOST, ORIGIN,
};
use hyper::{Method, StatusCode};
use subtle::ConstantTimeEq;

/// The `[server]` keys and flags that decide who may call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccessConfig {
    /// Bearer token the admin API and `/metrics` require (`--admin-token`). Without one they
    /// are refused whenever the server listens beyond loopback.
    pub admin_token: Option<String>,
    /// Host names, besides loopback ones and the public URL's, the admin API answers to.
    pub allow_hosts: Vec<String>,
    /// Browser origins (`http://localhost:3000`, or `*` for any) allowed to call the SQS API.
    pub allow_origins: Vec<String>,
    /// Browser origins allowed to call the admin API and `/metrics` (`--admin-allow-origin`):
    /// their own list, empty by default, since a page that may call the admin API may read
    /// every message (peek) and reset the server.
    pub admin_origins: Vec<String>,
    /// Refuse to start without an admin token (`--admin-require-token`), so the admin API
    /// always needs it, on loopback too.
    pub require_admin_token: bool,
    /// `/metrics` on or off; `None` follows the admin API's switch.
    pub metrics: Option<bool>,
}

impl AccessConfig {
    /// Refuses at startup settings that would silently open the admin API: an empty token
    /// (`SQSLITE_ADMIN_TOKEN=` from an unset compose variable) matches a request sending none.
    pub fn check(&self) -> Result<(), String> {
        match &self.admin_token {
            Some(token) if token.is_empty() => Err(
                "admin_token (--admin-token, SQSLITE_ADMIN_TOKEN) is empty; set a token or leave the setting out"
                    .into(),
            ),
            None if self.require_admin_token => Err(
                "admin_require_token (--admin-require-token) needs an admin_token (--admin-token, SQSLITE_ADMIN_TOKEN)"
                    .into(),
            ),
            _ => Ok(()),
        }
    }

    pub(crate) fn metrics_on(&self, admin_enabled: bool) -> bool {
        self.metrics.unwrap_or(admin_enabled)
    }
}

/// What a request asks for, as far as access goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// A service's API: SQS, SNS, Lambda's mappings, STS.
    Sqs,
    /// `/_sqslite/...`, `/_aws/sqs/...` and `/metrics`.
    Admin,
    /// The dashboard's own files (`/_sqslite/ui`): checked as the admin API, but with no data
    /// in them they load without the token (the page then asks for it).
    Page,
    /// What anyone may have, with nothing in it a page could use: `/health`, SNS's signing
    /// certificate, the dashboard's redirect. Only the Host rule applies.
    Open,
}

/// Why a request is refused, with a message naming the switch that would let it through.
#[derive(Debug)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
}

fn refuse(status: StatusCode, message: String) -> Refusal {
    Refusal { status, message }
}

/// Whether `host` (the `--host` value) is a loopback address, so only this machine can connect.
pub fn loopback_only(host: &str) -> bool {
    // Checked on every request on loopback (the configured host and the Host header's name):
    // the names SDKs and the default `--host` send are told without parsing an address.
    if matches!(host, "127.0.0.1" | "localhost" | "[::1]" | "::1") {
        return true;
    }
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.parse::<IpAddr>()
        .map_or(host.eq_ignore_ascii_case("localhost"), |ip| {
            ip.is_loopback()
        })
}

/// What requests are checked against (`--host`, `--public-url`, access), lent by the config.
#[derive(Debug, Clone, Copy)]
pub struct Exposure<'a> {
    pub host: &'a str,
    pub public_url: Option<&'a str>,
    pub access: &'a AccessConfig,
    /// Callers must sign with a declared key (`[[credentials]]`), which no page holds.
    pub verified: bool,
}

/// The one-line warning for a server reachable from other machines with no admin token.
pub fn exposure_warning<'a>(config: impl Into<Exposure<'a>>) -> Option<String> {
    let config = config.into();
    (!loopback_only(config.host) && config.access.admin_token.is_none()).then(|| {
        format!(
            "sqslite listens on {} beyond loopback without --admin-token: the admin API and \
             /metrics are refused, and the SQS API answers anyone who can connect",
            config.host
        )
    })
}

/// Checks one request; `Ok(Some(origin))` is an allowed browser origin to send CORS headers to.
pub fn admit<'a>(
    config: impl Into<Exposure<'a>>,
    route: Route,
    method: &Method,
    headers: &HeaderMap,
) -> Result<Option<HeaderValue>, Refusal> {
    let config = config.into();
    let origin = match route {
        Route::Open => None,
        _ => browser(config.access, route, headers)?,
    };
    match route {
        Route::Admin | Route::Page => admin(&config, route, method, headers)?,
        Route::Sqs | Route::Open => rebinding(&config, headers)?,
    }
    Ok(origin)
}

/// The Host rule wherever a rebound page would be answered as a local program: on loopback
/// without credentials (beyond loopback the name a caller uses is no evidence of anything,
/// and with credentials every service's API wants a signature).
fn rebinding(config: &Exposure<'_>, headers: &HeaderMap) -> Result<(), Refusal> {
    if config.verified || !loopback_only(config.host) {
        return Ok(());
    }
    host_rule(config, headers)
}

/// Browsers name the calling page in `Origin` (every POST, every CORS request) or at least say
/// it came from a page in `Sec-Fetch-Site`; SDKs send neither, a typed-in URL says `none`.
/// The dashboard's own requests to the admin API are same-origin: allowed there (and only
/// there, where the Host check below stops a rebound DNS name), never on the SQS API.
fn browser(
    access: &AccessConfig,
    route: Route,
    headers: &HeaderMap,
) -> Result<Option<HeaderValue>, Refusal> {
    let own_page = route != Route::Sqs && same_origin(headers);
    if own_page {
        return Ok(None);
    }
    let (origins, flag) = if route == Route::Sqs {
        (&access.allow_origins, "--allow-origin")
    } else {
        (&access.admin_origins, "--admin-allow-origin")
    };
    if let Some(origin) = headers.get(ORIGIN) {
        let text = origin.to_str().unwrap_or("?");
        let named = origins
            .iter()
            .any(|o| o == "*" || o.eq_ignore_ascii_case(text));
        return if named {
            Ok(Some(origin.clone()))
        } else {
            Err(refuse(
                StatusCode::FORBIDDEN,
                format!(
                    "Requests from web pages are refused: Origin `{text}` is not named by {flag}."
                ),
            ))
        };
    }
    match header(headers, &SEC_FETCH_SITE) {
        Some(site @ ("cross-site" | "same-site" | "same-origin")) => Err(refuse(
            StatusCode::FORBIDDEN,
            format!(
                "Requests from web pages are refused (Sec-Fetch-Site: {site}); name the page's \
                 origin with {flag}."
            ),
        )),
        _ => Ok(None),
    }
}

/// A request from a page served by this server: `Origin` is `http://<Host>`, or a GET without
/// `Origin` that the browser marks `Sec-Fetch-Site: same-origin`.
fn same_origin(headers: &HeaderMap) -> bool {
    match (header(headers, &ORIGIN), header(headers, &HOST)) {
        (Some(origin), Some(host)) => origin
            .strip_prefix("http://")
            .is_some_and(|o| o.eq_ignore_ascii_case(host)),
        (Some(_), None) => false,
        (None, _) => header(headers, &SEC_FETCH_SITE) == Some("same-origin"),
    }
}

fn admin(
    config: &Exposure<'_>,
    route: Route,
    method: &Method,
    headers: &HeaderMap,
) -> Result<(), Refusal> {
    let changes_state = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    let media = header(headers, &CONTENT_TYPE)
        .and_then(|t| t.split(';').next())
        .map(|t| t.trim().to_ascii_lowercase());
    if changes_state
        && matches!(
            media.as_deref(),
            Some("text/plain" | "application/x-www-form-urlencoded" | "multipart/form-data")
        )
    {
        // Any web page can send these cross-site without asking first (CORS "simple" types).
        return Err(refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "the admin API takes `Content-Type: application/json` (or none), not `{}`",
                media.unwrap_or_default()
            ),
        ));
    }
    if let Some(token) = &config.access.admin_token {
        // The token, which no page holds, is better evidence than the Host; the dashboard's
        // files (no data in them) load without it, under the rule of any route.
        return if route == Route::Page {
            rebinding(config, headers)
        } else {
            bearer(token, headers)
        };
    }
    if !loopback_only(config.host) {
        return Err(refuse(
            StatusCode::FORBIDDEN,
            format!(
                "the admin API is off: sqslite listens on {} beyond loopback; start it with \
                 --admin-token (SQSLITE_ADMIN_TOKEN) and send `Authorization: Bearer <token>`",
                config.host
            ),
        ));
    }
    host_rule(config, headers)
}

/// A request without `Host` comes from no browser (HTTP/1.1 browsers always send one).
fn host_rule(config: &Exposure<'_>, headers: &HeaderMap) -> Result<(), Refusal> {
    match header(headers, &HOST) {
        Some(host) if !known_host(config, host) => Err(refuse(
            StatusCode::FORBIDDEN,
            format!(
                "sqslite on loopback answers only loopback or configured host names, not \
                 `{host}` (a web page's own name may resolve to 127.0.0.1); add it with \
                 --allow-host"
            ),
        )),
        _ => Ok(()),
    }
}

fn bearer(token: &str, headers: &HeaderMap) -> Result<(), Refusal> {
    let given = header(headers, &AUTHORIZATION)
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    if bool::from(given.as_bytes().ct_eq(token.as_bytes())) {
        Ok(())
    } else {
        Err(refuse(
            StatusCode::UNAUTHORIZED,
            "the admin API needs `Authorization: Bearer <token>` with the --admin-token value"
                .into(),
        ))
    }
}

/// LocalStack's name resolving to the loopback address, and its subdomains.
const LOCALSTACK_HOST: &str = "localhost.localstack.cloud";

/// A `Host` header value (name or address, optional port) that may reach a loopback server.
/// Run on every request there, so it copies nothing (but the public URL's parse, past the
/// loopback names SDKs send).
fn known_host(config: &Exposure<'_>, host: &str) -> bool {
    let name = host_name(host);
    // LocalStack's public name for 127.0.0.1, which migrating SDK configurations keep: its
    // owner's DNS, not a page's, decides where it points.
    if loopback_only(name) || within(name, "localhost") || within(name, LOCALSTACK_HOST) {
        return true;
    }
    // Its subdomains too: the region style mints `sqs.<region>.<public host>` itself, and a
    // page cannot rebind a name inside a domain the operator chose.
    let public = config
        .public_url
        .and_then(|u| u.parse::<hyper::Uri>().ok())
        .is_some_and(|u| u.host().is_some_and(|h| within(name, h)));
    public
        || std::iter::once(config.host)
            .chain(config.access.allow_hosts.iter().map(String::as_str))
            .any(|known| host_name(known).eq_ignore_ascii_case(name))
}

/// `name` is `domain` or a name below it, in any case.
fn within(name: &str, domain: &str) -> bool {
    let Some(split) = name.len().checked_sub(domain.len()) else {
        return false;
    };
    let below = split == 0 || name.as_bytes()[split - 1] == b'.';
    below
        && name
            .get(split..)
            .is_some_and(|tail| tail.eq_ignore_ascii_case(domain))
}

/// `name:port`, `[v6]:port` or a bare name or address, without its port.
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => {
            name
        }
        _ => host,
    }
}

/// Looked up on every SQS request: by name, not by text, which hyper would parse each time.
const SEC_FETCH_SITE: HeaderName = HeaderName::from_static("sec-fetch-site");

fn header<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Headers that let an allowed page read the answer (and the request id and error code).
pub fn add_cors(headers: &mut HeaderMap, origin: HeaderValue) {
    headers.insert("access-control-allow-origin", origin);
    headers.insert("vary", HeaderValue::from_static("Origin"));
    headers.insert(
        "access-control-expose-headers",
        HeaderValue::from_static("x-amzn-RequestId, x-amzn-query-error"),
    );
}

/// The answer to an allowed page's preflight `OPTIONS`: any method and header it asks for.
pub fn preflight(headers: &mut HeaderMap, asked: &HeaderMap) {
    headers.insert(
        "access-control-allow-methods",
        HeaderValue::from_static("GET, POST, DELETE"),
    );
    if let Some(wanted) = asked.get("access-control-request-headers") {
        headers.insert("access-control-allow-headers", wanted.clone());
    }
    headers.insert("access-control-max-age", HeaderValue::from_static("600"));
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
