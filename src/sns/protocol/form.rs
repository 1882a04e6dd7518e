//! SNS's AWS Query input: the form parameters of a request (URL query, then form body, a
//! later value winning) and the nested names the SDKs flatten members into
//! (`Attributes.entry.N.key`, `MessageAttributes.entry.N.Value.StringValue`,
//! `Tags.member.N.Key`, `PublishBatchRequestEntries.member.N.Message`).

use std::collections::BTreeMap;

use crate::sns::error::{SnsError, SnsResult};

/// At most this many parameters per request: a PublishBatch of 10 entries with 10
/// attributes each needs about 450. (Chosen: SNS's own limit is not documented.)
pub const MAX_PARAMS: usize = 2048;

/// A request's parameters (or one entry's, below a prefix), in arrival order.
#[derive(Debug, Default, Clone)]
pub struct Form {
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

    /// A required member; absent is SNS's validation error.
    pub fn required(&self, key: &str) -> SnsResult<String> {
        self.get(key)
            .map(str::to_owned)
            .ok_or_else(|| SnsError::missing(key))
    }

    /// A required ARN member: absent (or empty) is SNS's own refusal, not the validation
    /// layer's (recorded: "Invalid parameter: SubscriptionArn Reason: no value for required
    /// parameter").
    pub fn required_arn(&self, key: &str) -> SnsResult<String> {
        match self.get(key) {
            Some(v) if !v.is_empty() => Ok(v.to_owned()),
            _ => Err(SnsError::invalid(format_args!(
                "{key} Reason: no value for required parameter"
            ))),
        }
    }

    pub fn optional(&self, key: &str) -> Option<String> {
        self.get(key).map(str::to_owned)
    }

    /// `true`/`false` members (`ReturnSubscriptionArn`); anything else is false.
    pub fn flag(&self, key: &str) -> bool {
        self.get(key)
            .is_some_and(|v| v.eq_ignore_ascii_case("true"))
    }

    /// The parameters below `prefix.` grouped by the index after `prefix.<wrapper>.`, in
    /// index order, each group with the prefix stripped.
    fn groups(&self, prefix: &str, wrapper: &str) -> Vec<Form> {
        let lead = format!("{prefix}.{wrapper}.");
        let mut groups: BTreeMap<u32, Form> = BTreeMap::new();
        for (k, v) in &self.pairs {
            let Some(rest) = k.strip_prefix(&lead) else {
                continue;
            };
            let (index, member) = rest.split_once('.').unwrap_or((rest, ""));
            let Ok(index) = index.parse::<u32>() else {
                continue;
            };
            groups
                .entry(index)
                .or_default()
                .pairs
                .push((member.to_owned(), v.clone()));
        }
        groups.into_values().collect()
    }

    /// A list of structures, `prefix.member.N.*`.
    pub fn structs(&self, prefix: &str) -> Vec<Form> {
        self.groups(prefix, "member")
    }

    /// A list of strings, `prefix.member.N`.
    pub fn strings(&self, prefix: &str) -> Vec<String> {
        self.structs(prefix)
            .into_iter()
            .filter_map(|g| g.get("").map(str::to_owned))
            .collect()
    }

    /// A string map, `prefix.entry.N.key` / `.value`; later entries win.
    pub fn string_map(&self, prefix: &str) -> BTreeMap<String, String> {
        self.groups(prefix, "entry")
            .into_iter()
            .filter_map(|g| Some((g.get("key")?.to_owned(), g.get("value")?.to_owned())))
            .collect()
    }

    /// A map of structures, `prefix.entry.N.Name` / `.Value.*` (message attributes).
    pub fn struct_map(&self, prefix: &str) -> Vec<(String, Form)> {
        self.groups(prefix, "entry")
            .into_iter()
            .map(|g| {
                let name = g.get("Name").unwrap_or_default().to_owned();
                let value = Form {
                    pairs: g
                        .pairs
                        .iter()
                        .filter_map(|(k, v)| {
                            Some((k.strip_prefix("Value.")?.to_owned(), v.clone()))
                        })
                        .collect(),
                };
                (name, value)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_members_unflatten() {
        let body = "Action=Publish&MessageAttributes.entry.2.Name=b&MessageAttributes.entry.2.Value.DataType=Number&MessageAttributes.entry.2.Value.StringValue=1\
            &MessageAttributes.entry.1.Name=a&MessageAttributes.entry.1.Value.DataType=String&MessageAttributes.entry.1.Value.StringValue=x%20y\
            &Attributes.entry.1.key=DisplayName&Attributes.entry.1.value=d&TagKeys.member.1=k1&TagKeys.member.2=k2";
        let form = Form::parse(Some("Action=Ignored"), Some(body.as_bytes())).unwrap();
        assert_eq!(form.get("Action"), Some("Publish"));
        let attrs = form.struct_map("MessageAttributes");
        assert_eq!(attrs[0].0, "a");
        assert_eq!(attrs[0].1.get("StringValue"), Some("x y"));
        assert_eq!(attrs[1].1.get("DataType"), Some("Number"));
        assert_eq!(form.string_map("Attributes")["DisplayName"], "d");
        assert_eq!(form.strings("TagKeys"), ["k1", "k2"]);
    }
}
