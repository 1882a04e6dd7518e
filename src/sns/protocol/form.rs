//! SNS's AWS Query input: the form parameters of a request (URL query, then form body, a
//! later value winning), within SNS's bound, decoded into the actions' inputs by the shared
//! Query deserializer in SNS's dialect ([`super::query`]).

use serde::de::DeserializeOwned;

use super::query::Sns;
use crate::sns::error::{SnsError, SnsResult};

/// At most this many parameters per request: a PublishBatch of 10 entries with 10
/// attributes each needs about 450. (Chosen: SNS's own limit is not documented.)
pub const MAX_PARAMS: usize = 2048;

/// A request's parameters, in arrival order.
#[derive(Debug, Default, Clone)]
pub struct Form {
    /// Each parameter's decoded name and value.
    pairs: Vec<(String, String)>,
}

impl Form {
    pub fn parse(uri_query: Option<&str>, body: Option<&[u8]>) -> SnsResult<Form> {
        let mut pairs = Vec::new();
        for source in [uri_query.map(str::as_bytes), body].into_iter().flatten() {
            for (k, v) in form_urlencoded::parse(source) {
                if pairs.len() == MAX_PARAMS {
                    return Err(SnsError::invalid(format_args!(
                        "the request has more than {MAX_PARAMS} parameters"
                    )));
                }
                pairs.push((k.into_owned(), v.into_owned()));
            }
        }
        Ok(Form { pairs })
    }

    /// The last value sent for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The parameters as a `T`; a required member left out is SNS's validation error.
    pub fn decode<T: DeserializeOwned>(&self) -> SnsResult<T> {
        let pairs = self.pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        crate::http::query::decode(pairs, Sns)
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    /// Members in each of SNS's wire forms.
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "PascalCase")]
    struct Sample {
        /// A scalar.
        action: String,
        /// A map, as its entries.
        attributes: Vec<Pair>,
        /// A list of strings.
        tag_keys: Vec<String>,
        /// A list of structures, each with a map of structures.
        publish_batch_request_entries: Vec<Entry>,
    }

    /// A string map's entry.
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "lowercase")]
    struct Pair {
        /// Its key.
        key: String,
        /// Its value.
        value: String,
    }

    /// A structure below a list.
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "PascalCase")]
    struct Entry {
        /// A scalar of the entry.
        id: String,
        /// A map of structures, as its entries.
        message_attributes: Vec<Attribute>,
    }

    /// A map entry whose value is a structure.
    #[derive(Debug, Deserialize)]
    struct Attribute {
        /// The entry's key.
        #[serde(rename = "Name")]
        name: String,
        /// A member of its value.
        #[serde(rename = "Value.StringValue")]
        text: String,
    }

    #[test]
    fn nested_members_unflatten() {
        let body = "Action=Publish&PublishBatchRequestEntries.member.1.Id=one\
            &PublishBatchRequestEntries.member.1.MessageAttributes.entry.2.Name=b\
            &PublishBatchRequestEntries.member.1.MessageAttributes.entry.2.Value.StringValue=1\
            &PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Name=a\
            &PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.StringValue=x%20y\
            &Attributes.entry.1.key=DisplayName&Attributes.entry.1.value=d&TagKeys.member.2=k2\
            &TagKeys.member.1=k1";
        let form = Form::parse(Some("Action=Ignored"), Some(body.as_bytes())).unwrap();
        let got: Sample = form.decode().unwrap();
        assert_eq!(got.action, "Publish", "the body's value wins");
        let pair = &got.attributes[0];
        assert_eq!(
            (pair.key.as_str(), pair.value.as_str()),
            ("DisplayName", "d")
        );
        assert_eq!(got.tag_keys, ["k1", "k2"]);
        let entry = &got.publish_batch_request_entries[0];
        assert_eq!(entry.id, "one");
        let attrs: Vec<(&str, &str)> = entry
            .message_attributes
            .iter()
            .map(|a| (a.name.as_str(), a.text.as_str()))
            .collect();
        assert_eq!(attrs, [("a", "x y"), ("b", "1")]);
    }

    #[test]
    fn a_missing_member_is_the_validation_layers() {
        let form = Form::parse(None, Some(b"Action=Publish")).unwrap();
        let err = form.decode::<Sample>().unwrap_err();
        assert_eq!(
            err.message,
            "1 validation error detected: Value null at 'attributes' failed to satisfy constraint: Member must not be null"
        );
    }
}
