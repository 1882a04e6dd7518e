//! AWS Query's XML answers, for every service that speaks it (SNS, STS; SQS's Query answers
//! are written from their JSON shape by `sqs::protocol::xml`, with this escaping): the
//! members of a result written element by element, the `<{Action}Response>` document around
//! them and the `<ErrorResponse>` document, each in the service's namespace. AWS writes both
//! without an XML declaration (go-cloud's SNS recordings, 2026-03).

use std::collections::BTreeMap;

use super::Fault;

/// Escapes text as AWS does: besides `& < >`, `"` and carriage return are escaped, so that a
/// `\r` in a body survives XML parsing and the client's MD5 check passes.
pub fn escape_into(out: &mut String, text: &str) {
    // Every character to escape is ASCII, so runs between them are copied whole: a body is
    // mostly such a run (pushing it a char at a time was the bulk of a Query receive).
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\r' => "&#xD;",
            _ => continue,
        };
        out.push_str(&text[start..i]);
        out.push_str(entity);
        start = i + 1;
    }
    out.push_str(&text[start..]);
}

/// The members of one result, written element by element, text escaped.
#[derive(Debug, Default)]
pub struct Xml {
    out: String,
    /// Whether the `<{Action}Result>` wrapper is written even with no members: the
    /// operations whose output shape has none still have one (SNS's TagResource; botocore's
    /// parser looks the wrapper up and fails without it).
    wrapped: bool,
}

impl Xml {
    /// The result of an operation whose output has a wrapper but no members.
    pub fn empty_result() -> Self {
        Xml {
            out: String::new(),
            wrapped: true,
        }
    }

    /// `<name>`.
    pub fn open(&mut self, name: &str) -> &mut Self {
        self.out.push('<');
        self.out.push_str(name);
        self.out.push('>');
        self
    }

    /// `</name>`.
    pub fn close(&mut self, name: &str) -> &mut Self {
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
        self
    }

    /// `<name>text</name>`, the text escaped.
    pub fn text(&mut self, name: &str, text: &str) -> &mut Self {
        self.open(name);
        escape_into(&mut self.out, text);
        self.close(name)
    }

    /// [`Xml::text`] when there is a text.
    pub fn opt(&mut self, name: &str, text: Option<&str>) -> &mut Self {
        if let Some(text) = text {
            self.text(name, text);
        }
        self
    }

    /// A string map as AWS Query writes one:
    /// `<name><entry><key>…</key><value>…</value></entry>…</name>`.
    pub fn map(&mut self, name: &str, map: &BTreeMap<String, String>) -> &mut Self {
        self.open(name);
        for (k, v) in map {
            self.open("entry")
                .text("key", k)
                .text("value", v)
                .close("entry");
        }
        self.close(name)
    }

    /// A list of structures: `<name><member>…</member>…</name>`.
    pub fn members<T>(
        &mut self,
        name: &str,
        items: &[T],
        each: impl Fn(&mut Xml, &T),
    ) -> &mut Self {
        self.open(name);
        for item in items {
            self.open("member");
            each(self, item);
            self.close("member");
        }
        self.close(name)
    }
}

/// The whole success document for `action` in `namespace`; an action without output (no
/// members, not wrapped) answers with the metadata alone.
pub fn success(namespace: &str, action: &str, request_id: &str, result: &Xml) -> String {
    let mut out = String::with_capacity(result.out.len() + 256);
    out.push('<');
    out.push_str(action);
    out.push_str("Response xmlns=\"");
    out.push_str(namespace);
    out.push_str("\">");
    if result.wrapped || !result.out.is_empty() {
        out.push('<');
        out.push_str(action);
        out.push_str("Result>");
        out.push_str(&result.out);
        out.push_str("</");
        out.push_str(action);
        out.push_str("Result>");
    }
    out.push_str("<ResponseMetadata><RequestId>");
    out.push_str(request_id);
    out.push_str("</RequestId></ResponseMetadata></");
    out.push_str(action);
    out.push_str("Response>");
    out
}

/// The error document: Type, Code and Message inside Error, then the RequestId.
pub fn error(
    namespace: &str,
    request_id: &str,
    (fault, code): (Fault, &str),
    message: &str,
) -> String {
    let mut out = String::with_capacity(256 + message.len());
    out.push_str("<ErrorResponse xmlns=\"");
    out.push_str(namespace);
    out.push_str("\"><Error><Type>");
    out.push_str(fault.as_str());
    out.push_str("</Type><Code>");
    out.push_str(code);
    out.push_str("</Code><Message>");
    escape_into(&mut out, message);
    out.push_str("</Message></Error><RequestId>");
    out.push_str(request_id);
    out.push_str("</RequestId></ErrorResponse>");
    out
}
