//! The guide's Markdown as HTML pages, made once when sqslite is built: `build.rs` includes
//! this file (`#[path]`) and writes every page into the binary, so no Markdown parser runs (or
//! takes memory) in the server. The crate compiles it only for its tests.
//!
//! pulldown-cmark, the parser mdBook itself uses, does the Markdown; heading ids are made as
//! mdBook makes them, so `page.md#anchor` lands on the same heading in the book and here. The
//! pages use no mdBook syntax (no includes, no hidden lines: GitHub shows a page as written,
//! and a copied example must run as it is), which [`mdbook_syntax`] checks. Each page carries
//! the contents (`SUMMARY.md`) beside it and the search form; [`text`] gives the words the
//! search reads.

use std::collections::HashSet;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// Where the pages are served, and the dashboard's files they share a stylesheet with.
const GUIDE: &str = "/_sqslite/guide";
const UI: &str = "/_sqslite/ui";

/// One page (`name`, its path in docs/src) as a whole HTML document: the way back to the
/// dashboard and the search form, the contents beside the page (`summary`, SUMMARY.md's
/// Markdown, this page's entry marked), then the page. The empty icon keeps the browser from
/// asking for /favicon.ico, which the SQS API would refuse.
pub fn page(name: &str, markdown: &str, summary: &str) -> String {
    let body = render(markdown);
    frame(&title(markdown), name, &contents(summary, name), &body)
}

/// A page's title: its first heading.
pub fn title(markdown: &str) -> String {
    markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("Contents")
        .to_owned()
}

/// The document around a page's `body`: what the served guide's pages and its search page share.
pub fn frame(title: &str, name: &str, contents: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} · sqslite guide</title>\
         <link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"{UI}/app.css\"></head>\
         <body class=\"guide\"><header><h1><a href=\"{GUIDE}/\">sqslite guide</a></h1>\
         <nav><a href=\"{GUIDE}/\">Contents</a> <a href=\"{UI}\">Dashboard</a></nav>\
         <form class=\"search\" role=\"search\" action=\"{GUIDE}/search\" method=\"get\">\
         <label for=\"q\">Search the guide</label> <input id=\"q\" name=\"q\" type=\"search\" required> \
         <button type=\"submit\">Search</button></form></header>\
         <div class=\"guide-body\"><nav class=\"contents\" aria-label=\"Contents\">{contents}</nav>\
         <main id=\"main\" data-page=\"{}\">{body}</main></div></body></html>\n",
        escape(title),
        escape(name),
    )
}

/// The contents (SUMMARY.md) as the list beside each page, `current`'s entry marked. Its
/// links are made absolute: the list is the same on a page in a folder.
pub fn contents(summary: &str, current: &str) -> String {
    let html = without_ids(&render(summary)).replace("<a href=\"", &format!("<a href=\"{GUIDE}/"));
    let link = format!("<a href=\"{GUIDE}/{}\">", escape(current));
    let marked = format!(
        "<a href=\"{GUIDE}/{}\" aria-current=\"page\">",
        escape(current)
    );
    html.replacen(&link, &marked, 1)
}

/// `html` without its elements' ids: the contents' headings must not add anchors to a page
/// (a page's ids are its own, as in the book).
fn without_ids(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find(" id=\"") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 5..];
        rest = after.find('"').map_or("", |end| &after[end + 1..]);
    }
    out.push_str(rest);
    out
}

/// A page's words as the search reads them: its text and code, without markup.
pub fn text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak | Event::End(_) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What of mdBook's own syntax a page uses (an include, an example's hidden lines), which
/// GitHub would show as written: the first such line, if any.
pub fn mdbook_syntax(markdown: &str) -> Option<(usize, String)> {
    let mut fence: Option<bool> = None; // inside a fenced block: whether it is Rust
    for (n, line) in markdown.lines().enumerate() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(info.split([',', ' ']).next() == Some("rust")),
            };
            continue;
        }
        let hidden = fence.is_some_and(|rust| {
            line.starts_with('~') || rust && (line.starts_with("# ") || line.trim() == "#")
        });
        if hidden || line.contains("{{#") {
            return Some((n + 1, line.to_owned()));
        }
    }
    None
}

/// Markdown to HTML, each heading given the id mdBook gives it.
fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut events = Vec::new();
    let mut heading: Option<(HeadingLevel, Vec<Event>)> = None;
    let mut used = HashSet::new();
    for event in Parser::new_ext(markdown, options) {
        match (event, heading.take()) {
            (Event::Start(Tag::Heading { level, .. }), None) => heading = Some((level, Vec::new())),
            (Event::End(TagEnd::Heading(_)), Some((level, inner))) => {
                let id = unique(anchor(&inner), &mut used);
                events.push(Event::Html(
                    format!("<{level} id=\"{}\">", escape(&id)).into(),
                ));
                events.extend(inner);
                events.push(Event::Html(format!("</{level}>\n").into()));
            }
            (event, Some((level, mut inner))) => {
                inner.push(event);
                heading = Some((level, inner));
            }
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

    /// A page carries the contents with its own entry marked, and the search form.
    #[test]
    fn a_page_has_the_contents_beside_it_and_the_search() {
        let summary = "# Summary\n\n- [One](one.md)\n- [Two](two.md)\n";
        let html = page("two.md", "# Two\n\ntext\n", summary);
        let marked = "<a href=\"/_sqslite/guide/two.md\" aria-current=\"page\">Two</a>";
        assert!(html.contains(marked), "{html}");
        assert!(
            html.contains("<a href=\"/_sqslite/guide/one.md\">One</a>"),
            "{html}"
        );
        assert!(html.contains("action=\"/_sqslite/guide/search\""), "{html}");
        assert!(
            !html.contains("id=\"summary\""),
            "the contents add no anchor: {html}"
        );
        assert!(
            html.contains("<title>Two · sqslite guide</title>"),
            "{html}"
        );
    }

    /// The search reads text and code, not markup; mdBook's syntax is found where GitHub
    /// would show it, and only there.
    #[test]
    fn words_for_the_search_and_mdbook_syntax_found() {
        assert_eq!(
            text("# T\n\nA *b* `c`\n\n```sh\nls -l\n```\n"),
            "T A b c ls -l"
        );
        assert_eq!(
            mdbook_syntax("```java\n~class X {}\n```\n"),
            Some((2, "~class X {}".into()))
        );
        assert_eq!(
            mdbook_syntax("```rust\n# fn main() {}\n```\n").map(|(n, _)| n),
            Some(2)
        );
        assert_eq!(
            mdbook_syntax("{{#include x.md}}\n").map(|(n, _)| n),
            Some(1)
        );
        assert_eq!(mdbook_syntax("```sh\n# a comment\n```\n\n~ text\n"), None);
    }
}
