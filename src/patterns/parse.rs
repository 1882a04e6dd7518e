//! A policy's JSON tree turned into its branches: `$or` expanded, nested keys flattened.
//!
//! Like event-ruler's compiler, a policy becomes a list of branches, each a set of keys
//! that must all match; the policy matches when any branch does. `$or` forks the branches
//! built so far, once per alternative, so `{"a":[..], "$or":[{b},{c}]}` is `[a∧b, a∧c]`
//! (the expansion SNS's complexity count sums over, see `limits`).

use serde_json::{Map, Value};

use super::errors::{PatternError, PatternErrorKind};
use super::operators::{self, Matcher};
use super::{Dialect, Scope};

/// One key of a branch: the dotted path, where it starts, and the matchers (any may match).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    /// `detail.state` for `{"detail": {"state": [...]}}`; documents are flattened alike.
    pub path: String,
    /// The top-level key the path starts from (SNS counts these in `MessageBody` scope).
    pub top: String,
    /// How many objects deep the key sits (1 = top level); SNS's complexity weighs by it.
    pub depth: usize,
    pub matchers: Vec<Matcher>,
    /// The key's array as the policy wrote it, for explanations.
    pub shown: String,
}

/// The keys that must all match for this branch to match.
pub(crate) type Branch = Vec<Field>;

/// Names `$or` alternatives may not use as keys (event-ruler's reserved field names).
const RESERVED_IN_OR: &[&str] = &[
    "anything-but",
    "cidr",
    "equals-ignore-case",
    "exactly",
    "exists",
    "numeric",
    "prefix",
    "suffix",
    "wildcard",
];

/// What the walk needs to know: the dialect, the scope, and when to stop forking.
struct Walk<'a> {
    dialect: Dialect,
    scope: Scope,
    max_branches: usize,
    path: Vec<&'a str>,
}

/// The branches of a policy document, or the first refusal in document order.
pub(crate) fn branches(
    root: &Value,
    dialect: Dialect,
    scope: Scope,
    max_branches: usize,
) -> Result<Vec<Branch>, PatternError> {
    let Value::Object(map) = root else {
        // event-ruler's text; SNS's for a non-object policy [unverified].
        return Err(PatternError::syntax("Filter is not an object"));
    };
    let mut walk = Walk {
        dialect,
        scope,
        max_branches,
        path: Vec::new(),
    };
    let mut rules = Vec::new();
    walk.object(&mut rules, map, false)?;
    Ok(rules)
}

impl<'a> Walk<'a> {
    fn object(
        &mut self,
        rules: &mut Vec<Branch>,
        map: &'a Map<String, Value>,
        in_or: bool,
    ) -> Result<(), PatternError> {
        if map.is_empty() {
            return Err(PatternError::syntax("Empty objects are not allowed"));
        }
        for (key, value) in map {
            if key == "$or" {
                self.or(rules, value)?;
                continue;
            }
            if in_or && RESERVED_IN_OR.contains(&key.as_str()) {
                return Err(PatternError::syntax(format!(
                    "{key} is Ruler reserved fieldName which cannot be used inside $or."
                )));
            }
            match value {
                Value::Object(inner) => {
                    if self.scope == Scope::MessageAttributes {
                        // The nested part is read as a body policy first: its own faults
                        // are reported before the scope's (recorded: `{"key":{"suffix":
                        // "value"}}` is `"suffix" must be an object or an array`).
                        let mut body = Walk {
                            scope: Scope::MessageBody,
                            path: vec![key],
                            ..*self
                        };
                        body.object(&mut Vec::new(), inner, in_or)?;
                        return Err(PatternError::new(
                            PatternErrorKind::NestedInAttributes,
                            "Filter policy scope MessageAttributes does not support nested filter policy",
                        ));
                    }
                    self.path.push(key);
                    let result = self.object(rules, inner, in_or);
                    self.path.pop();
                    result?;
                }
                Value::Array(items) => self.field(rules, key, items)?,
                _ => {
                    return Err(PatternError::syntax(format!(
                        "\"{key}\" must be an object or an array"
                    )))
                }
            }
        }
        Ok(())
    }

    /// `"$or": [{…}, {…}, …]`: each alternative extends a copy of the branches so far.
    fn or(&mut self, rules: &mut Vec<Branch>, value: &'a Value) -> Result<(), PatternError> {
        let Value::Array(items) = value else {
            return Err(PatternError::syntax(
                "It must be an Array followed with $or.",
            ));
        };
        let before = std::mem::take(rules);
        for item in items {
            let Value::Object(alternative) = item else {
                return Err(PatternError::syntax(
                    "Only JSON object is allowed in array of $or relationship.",
                ));
            };
            let mut forked = if before.is_empty() {
                vec![Vec::new()]
            } else {
                before.clone()
            };
            self.object(&mut forked, alternative, true)?;
            rules.extend(forked);
            if rules.len() > self.max_branches {
                return Err(PatternError::new(
                    PatternErrorKind::TooComplex,
                    super::limits::TOO_COMPLEX,
                ));
            }
        }
        if items.len() < 2 {
            return Err(PatternError::syntax(
                "There must have at least 2 Objects in $or relationship.",
            ));
        }
        Ok(())
    }

    /// `"key": [value, {operator: …}, …]`: sets the key in every branch built so far.
    fn field(
        &mut self,
        rules: &mut Vec<Branch>,
        key: &str,
        items: &[Value],
    ) -> Result<(), PatternError> {
        let matchers = items
            .iter()
            .map(|item| match item {
                Value::Object(expr) => operators::expression(self.dialect, expr),
                other => operators::literal(self.dialect, other),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if matchers.is_empty() {
            return Err(PatternError::syntax("Empty arrays are not allowed"));
        }
        let mut path = self.path.join(".");
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
        let field = Field {
            top: self.path.first().copied().unwrap_or(key).to_owned(),
            depth: self.path.len() + 1,
            path,
            matchers,
            shown: Value::Array(items.to_vec()).to_string(),
        };
        if rules.is_empty() {
            rules.push(Vec::new());
        }
        for rule in rules.iter_mut() {
            // A key given twice keeps its last value, as a JSON object would.
            rule.retain(|f| f.path != field.path);
            rule.push(field.clone());
        }
        Ok(())
    }
}
