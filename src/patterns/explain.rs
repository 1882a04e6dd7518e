//! Why a document does or does not match a policy: for each `$or` branch, which keys failed
//! which condition and what the document held there. The verdict itself is always
//! [`FilterPolicy::matches`]'s; the explanation tests each key alone to name the culprits.

use serde_json::Value;

use super::attributes::{attributes_document, parse_json_body, MessageAttribute};
use super::matcher::{any_branch, Flat};
use super::parse::Field;
use super::FilterPolicy;

/// The answer for one sample.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The matcher's verdict.
    pub matched: bool,
    /// Why nothing in the sample could be read, when that decided it (a body that is not
    /// JSON, a message without attributes).
    pub unreadable: Option<&'static str>,
    /// One entry per branch of the policy's `$or` expansion (one for a policy without `$or`).
    pub branches: Vec<BranchExplanation>,
}

/// One branch: all its keys must match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchExplanation {
    pub matched: bool,
    /// The keys that failed; empty when the branch matched, or when every key matched on
    /// its own but not within the same array element (then `split_arrays` is set).
    pub misses: Vec<Miss>,
    pub split_arrays: bool,
}

/// One key that failed its condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Miss {
    /// The dotted path (`detail.state`) or attribute name.
    pub key: String,
    /// The key's conditions as the policy wrote them (any of them may match).
    pub condition: String,
    /// The values the sample held at the key, as JSON; empty when the key is absent.
    pub found: Vec<String>,
}

impl Miss {
    /// The miss in one sentence.
    pub fn reason(&self) -> String {
        if self.found.is_empty() {
            format!(
                "{} is absent; the policy needs {}",
                self.key, self.condition
            )
        } else {
            format!(
                "{} is {}; the policy needs {}",
                self.key,
                self.found.join(" or "),
                self.condition
            )
        }
    }
}

const NOT_JSON: &str =
    "the body is not a JSON object or array, so a MessageBody policy matches nothing";
const NO_ATTRIBUTES: &str = "the message has no attributes";

impl FilterPolicy {
    /// [`FilterPolicy::matches`], explained.
    pub fn explain(&self, doc: &Value) -> Explanation {
        let flat = Flat::new(doc);
        let branches = self
            .branches
            .iter()
            .map(|branch| {
                let alone = |f: &Field| {
                    any_branch(
                        self.dialect,
                        self.every_element(),
                        std::slice::from_ref(&vec![f.clone()]),
                        &flat,
                    )
                };
                let misses: Vec<Miss> = branch
                    .iter()
                    .filter(|f| !alone(f))
                    .map(|f| Miss {
                        key: f.path.clone(),
                        condition: f.shown.clone(),
                        found: flat.values(&f.path).map(Value::to_string).collect(),
                    })
                    .collect();
                let matched = misses.is_empty()
                    && any_branch(
                        self.dialect,
                        self.every_element(),
                        std::slice::from_ref(branch),
                        &flat,
                    );
                BranchExplanation {
                    matched,
                    split_arrays: misses.is_empty() && !matched,
                    misses,
                }
            })
            .collect();
        Explanation {
            matched: self.matches(doc),
            unreadable: None,
            branches,
        }
    }

    /// [`FilterPolicy::matches_body`], explained.
    pub fn explain_body(&self, body: &str) -> Explanation {
        match parse_json_body(body) {
            Some(doc) => self.explain(&doc),
            None => Explanation {
                unreadable: Some(NOT_JSON),
                ..self.explain(&Value::Null)
            },
        }
        .settled()
    }

    /// [`FilterPolicy::matches_attributes`], explained.
    pub fn explain_attributes<'a>(
        &self,
        attributes: impl IntoIterator<Item = (&'a str, MessageAttribute<'a>)>,
    ) -> Explanation {
        let doc = attributes_document(attributes);
        let mut explained = self.explain(&doc);
        if doc.as_object().is_some_and(serde_json::Map::is_empty) && !explained.matched {
            explained.unreadable = Some(NO_ATTRIBUTES);
        }
        explained
    }
}

impl Explanation {
    /// An unreadable body matches nothing, whatever its branches say (`exists: false`).
    fn settled(mut self) -> Self {
        if self.unreadable.is_some() {
            self.matched = false;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MessageAttribute, Scope};
    use super::*;

    fn attr<'a>(
        name: &'a str,
        data_type: &'a str,
        value: &'a str,
    ) -> (&'a str, MessageAttribute<'a>) {
        (name, MessageAttribute { data_type, value })
    }

    #[test]
    fn a_failed_key_names_its_condition_and_what_the_message_held() {
        let p = FilterPolicy::parse_sns(
            r#"{"color": ["red", {"prefix": "bl"}], "size": [{"numeric": [">", 5]}]}"#,
            Scope::MessageAttributes,
        )
        .unwrap();
        let e = p.explain_attributes([
            attr("color", "String", "green"),
            attr("size", "Number", "9"),
        ]);
        assert!(!e.matched);
        assert_eq!(e.unreadable, None);
        assert_eq!(e.branches.len(), 1);
        let misses = &e.branches[0].misses;
        assert_eq!(misses.len(), 1, "size matches: {misses:?}");
        assert_eq!(misses[0].key, "color");
        assert_eq!(misses[0].condition, r#"["red",{"prefix":"bl"}]"#);
        assert_eq!(misses[0].found, [r#""green""#]);
        assert_eq!(
            misses[0].reason(),
            r#"color is "green"; the policy needs ["red",{"prefix":"bl"}]"#
        );
        let ok =
            p.explain_attributes([attr("color", "String", "blue"), attr("size", "Number", "6")]);
        assert!(ok.matched && ok.branches[0].matched && ok.branches[0].misses.is_empty());
    }

    #[test]
    fn an_absent_key_and_a_message_without_attributes_are_said_so() {
        let p = FilterPolicy::parse_sns(r#"{"color": ["red"]}"#, Scope::MessageAttributes).unwrap();
        let e = p.explain_attributes([]);
        assert!(!e.matched);
        assert_eq!(e.unreadable, Some(NO_ATTRIBUTES));
        assert_eq!(e.branches[0].misses[0].found, Vec::<String>::new());
        assert_eq!(
            e.branches[0].misses[0].reason(),
            r#"color is absent; the policy needs ["red"]"#
        );
        // exists: false matches a message without attributes: nothing to explain away.
        let absent = FilterPolicy::parse_sns(
            r#"{"color": [{"exists": false}]}"#,
            Scope::MessageAttributes,
        )
        .unwrap();
        let e = absent.explain_attributes([]);
        assert!(e.matched && e.unreadable.is_none());
    }

    #[test]
    fn each_or_branch_is_explained_on_its_own() {
        let p = FilterPolicy::parse_sns(
            r#"{"source": ["shop"], "$or": [{"kind": ["order"]}, {"total": [{"numeric": [">=", 100]}]}]}"#,
            Scope::MessageBody,
        )
        .unwrap();
        let e = p.explain_body(r#"{"source": "shop", "kind": "refund", "total": 20}"#);
        assert!(!e.matched);
        let keys: Vec<Vec<&str>> = e
            .branches
            .iter()
            .map(|b| b.misses.iter().map(|m| m.key.as_str()).collect())
            .collect();
        assert_eq!(keys, [vec!["kind"], vec!["total"]]);
        assert_eq!(e.branches[1].misses[0].found, ["20"]);
        let e = p.explain_body(r#"{"source": "shop", "kind": "refund", "total": 150}"#);
        assert!(e.matched && !e.branches[0].matched && e.branches[1].matched);
    }

    #[test]
    fn nested_keys_are_dotted_and_a_body_that_is_not_json_is_unreadable() {
        let p = FilterPolicy::parse_sns(r#"{"detail": {"state": ["done"]}}"#, Scope::MessageBody)
            .unwrap();
        let e = p.explain_body(r#"{"detail": {"state": "open"}}"#);
        assert_eq!(e.branches[0].misses[0].key, "detail.state");
        assert_eq!(e.branches[0].misses[0].found, [r#""open""#]);
        let e = p.explain_body("plain text");
        assert!(!e.matched);
        assert_eq!(e.unreadable, Some(NOT_JSON));
        let anything =
            FilterPolicy::parse_sns(r#"{"x": [{"exists": false}]}"#, Scope::MessageBody).unwrap();
        assert!(
            !anything.explain_body("plain text").matched,
            "as matches_body says"
        );
    }

    #[test]
    fn keys_that_match_apart_but_not_in_one_array_element_are_flagged() {
        let p = FilterPolicy::parse_sns(
            r#"{"people": {"first": ["Anna"], "last": ["Jones"]}}"#,
            Scope::MessageBody,
        )
        .unwrap();
        let body = r#"{"people": [{"first": "Anna", "last": "Smith"}, {"first": "Peter", "last": "Jones"}]}"#;
        let e = p.explain_body(body);
        assert!(!e.matched);
        assert!(e.branches[0].split_arrays && e.branches[0].misses.is_empty());
        assert_eq!(e.matched, p.matches_body(body));
    }
}
