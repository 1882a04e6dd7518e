//! The user guide, compiled into the binary and served at `/_sqslite/guide/PAGE.md`, so that
//! the dashboard's links to it work offline and describe the version that is running.
//!
//! The pages are the mdBook's own sources (`docs/src`, embedded by `include_dir`, rebuilt by
//! `build.rs` when a page changes), rendered by pulldown-cmark, the Markdown parser mdBook
//! itself uses. Three things of mdBook's are done here too, so that a link written for the book
//! works on both: heading ids made as mdBook makes them (so `page.md#anchor` lands on the same
//! heading), `~` lines of examples hidden, and the one `{{#include}}` the guide uses. Relative
//! links between pages need no rewriting: pages keep their `.md` paths. The contents page is
//! `SUMMARY.md`, the book's own table of contents.

use std::collections::HashSet;

use bytes::Bytes;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use hyper::Response;
use include_dir::{include_dir, Dir};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::http::HttpResponse;

/// docs/src: every page, SUMMARY.md and the screenshots.
static PAGES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/docs/src");

/// The one file the guide includes from outside docs/src (scenarios.md shows it).
const SCENARIOS: &str = include_str!("../../../compat/SCENARIOS.md");
const SCENARIOS_INCLUDE: &str = "{{#include ../../compat/SCENARIOS.md}}";

/// Where the guide is served.
pub const PATH: &str = "/_sqslite/guide";

/// Only the page and its stylesheets and images: no script runs on a guide page.
const POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self'; \
                      frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// The file `path` names under [`PATH`], with its content type, if the guide has it.
fn find(path: &str) -> Option<(&'static str, &'static [u8])> {
    let rest = path.strip_prefix(PATH)?;
    let name = match rest {
        "" | "/" => "SUMMARY.md",
        rest => rest.strip_prefix('/')?,
    };
    let kind = match name.rsplit_once('.')?.1 {
        "md" => "text/html; charset=utf-8",
        "png" => "image/png",
        _ => return None,
    };
    Some((kind, PAGES.get_file(name)?.contents()))
}

/// Whether `path` is a page or an image of the guide.
pub fn is_page(path: &str) -> bool {
    find(path).is_some()
}

/// The guide's page or image at `path`, if there is one.
pub fn serve(path: &str) -> Option<HttpResponse> {
    let (kind, contents) = find(path)?;
    let body = if kind.starts_with("text/html") {
        let name = path.rsplit('/').next().unwrap_or_default();
        Bytes::from(page(name, std::str::from_utf8(contents).ok()?))
    } else {
        Bytes::from_static(contents)
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

/// One page as a whole HTML document: the way back to the contents and the dashboard, then
/// the page.
fn page(name: &str, markdown: &str) -> String {
    let body = render(&prepare(markdown));
    let title = markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("Contents");
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} · sqslite guide</title>\
         <link rel=\"stylesheet\" href=\"{ui}/app.css\"></head>\
         <body class=\"guide\"><header><h1><a href=\"{PATH}/\">sqslite guide</a></h1>\
         <nav><a href=\"{PATH}/\">Contents</a> <a href=\"{ui}\">Dashboard</a></nav></header>\
         <main id=\"main\" data-page=\"{}\">{body}</main></body></html>\n",
        escape(title),
        escape(name),
        ui = super::PATH,
    )
}

/// mdBook's preprocessing, as far as the guide uses it: the include, and the `~` lines of an
/// example, which run in CI but are not shown.
fn prepare(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if fenced && line.starts_with('~') {
            continue;
        } else if line.trim() == SCENARIOS_INCLUDE {
            out.push_str(SCENARIOS);
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Markdown to HTML, each heading given the id mdBook gives it.
fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut events = Vec::new();
    let mut heading: Option<(pulldown_cmark::HeadingLevel, Vec<Event>)> = None;
    let mut used = HashSet::new();
    for event in Parser::new_ext(markdown, options) {
        match (event, &mut heading) {
            (Event::Start(Tag::Heading { level, .. }), None) => heading = Some((level, Vec::new())),
            (Event::End(TagEnd::Heading(_)), Some(_)) => {
                let (level, inner) = heading.take().unwrap_or_else(|| unreachable!());
                let id = unique(anchor(&inner), &mut used);
                events.push(Event::Html(
                    format!("<{level} id=\"{}\">", escape(&id)).into(),
                ));
                events.extend(inner);
                events.push(Event::Html(format!("</{level}>\n").into()));
            }
            (event, Some((_, inner))) => inner.push(event),
            (event, None) => events.push(event),
        }
    }
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

/// A heading's id as mdBook makes it: its text in lower case, letters, digits, `_` and `-`
/// kept, white space as `-`, anything else dropped.
fn anchor(inner: &[Event]) -> String {
    let text: String = inner
        .iter()
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
            _ => None,
        })
        .collect();
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

/// A second heading of the same text gets `-1`, a third `-2`, as in mdBook.
fn unique(id: String, used: &mut HashSet<String>) -> String {
    if used.insert(id.clone()) {
        return id;
    }
    // A page has fewer headings than u32 counts, so a free suffix is always found.
    (1..=u32::MAX)
        .map(|n| format!("{id}-{n}"))
        .find(|candidate| used.insert(candidate.clone()))
        .unwrap_or(id)
}

/// Text safe in HTML text and in a quoted attribute (the pages' titles and ids).
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page of the book is served, with no mdBook syntax left in it.
    #[test]
    fn every_page_of_the_contents_is_served_whole() {
        let summary =
            std::str::from_utf8(PAGES.get_file("SUMMARY.md").unwrap().contents()).unwrap();
        let mut pages = 0;
        for link in summary.split("](").skip(1) {
            let name = link.split(')').next().unwrap();
            let html = page(
                name,
                std::str::from_utf8(PAGES.get_file(name).unwrap().contents()).unwrap(),
            );
            assert!(!html.contains("{{#"), "{name} kept an include");
            assert!(!html.contains("\n~"), "{name} shows a hidden line");
            pages += 1;
        }
        assert!(pages > 20, "{pages} pages");
        assert!(is_page("/_sqslite/guide/"));
        assert!(is_page("/_sqslite/guide/images/dashboard-queues.png"));
        assert!(!is_page("/_sqslite/guide/../Cargo.toml"));
        assert!(!is_page("/_sqslite/guide/book.toml"));
        assert!(!is_page("/_sqslite/guidex/sqs.md"));
    }

    /// Ids as mdBook gives them, so one link serves the book and the served guide.
    #[test]
    fn headings_get_mdbooks_ids() {
        let html = render("# A `code` Heading (x)\n\n## Twice\n\n## Twice\n\n## Ünïcode, 2 ways\n");
        assert!(html.contains("<h1 id=\"a-code-heading-x\">"), "{html}");
        assert!(
            html.contains("<h2 id=\"twice\">") && html.contains("<h2 id=\"twice-1\">"),
            "{html}"
        );
        assert!(html.contains("<h2 id=\"ünïcode-2-ways\">"), "{html}");
    }
}
