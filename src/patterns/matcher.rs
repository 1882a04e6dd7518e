//! Matching a policy's branches against a JSON document.
//!
//! The document is flattened the way the policy was: every leaf (string, number, bool,
//! null) gets its dotted path, so `{"a": {"b": 1}}` and `{"a.b": 1}` both have a leaf `a.b`
//! (AWS matches either against `{"a": {"b": [1]}}`: LocalStack's AWS-validated
//! `test_filter_policy_on_message_body_dot_attribute`). Arrays add no path step: a key whose
//! value is an array matches when any element does, at any depth of nesting.
//!
//! Each leaf remembers which element of which array it sits in. A branch only matches with
//! leaves that agree on every array they share, so `{"employees": {"first": ["Anna"],
//! "last": ["Jones"]}}` does not match Anna Smith and Peter Jones (event-ruler's
//! array-consistent matching, `rulesForJSONEvent`).

use std::collections::HashMap;

use serde_json::Value;

use super::operators::Matcher;
use super::parse::{Branch, Field};
use super::Dialect;

/// (array id, element index) for every array a leaf sits in, outermost first.
type Trail = Vec<(u32, u32)>;

struct Leaf<'a> {
    value: &'a Value,
    trail: Trail,
}

/// The document's leaves by dotted path.
pub(crate) struct Flat<'a> {
    leaves: HashMap<String, Vec<Leaf<'a>>>,
}

/// Work bound for one match: the backtracking over array elements is exponential in the
/// worst case, and no real event needs this many steps \[sqslite's own bound\].
const MAX_STEPS: u32 = 100_000;

impl<'a> Flat<'a> {
    pub(crate) fn new(doc: &'a Value) -> Flat<'a> {
        let mut flat = Flat {
            leaves: HashMap::new(),
        };
        let (mut name, mut trail, mut next_array) = (String::new(), Vec::new(), 0u32);
        flat.walk(doc, &mut name, &mut trail, &mut next_array);
        flat
    }

    /// The document's leaves at a dotted path, in document order.
    pub(crate) fn values(&self, path: &str) -> impl Iterator<Item = &'a Value> + '_ {
        self.leaves.get(path).into_iter().flatten().map(|l| l.value)
    }

    fn walk(&mut self, v: &'a Value, name: &mut String, trail: &mut Trail, next_array: &mut u32) {
        match v {
            Value::Object(map) => {
                for (key, child) in map {
                    let len = name.len();
                    if len > 0 {
                        name.push('.');
                    }
                    name.push_str(key);
                    self.walk(child, name, trail, next_array);
                    name.truncate(len);
                }
            }
            Value::Array(items) => {
                let id = *next_array;
                *next_array += 1;
                for (i, item) in items.iter().enumerate() {
                    trail.push((id, i as u32));
                    self.walk(item, name, trail, next_array);
                    trail.pop();
                }
            }
            leaf => self.leaves.entry(name.clone()).or_default().push(Leaf {
                value: leaf,
                trail: trail.clone(),
            }),
        }
    }
}

/// Whether any branch matches the flattened document.
/// `every_element` is SNS's rule for String.Array attributes: anything-but must hold for
/// every element (SNS guide, string-value-matching). Elsewhere one allowed element is enough
/// (the guide's numeric anything-but example on a body array; event-ruler).
pub(crate) fn any_branch(
    dialect: Dialect,
    every_element: bool,
    branches: &[Branch],
    flat: &Flat<'_>,
) -> bool {
    branches.iter().any(|branch| {
        let mut search = Search {
            dialect,
            every_element,
            flat,
            chosen: Vec::new(),
            steps: 0,
        };
        search.fields(branch)
    })
}

struct Search<'f, 'a> {
    dialect: Dialect,
    every_element: bool,
    flat: &'f Flat<'a>,
    /// The trails of the leaves picked for the keys matched so far.
    chosen: Vec<&'f Trail>,
    steps: u32,
}

/// Two leaves agree when they sit in the same element of every array they share.
fn consistent(a: &Trail, b: &Trail) -> bool {
    a.iter()
        .all(|(id, i)| b.iter().all(|(jd, j)| id != jd || i == j))
}

impl<'f> Search<'f, '_> {
    fn fields(&mut self, fields: &[Field]) -> bool {
        let Some((field, rest)) = fields.split_first() else {
            return true;
        };
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return false;
        }
        let leaves: &'f [Leaf<'_>] = self.flat.leaves.get(&field.path).map_or(&[], Vec::as_slice);
        field.matchers.iter().any(|m| self.matcher(m, leaves, rest))
    }

    /// Tries `m` on each agreeing leaf of the key, then the remaining keys with that pick.
    fn matcher(&mut self, m: &Matcher, leaves: &'f [Leaf<'_>], rest: &[Field]) -> bool {
        let candidates: Vec<&'f Leaf<'_>> = leaves
            .iter()
            .filter(|leaf| self.chosen.iter().all(|t| consistent(t, &leaf.trail)))
            .collect();
        match m {
            Matcher::Exists(false) => {
                return leaves.iter().all(|l| !self.present(l)) && self.fields(rest)
            }
            Matcher::AnythingBut(_) if self.every_element => {
                let ok = !candidates.is_empty()
                    && candidates.iter().all(|l| m.test(self.dialect, l.value));
                return ok && self.pick(candidates[0], rest);
            }
            _ => {}
        }
        for leaf in candidates {
            let hit = match m {
                Matcher::Exists(_) => self.present(leaf),
                _ => m.test(self.dialect, leaf.value),
            };
            if hit && self.pick(leaf, rest) {
                return true;
            }
        }
        false
    }

    fn pick(&mut self, leaf: &'f Leaf<'_>, rest: &[Field]) -> bool {
        self.chosen.push(&leaf.trail);
        let matched = self.fields(rest);
        self.chosen.pop();
        matched
    }

    /// Whether a leaf makes its key "exist". SNS's guide: "The key must have a non-null
    /// and non-empty value"; Lambda (EventBridge) counts any leaf, null included.
    fn present(&self, leaf: &Leaf<'_>) -> bool {
        match self.dialect {
            Dialect::Sns => !matches!(leaf.value, Value::Null) && leaf.value.as_str() != Some(""),
            Dialect::Lambda => true,
        }
    }
}
