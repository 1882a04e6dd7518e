//! SNS's AWS Query output: `<{Action}Response>` documents with SNS's namespace, and the one
//! rendering of an [`SnsError`] (`<ErrorResponse><Error><Type>…`).

use std::collections::BTreeMap;

use crate::sns::error::SnsError;
use crate::sqs::error::Fault;
use crate::sqs::protocol::xml::escape_into;

pub const NAMESPACE: &str = "http://sns.amazonaws.com/doc/2010-03-31/";

/// The members of one result, written element by element.
#[derive(Debug, Default)]
pub struct Xml {
    out: String,
    /// Whether the `<{Action}Result>` wrapper is written even with no members: the
    /// operations whose output shape has none still have one (TagResource, UntagResource;
    /// botocore's parser looks the wrapper up and fails without it).
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

    pub fn open(&mut self, name: &str) -> &mut Self {
        self.out.push('<');
        self.out.push_str(name);
        self.out.push('>');
        self
    }

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

    pub fn opt(&mut self, name: &str, text: Option<&str>) -> &mut Self {
        if let Some(text) = text {
            self.text(name, text);
        }
        self
    }

    /// A string map as SNS writes it: `<name><entry><key>…</key><value>…</value></entry>…`.
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

/// The whole success document for `action`.
pub fn success(action: &str, request_id: &str, result: &Xml) -> String {
    let mut out = String::with_capacity(result.out.len() + 256);
    out.push_str("<?xml version=\"1.0\"?><");
    out.push_str(action);
    out.push_str("Response xmlns=\"");
    out.push_str(NAMESPACE);
    out.push_str("\">");
    // Actions without output (DeleteTopic…) answer with the metadata alone, as SNS does.
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

/// SNS's error document: Type, Code, Message inside Error, then the RequestId.
pub fn error(request_id: &str, err: &SnsError) -> String {
    let fault = match err.kind.fault() {
        Fault::Sender => "Sender",
        Fault::Receiver => "Receiver",
    };
    let mut out = String::with_capacity(256);
    out.push_str("<?xml version=\"1.0\"?><ErrorResponse xmlns=\"");
    out.push_str(NAMESPACE);
    out.push_str("\"><Error><Type>");
    out.push_str(fault);
    out.push_str("</Type><Code>");
    out.push_str(err.code());
    out.push_str("</Code><Message>");
    escape_into(&mut out, &err.message);
    out.push_str("</Message></Error><RequestId>");
    out.push_str(request_id);
    out.push_str("</RequestId></ErrorResponse>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_document_has_snss_shape() {
        let doc = error("rid", &SnsError::topic_not_found());
        assert_eq!(
            doc,
            "<?xml version=\"1.0\"?><ErrorResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">\
             <Error><Type>Sender</Type><Code>NotFound</Code><Message>Topic does not exist</Message></Error>\
             <RequestId>rid</RequestId></ErrorResponse>"
        );
    }
}
