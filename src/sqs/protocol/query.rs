//! SQS's AWS Query input, first half: the form parameters of a request (URL and form body),
//! kept only when SQS knows their name and within a fixed budget, so that a request's decoded
//! size follows its valid SQS content and not the number of keys a client can pack into 4 MiB.
//! The second half, [`super::query_de`], reads them into the actions' inputs.

use std::borrow::Cow;

use crate::sqs::error::{SqsError, SqsResult};

/// At most this many known parameters per request. The largest valid SQS request, a
/// SendMessageBatch of 10 entries with 10 message attributes each and a trace header, has
/// about 400; past this a request is refused. (Chosen: SQS's own limit is not documented.)
pub const MAX_PARAMS: usize = 1024;

/// Every parameter name SQS reads, by its first dot-separated part: scalars by name, flattened
/// lists and maps by their Query prefix, empty lists by their member name (`Entries=`).
/// Anything else is ignored as SQS ignores it, and costs nothing: it is never copied.
const KNOWN: &[&str] = &[
    // Common and scalar members of every action.
    "Action",
    "Version",
    "QueueUrl",
    "QueueName",
    "QueueNamePrefix",
    "QueueOwnerAWSAccountId",
    "NextToken",
    "MaxResults",
    "MessageBody",
    "DelaySeconds",
    "MessageDeduplicationId",
    "MessageGroupId",
    "ReceiptHandle",
    "VisibilityTimeout",
    "MaxNumberOfMessages",
    "WaitTimeSeconds",
    "ReceiveRequestAttemptId",
    "Label",
    "SourceArn",
    "DestinationArn",
    "MaxNumberOfMessagesPerSecond",
    "TaskHandle",
    // Flattened lists and maps (`Prefix.N…`).
    "Attribute",
    "MessageAttribute",
    "MessageSystemAttribute",
    "Tag",
    "Tags",
    "AttributeName",
    "MessageSystemAttributeName",
    "MessageAttributeName",
    "TagKey",
    "AWSAccountId",
    "ActionName",
    "SendMessageBatchRequestEntry",
    "DeleteMessageBatchRequestEntry",
    "ChangeMessageVisibilityBatchRequestEntry",
    // Empty lists, sent under the member's own name with an empty value.
    "Entries",
    "AttributeNames",
    "MessageSystemAttributeNames",
    "MessageAttributeNames",
    "TagKeys",
    "AWSAccountIds",
    "Actions",
];

/// A request's known Query parameters in arrival order: URL first, then the form body. Each
/// name comes once: a name given twice is refused, since a signature covers both copies and
/// a reader taking the first and another taking the last would see two requests in one. Text
/// is borrowed from the request where no escape had to be decoded.
#[derive(Debug, Default)]
pub struct Params<'a> {
    pairs: Vec<(Cow<'a, str>, Cow<'a, str>)>,
}

impl<'a> Params<'a> {
    /// Reads the URL's query string and, when given, a form body. Unknown names are skipped
    /// before their value is decoded; `X-Amz-*` (presigned SigV4) is kept for authentication.
    pub fn parse(uri_query: Option<&'a str>, form: Option<&'a [u8]>) -> SqsResult<Self> {
        let mut params = Params::default();
        for source in [uri_query.map(str::as_bytes), form].into_iter().flatten() {
            params.read(source)?;
        }
        params.refuse_repeats()?;
        Ok(params)
    }

    /// Sorting the names finds a repeat in O(n log n), without hashing every request's keys.
    fn refuse_repeats(&self) -> SqsResult<()> {
        if self.pairs.len() < 2 {
            return Ok(());
        }
        let mut names: Vec<&str> = self.pairs.iter().map(|(k, _)| k.as_ref()).collect();
        names.sort_unstable();
        match names.windows(2).find(|w| w[0] == w[1]) {
            // Chosen without an AWS source: SQS's answer to a repeated parameter is unrecorded.
            Some(w) => Err(SqsError::invalid_parameter(format!(
                "The request has the parameter {} more than once.",
                w[0]
            ))),
            None => Ok(()),
        }
    }

    fn read(&mut self, source: &'a [u8]) -> SqsResult<()> {
        for piece in source.split(|&b| b == b'&') {
            let (raw_key, raw_value) = match piece.iter().position(|&b| b == b'=') {
                Some(i) => (&piece[..i], &piece[i + 1..]),
                None => (piece, &[][..]),
            };
            let key = decode(raw_key);
            if !is_known(&key) {
                continue;
            }
            if self.pairs.len() == MAX_PARAMS {
                return Err(SqsError::invalid_parameter(format!(
                    "The request has more than {MAX_PARAMS} parameters."
                )));
            }
            self.pairs.push((key, decode(raw_value)));
        }
        Ok(())
    }

    /// The value sent for `key` (each name comes at most once).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_ref())
    }

    /// The requested action, if the request names one.
    pub fn action(&self) -> Option<&str> {
        self.get("Action").filter(|a| !a.is_empty())
    }

    /// Every kept `(name, value)`, in arrival order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(k, v)| (k.as_ref(), v.as_ref()))
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

fn is_known(key: &str) -> bool {
    // Every name SQS reads starts with a capital: most junk is refused at its first byte.
    if !key.as_bytes().first().is_some_and(u8::is_ascii_uppercase) {
        return false;
    }
    let head = key.split('.').next().unwrap_or_default();
    KNOWN.contains(&head) || key.starts_with("X-Amz-")
}

pub use crate::http::form::decode;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_known_names_and_decodes_them() {
        let p = Params::parse(
            Some("Action=ListQueues&QueueNamePrefix=a%20b"),
            Some(b"MessageBody=c+d&Unknown=1&MessageAttribute.1.Name=x&X-Amz-Date=1"),
        )
        .unwrap();
        assert_eq!(p.get("QueueNamePrefix"), Some("a b"));
        assert_eq!(p.get("MessageBody"), Some("c d"));
        assert_eq!(p.get("Unknown"), None);
        assert_eq!(p.get("MessageAttribute.1.Name"), Some("x"));
        assert_eq!(p.get("X-Amz-Date"), Some("1"));
        assert_eq!(p.action(), Some("ListQueues"));
        assert_eq!(p.len(), 5);
    }

    #[test]
    fn a_name_given_twice_is_refused_wherever_it_comes() {
        for (url, form) in [
            (None, &b"Action=A&MessageBody=1&MessageBody=2"[..]),
            (Some("MessageBody=1"), &b"MessageBody=2"[..]),
            (None, &b"Action=A&%41ction=Z"[..]),
        ] {
            let err = Params::parse(url, Some(form)).unwrap_err();
            assert_eq!(
                err.kind,
                crate::sqs::error::ErrorKind::InvalidParameterValue
            );
        }
        // Unknown names are never kept, so their repeats cost and matter nothing.
        assert!(Params::parse(None, Some(b"Junk=1&Junk=2")).is_ok());
    }

    #[test]
    fn unknown_keys_cost_nothing_however_many() {
        let body = format!(
            "Action=ListQueues&Version=2012-11-05{}",
            "&a".repeat(1_900_000)
        );
        let p = Params::parse(None, Some(body.as_bytes())).unwrap();
        assert_eq!(p.len(), 2, "1.9 M unknown keys keep nothing");
    }

    #[test]
    fn known_keys_are_bounded() {
        let body = (0..MAX_PARAMS).fold(String::new(), |mut b, i| {
            use std::fmt::Write;
            let _ = write!(b, "Tag.{i}=x&");
            b
        });
        assert_eq!(
            Params::parse(None, Some(body.as_bytes())).unwrap().len(),
            MAX_PARAMS
        );
        let body = body + "QueueUrl=x";
        let err = Params::parse(None, Some(body.as_bytes())).unwrap_err();
        assert_eq!(
            err.kind,
            crate::sqs::error::ErrorKind::InvalidParameterValue
        );
    }

    #[test]
    fn empty_and_valueless_pieces() {
        let p = Params::parse(None, Some(b"&&Entries&Action=&=x")).unwrap();
        assert_eq!(p.get("Entries"), Some(""));
        assert_eq!(p.action(), None);
    }
}
