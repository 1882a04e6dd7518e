//! The user guide, compiled into the binary and served at `/_sqslite/guide/PAGE.md`, so that
//! the dashboard's links to it work offline and describe the version that is running.
//!
//! The pages are the mdBook's own sources (`docs/src`), rendered when sqslite is built
//! (`build.rs` with `render.rs`, again whenever a page changes) and kept in the binary as
//! finished HTML: nothing is parsed while serving. Relative links between pages need no
//! rewriting, since pages keep their `.md` paths. The contents page is `SUMMARY.md`, the
//! book's own table of contents.

use bytes::Bytes;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use hyper::Response;

use crate::http::HttpResponse;

#[cfg(test)]
mod render;
mod search;

include!(concat!(env!("OUT_DIR"), "/guide/files.rs"));

/// Where the guide is served.
pub const PATH: &str = "/_sqslite/guide";

/// Only the page and its stylesheets and images: no script runs on a guide page. Its one form,
/// the search, goes to the guide itself.
const POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self' data:; \
                      frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// The file `path` names under [`PATH`], with its content type, if the guide has it.
fn find(path: &str) -> Option<(&'static str, &'static [u8])> {
    let rest = path.strip_prefix(PATH)?;
    let name = match rest {
        "" | "/" => "SUMMARY.md",
        rest => rest.strip_prefix('/')?,
    };
    let at = FILES
        .binary_search_by(|(path, _, _)| (*path).cmp(name))
        .ok()?;
    let (_, kind, contents) = FILES[at];
    Some((kind, contents))
}

/// Where the search answers.
const SEARCH: &str = "/_sqslite/guide/search";

/// Whether `path` is a page or an image of the guide, or its search.
pub fn is_page(path: &str) -> bool {
    path == SEARCH || find(path).is_some()
}

/// The guide's page or image at `uri`, or the search's answer, if there is one.
pub fn serve(uri: &hyper::Uri) -> Option<HttpResponse> {
    let (kind, body) = if uri.path() == SEARCH {
        let page = search::page(uri.query());
        ("text/html; charset=utf-8", Bytes::from(page))
    } else {
        let (kind, contents) = find(uri.path())?;
        (kind, Bytes::from_static(contents))
    };
    let mut response = Response::new(body.into());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("content-security-policy", HeaderValue::from_static(POLICY));
    headers.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    Some(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page the book's contents list is served, whole: no mdBook syntax left in it.
    #[test]
    fn every_page_of_the_contents_is_served_whole() {
        let summary =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/SUMMARY.md"))
                .unwrap();
        let mut pages = 0;
        for link in summary.split("](").skip(1) {
            let name = link.split(')').next().unwrap();
            let (kind, html) = find(&format!("{PATH}/{name}")).expect(name);
            let html = std::str::from_utf8(html).unwrap();
            assert!(kind.starts_with("text/html"), "{name}");
            assert!(html.starts_with("<!doctype html>"), "{name}");
            assert!(!html.contains("{{#"), "{name} kept an include");
            assert!(
                html.contains("aria-current=\"page\""),
                "{name}: not marked in the contents"
            );
            pages += 1;
        }
        assert!(pages > 20, "{pages} pages");
        assert!(is_page("/_sqslite/guide/"));
        assert!(is_page("/_sqslite/guide/images/dashboard-queues.png"));
        assert!(!is_page("/_sqslite/guide/../Cargo.toml"));
        assert!(!is_page("/_sqslite/guide/book.toml"));
        assert!(!is_page("/_sqslite/guidex/sqs.md"));
        assert!(is_page("/_sqslite/guide/search"));
    }

    /// The pages read on GitHub as they read here: no include, no hidden line of an example
    /// (a copied example must run as it is).
    #[test]
    fn no_page_uses_mdbooks_own_syntax() {
        let src = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src");
        let mut stack = vec![std::path::PathBuf::from(src)];
        let mut found = Vec::new();
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "md") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    if let Some((line, what)) = render::mdbook_syntax(&text) {
                        found.push(format!("{}:{line}: {what}", path.display()));
                    }
                }
            }
        }
        assert!(
            found.is_empty(),
            "mdBook syntax GitHub shows as written:\n{}",
            found.join("\n")
        );
    }
}
