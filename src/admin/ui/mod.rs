//! The dashboard at `/_sqslite/ui`: one HTML page, its scripts (`app.js`, the SNS views'
//! `sns.js`, the trigger mappings' `triggers.js`, the S3 buckets' `buckets.js`, the queue chart's `chart.js`) and
//! stylesheets (`app.css`, `chart.css`), compiled into the binary (no CDN, no build step),
//! which read and act only through the admin API; and the user guide its views link to
//! (`guide`, at `/_sqslite/guide/`).

mod guide;

use bytes::Bytes;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use hyper::{Response, StatusCode};

use crate::http::HttpResponse;

const INDEX: &str = include_str!("index.html");
const SCRIPT: &str = include_str!("app.js");
const SNS_SCRIPT: &str = include_str!("sns.js");
const TRIGGERS_SCRIPT: &str = include_str!("triggers.js");
const BUCKETS_SCRIPT: &str = include_str!("buckets.js");
const STYLE: &str = include_str!("app.css");
/// The chart, also drawn in a drill's report (`drill::file::report`): one copy of its code.
pub(crate) const CHART_SCRIPT: &str = include_str!("chart.js");
/// The chart's styles, likewise shared with the drill report.
pub(crate) const CHART_STYLE: &str = include_str!("chart.css");

/// Where the dashboard lives; `GET /` from a browser is sent here.
pub const PATH: &str = "/_sqslite/ui";

/// Only its own files, no framing (its buttons purge queues: no clickjacking), no inline code.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
                      connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; \
                      base-uri 'none'; form-action 'none'";

/// Whether a path is one of the dashboard's own files or a page of the guide (no data in
/// them).
pub fn is_asset(path: &str) -> bool {
    asset(path).is_some() || guide::is_page(path)
}

fn asset(path: &str) -> Option<(&'static str, &'static str)> {
    match path.strip_prefix(PATH)? {
        "" | "/" | "/index.html" => Some((INDEX, "text/html; charset=utf-8")),
        "/app.js" => Some((SCRIPT, "text/javascript; charset=utf-8")),
        "/sns.js" => Some((SNS_SCRIPT, "text/javascript; charset=utf-8")),
        "/triggers.js" => Some((TRIGGERS_SCRIPT, "text/javascript; charset=utf-8")),
        "/buckets.js" => Some((BUCKETS_SCRIPT, "text/javascript; charset=utf-8")),
        "/app.css" => Some((STYLE, "text/css; charset=utf-8")),
        "/chart.js" => Some((CHART_SCRIPT, "text/javascript; charset=utf-8")),
        "/chart.css" => Some((CHART_STYLE, "text/css; charset=utf-8")),
        _ => None,
    }
}

/// The file at `path`, if it is one of the dashboard's or the guide's.
pub fn serve(uri: &hyper::Uri) -> Option<HttpResponse> {
    let Some((body, content_type)) = asset(uri.path()) else {
        return guide::serve(uri);
    };
    let mut response = Response::new(Bytes::from_static(body.as_bytes()).into());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("content-security-policy", HeaderValue::from_static(POLICY));
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    Some(response)
}

/// `GET /` asking for HTML (a person typing the address) goes to the dashboard; SDKs never
/// ask for HTML, and a Query request with parameters is never redirected.
pub fn wants_dashboard(method: &hyper::Method, uri: &hyper::Uri, accept: Option<&str>) -> bool {
    method == hyper::Method::GET
        && uri.path() == "/"
        && uri.query().is_none_or(str::is_empty)
        && accept.is_some_and(|a| a.contains("text/html"))
}

pub fn redirect() -> HttpResponse {
    let mut response = Response::new(Bytes::new().into());
    *response.status_mut() = StatusCode::FOUND;
    response
        .headers_mut()
        .insert(LOCATION, HeaderValue::from_static(PATH));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_files_are_served_and_nothing_else() {
        for p in [
            "/_sqslite/ui",
            "/_sqslite/ui/",
            "/_sqslite/ui/app.js",
            "/_sqslite/ui/sns.js",
            "/_sqslite/ui/triggers.js",
            "/_sqslite/ui/buckets.js",
            "/_sqslite/ui/app.css",
            "/_sqslite/ui/chart.js",
            "/_sqslite/ui/chart.css",
        ] {
            assert!(serve(&p.parse().unwrap()).is_some(), "{p}");
        }
        assert!(serve(&"/_sqslite/ui/../queues".parse().unwrap()).is_none());
        assert!(serve(&"/_sqslite/uix".parse().unwrap()).is_none());
        let search = serve(&"/_sqslite/guide/search?q=dead+letter".parse().unwrap());
        assert_eq!(search.map(|r| r.status()), Some(hyper::StatusCode::OK));
    }

    #[test]
    fn only_a_browser_asking_for_the_root_is_redirected() {
        let get = hyper::Method::GET;
        let root: hyper::Uri = "/".parse().unwrap();
        let html = Some("text/html,application/xhtml+xml");
        assert!(wants_dashboard(&get, &root, html));
        assert!(!wants_dashboard(&get, &root, Some("*/*")));
        assert!(!wants_dashboard(&hyper::Method::POST, &root, html));
        let query: hyper::Uri = "/?Action=ListQueues".parse().unwrap();
        assert!(!wants_dashboard(&get, &query, html));
    }
}
