//! The guide's Markdown as HTML pages, made once when sqslite is built: `build.rs` includes
//! this file (`#[path]`) and writes every page into the binary, so no Markdown parser runs (or
//! takes memory) in the server. The crate compiles it only for its tests.
//!
//! pulldown-cmark, the parser mdBook itself uses, does the Markdown. Three things of mdBook's
//! are done here too, so that a link written for the book works on both: heading ids made as
//! mdBook makes them (so `page.md#anchor` lands on the same heading), the `~` lines of examples
//! hidden, and the one `{{#include}}` the guide uses.

use std::collections::HashSet;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// The one include the guide has (scenarios.md shows compat/SCENARIOS.md).
pub const SCENARIOS_INCLUDE: &str = "{{#include ../../compat/SCENARIOS.md}}";

/// Where the pages are served, and the dashboard's files they share a stylesheet with.
const GUIDE: &str = "/_sqslite/guide";
const UI: &str = "/_sqslite/ui";

/// One page (`name`, its path in docs/src) as a whole HTML document: the way back to the
/// contents and the dashboard, then the page. `scenarios` is the included file's text. The
/// empty icon keeps the browser from asking for /favicon.ico, which the SQS API would refuse.
pub fn page(name: &str, markdown: &str, scenarios: &str) -> String {
    let body = render(&prepare(markdown, scenarios));
    let title = markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("Contents");
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} · sqslite guide</title>\
         <link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"{UI}/app.css\"></head>\
         <body class=\"guide\"><header><h1><a href=\"{GUIDE}/\">sqslite guide</a></h1>\
         <nav><a href=\"{GUIDE}/\">Contents</a> <a href=\"{UI}\">Dashboard</a></nav></header>\
         <main id=\"main\" data-page=\"{}\">{body}</main></body></html>\n",
        escape(title),
        escape(name),
    )
}

/// mdBook's preprocessing, as far as the guide uses it: the include, and the hidden lines of
/// an example, which run in CI but are not shown (`~` lines, and `# ` lines in Rust, rustdoc's).
fn prepare(markdown: &str, scenarios: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut fence: Option<bool> = None; // inside a fenced block: whether it is Rust
    for line in markdown.lines() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(info.split([',', ' ']).next() == Some("rust")),
            };
        } else if fence.is_some_and(|rust| hidden(rust, line)) {
            continue;
        } else if line.trim() == SCENARIOS_INCLUDE {
            out.push_str(scenarios);
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Whether an example's line is run but not shown: `~` in any language, and rustdoc's `# `
/// (or a lone `#`) in Rust, where `#[derive]` stays.
fn hidden(rust: bool, line: &str) -> bool {
    line.starts_with('~') || rust && (line.trim_start().starts_with("# ") || line.trim() == "#")
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

    /// The include is filled in and hidden lines stay hidden; outside examples `~` is text.
    #[test]
    fn includes_are_filled_and_hidden_lines_dropped() {
        let markdown = format!(
            "# T\n\n{SCENARIOS_INCLUDE}\n\n```java\n~class X {{\nint x;\n~}}\n```\n\n~ kept\n"
        );
        let html = page("t.md", &markdown, "## Included\n");
        assert!(html.contains("<h2 id=\"included\">Included</h2>"), "{html}");
        assert!(
            html.contains("int x;") && !html.contains("class X"),
            "{html}"
        );
        assert!(html.contains("~ kept"), "{html}");
        assert!(html.contains("<title>T · sqslite guide</title>"), "{html}");
    }

    /// rustdoc's hidden lines go in Rust examples only: a shell comment is shown.
    #[test]
    fn hidden_rust_lines_are_dropped_and_shell_comments_kept() {
        let markdown =
            "```rust,no_run\n# fn main() {\n#[derive(Debug)]\nstruct S;\n#\n# }\n```\n\n\
                        ```sh\n# a comment\nls\n```\n";
        let html = render(&prepare(markdown, ""));
        assert!(!html.contains("fn main"), "{html}");
        assert!(
            html.contains("#[derive(Debug)]") && html.contains("struct S;"),
            "{html}"
        );
        assert!(html.contains("# a comment"), "{html}");
    }
}
