//! SNS's AWS Query output: `<{Action}Response>` documents with SNS's namespace, and the one
//! rendering of an [`SnsError`] (`<ErrorResponse><Error><Type>…`).

use crate::sns::error::SnsError;

pub use crate::http::xml::Xml;

pub const NAMESPACE: &str = "http://sns.amazonaws.com/doc/2010-03-31/";

/// The whole success document for `action`.
pub fn success(action: &str, request_id: &str, result: &Xml) -> String {
    crate::http::xml::success(NAMESPACE, action, request_id, result)
}

/// SNS's error document: Type, Code, Message inside Error, then the RequestId.
pub fn error(request_id: &str, err: &SnsError) -> String {
    let code = (err.kind.fault(), err.code());
    crate::http::xml::error(NAMESPACE, request_id, code, &err.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_document_has_snss_shape() {
        let doc = error("rid", &SnsError::topic_not_found());
        assert_eq!(
            doc,
            "<ErrorResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">\
             <Error><Type>Sender</Type><Code>NotFound</Code><Message>Topic does not exist</Message></Error>\
             <RequestId>rid</RequestId></ErrorResponse>"
        );
    }
}
