//! A small reader of the XML sqslite writes (AWS Query answers): elements, their text and their
//! children, entities decoded; attributes, comments and namespaces are skipped. Enough to read
//! an answer as a Query client's XML parser would, without a dependency for it.

/// One element: its name, its text (the text directly inside it, entities decoded) and its
/// child elements in document order.
#[derive(Debug, Default)]
pub struct Element {
    pub name: String,
    pub text: String,
    pub children: Vec<Element>,
}

impl Element {
    /// Reads a whole document into its root element; panics, naming the problem, on anything
    /// that is not well-formed in the ways this reader checks (the tests want to know).
    pub fn parse(document: &str) -> Element {
        let mut stack = vec![Element::default()];
        let mut rest = document;
        while let Some(open) = rest.find('<') {
            stack.last_mut().unwrap().text += &decode(&rest[..open]);
            rest = &rest[open..];
            let close = rest.find('>').expect("a tag ends with `>`");
            let tag = &rest[1..close];
            rest = &rest[close + 1..];
            if tag.starts_with('?') || tag.starts_with('!') {
                continue;
            }
            if let Some(name) = tag.strip_prefix('/') {
                let done = stack.pop().expect("a closing tag closes an element");
                assert_eq!(done.name, name, "mismatched closing tag in {document}");
                stack.last_mut().unwrap().children.push(done);
                continue;
            }
            let empty = tag.ends_with('/');
            let tag = tag.trim_end_matches('/');
            let name = tag.split_whitespace().next().unwrap_or_default().to_owned();
            let element = Element {
                name,
                ..Element::default()
            };
            if empty {
                stack.last_mut().unwrap().children.push(element);
            } else {
                stack.push(element);
            }
        }
        assert_eq!(stack.len(), 1, "unclosed elements in {document}");
        let mut document_node = stack.pop().unwrap();
        assert_eq!(document_node.children.len(), 1, "one root in {document}");
        document_node.children.pop().unwrap()
    }

    /// The first child named `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child named `name`.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The text of the first child named `name`.
    pub fn text_of(&self, name: &str) -> Option<String> {
        self.child(name).map(|c| c.text.clone())
    }

    /// The child at the end of `path`, each step the first child of that name.
    pub fn at(&self, path: &[&str]) -> Option<&Element> {
        path.iter().try_fold(self, |e, step| e.child(step))
    }
}

/// Text with XML's five named entities and numeric character references decoded.
fn decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out += &rest[..amp];
        let end = rest[amp..].find(';').expect("an entity ends with `;`") + amp;
        let entity = &rest[amp + 1..end];
        let decoded = match entity {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(hex) = entity.strip_prefix("#x") {
                    u32::from_str_radix(hex, 16)
                } else {
                    entity.trim_start_matches('#').parse()
                };
                char::from_u32(code.expect("a character reference")).expect("a character")
            }
        };
        out.push(decoded);
        rest = &rest[end + 1..];
    }
    out + rest
}

#[test]
fn reads_elements_text_and_entities() {
    let doc = Element::parse(
        "<?xml version=\"1.0\"?><R xmlns=\"x\"><A>1 &lt; 2&#xD;&#10;</A><B/><A>&quot;q&quot;</A></R>",
    );
    assert_eq!(doc.name, "R");
    let texts: Vec<_> = doc.all("A").map(|a| a.text.as_str()).collect();
    assert_eq!(texts, ["1 < 2\r\n", "\"q\""]);
    assert_eq!(doc.text_of("B").as_deref(), Some(""));
    assert!(doc.at(&["B", "C"]).is_none());
}
