//! The guide's search, without a script (no script runs on a guide page): the form on every
//! page asks `GET /_sqslite/guide/search?q=…`, and the answer is a page listing the pages
//! that hold every word asked for, most mentions first, each with the passage around its
//! first mention. The words were taken from the pages when sqslite was built (`TEXTS`).

use std::fmt::Write as _;

use super::{SEARCH_PAGE, TEXTS};

/// How many results a search shows.
const SHOWN: usize = 20;
/// How much text a result shows around its first mention.
const AROUND: usize = 90;

/// The search's answer page for the query string `query`.
pub fn page(query: Option<&str>) -> String {
    let asked = query
        .into_iter()
        .flat_map(|q| form_urlencoded::parse(q.as_bytes()))
        .find(|(k, _)| k == "q")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    let words: Vec<String> = asked.split_whitespace().map(str::to_lowercase).collect();
    SEARCH_PAGE.replacen("<p>SEARCH-RESULTS</p>", &results(&asked, &words), 1)
}

/// The results of `words` (`asked` as typed), as HTML.
fn results(asked: &str, words: &[String]) -> String {
    if words.is_empty() {
        return "<p>Type one or more words in the search box.</p>".into();
    }
    let mut found: Vec<(usize, &str, &str, String)> = TEXTS
        .iter()
        .filter_map(|(name, title, text)| {
            let lower = text.to_lowercase();
            let counts: Vec<usize> = words
                .iter()
                .map(|w| lower.matches(w.as_str()).count())
                .collect();
            if counts.contains(&0) {
                return None;
            }
            let first = lower.find(words[0].as_str()).unwrap_or(0);
            Some((
                counts.iter().sum(),
                *name,
                *title,
                passage(text, first, words[0].len()),
            ))
        })
        .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let mut html = format!(
        "<p>{} page(s) hold <strong>{}</strong>.</p><ol class=\"results\">",
        found.len(),
        escape(asked)
    );
    for (_, name, title, around) in found.iter().take(SHOWN) {
        let _ = write!(
            html,
            "<li><a href=\"{}\">{}</a><p>{around}</p></li>",
            escape(name),
            escape(title)
        );
    }
    html.push_str("</ol>");
    html
}

/// The text around byte `at` (a mention `len` bytes long), the mention marked, on character
/// boundaries.
fn passage(text: &str, at: usize, len: usize) -> String {
    let floor = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = floor(at.saturating_sub(AROUND));
    let (hit_start, hit_end) = (floor(at), floor((at + len).min(text.len())));
    let end = floor((hit_end + AROUND).min(text.len()));
    format!(
        "{}{}<mark>{}</mark>{}{}",
        if start > 0 { "… " } else { "" },
        escape(&text[start..hit_start]),
        escape(&text[hit_start..hit_end]),
        escape(&text[hit_end..end]),
        if end < text.len() { " …" } else { "" },
    )
}

/// Text safe in HTML text and in a quoted attribute (HTML's entities are XML's).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    crate::http::xml::escape_into(&mut out, text);
    out
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
