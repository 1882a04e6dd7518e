use super::*;

#[test]
fn every_word_must_be_on_a_page_and_the_passage_marks_the_first() {
    let html = page(Some("q=visibility+TIMEOUT"));
    assert!(
        html.contains("page(s) hold <strong>visibility TIMEOUT</strong>"),
        "{html}"
    );
    assert!(html.contains("<a href=\"sqs.md\">"), "{html}");
    assert!(html.contains("<mark>"), "{html}");
    let none = page(Some("q=visibility+zzzqqq"));
    assert!(none.contains("0 page(s) hold"), "{none}");
    assert!(page(None).contains("Type one or more words"));
    // The asked text is escaped where it is echoed.
    assert!(page(Some("q=%3Cscript%3E")).contains("&lt;script&gt;"));
}

#[test]
fn a_passage_cuts_on_character_boundaries() {
    let text = "é".repeat(200);
    let at = text.len() / 2;
    let got = passage(&text, at, 2);
    assert!(got.contains("<mark>é</mark>"), "{got}");
}
