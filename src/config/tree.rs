//! The parsed shape both config formats share (values with their line numbers), and the
//! errors that point at a file and line.

use std::fmt;

/// A config value and the line it was written on (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub line: usize,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    List(Vec<Node>),
    Table(Table),
}

/// Entries in file order; a key's own line is kept for "unknown key" errors.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: String,
    pub line: usize,
    pub node: Node,
}

/// Startup stops with this: which file, which line, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file as given (a path, or a name for text read from elsewhere).
    pub file: String,
    /// The 1-based line the problem is on, when it has one.
    pub line: Option<usize>,
    /// What is wrong, with a suggestion where one helps.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Builds errors for one file.
#[derive(Debug, Clone)]
pub struct Source {
    pub file: String,
}

impl Source {
    pub fn error(&self, line: usize, message: impl Into<String>) -> ConfigError {
        ConfigError {
            file: self.file.clone(),
            line: Some(line),
            message: message.into(),
        }
    }

    /// `file:line`, the origin recorded on declared queues.
    pub fn at(&self, line: usize) -> String {
        format!("{}:{line}", self.file)
    }

    pub fn unknown_key(&self, entry: &Entry, section: &str, known: &[&str]) -> ConfigError {
        let hint = suggest(&entry.key, known)
            .map(|s| format!("; did you mean `{s}`?"))
            .unwrap_or_default();
        self.error(
            entry.line,
            format!("unknown key `{}` in {section}{hint}", entry.key),
        )
    }

    pub fn string(&self, entry: &Entry) -> Result<String, ConfigError> {
        match &entry.node.value {
            Value::Str(s) => Ok(s.clone()),
            other => Err(self.mismatch(entry, "a string", other)),
        }
    }

    pub fn boolean(&self, entry: &Entry) -> Result<bool, ConfigError> {
        match &entry.node.value {
            Value::Bool(b) => Ok(*b),
            other => Err(self.mismatch(entry, "true or false", other)),
        }
    }

    pub fn integer<T: TryFrom<i64>>(&self, entry: &Entry) -> Result<T, ConfigError> {
        match &entry.node.value {
            Value::Int(i) => T::try_from(*i).map_err(|_| {
                self.error(entry.node.line, format!("`{}` is out of range", entry.key))
            }),
            other => Err(self.mismatch(entry, "an integer", other)),
        }
    }

    pub fn table<'a>(&self, entry: &'a Entry) -> Result<&'a Table, ConfigError> {
        match &entry.node.value {
            Value::Table(t) => Ok(t),
            other => Err(self.mismatch(entry, "a table", other)),
        }
    }

    /// A list of strings, such as host names; one string alone stands for a list of one.
    pub fn strings(&self, entry: &Entry) -> Result<Vec<String>, ConfigError> {
        match &entry.node.value {
            Value::Str(s) => Ok(vec![s.clone()]),
            Value::List(items) => items
                .iter()
                .map(|n| match &n.value {
                    Value::Str(s) => Ok(s.clone()),
                    other => Err(self.mismatch(entry, "a list of strings", other)),
                })
                .collect(),
            other => Err(self.mismatch(entry, "a list of strings", other)),
        }
    }

    /// A non-negative number of seconds, whole or not (`0.5`).
    pub fn seconds(&self, entry: &Entry) -> Result<std::time::Duration, ConfigError> {
        let secs = match &entry.node.value {
            Value::Int(i) => *i as f64,
            Value::Float(f) => *f,
            other => return Err(self.mismatch(entry, "a number of seconds", other)),
        };
        std::time::Duration::try_from_secs_f64(secs).map_err(|_| {
            self.error(
                entry.node.line,
                format!("`{}` must be a number of seconds >= 0", entry.key),
            )
        })
    }

    /// A table of string values, such as tags; numbers and booleans are written as text.
    pub fn string_map(
        &self,
        entry: &Entry,
    ) -> Result<std::collections::BTreeMap<String, String>, ConfigError> {
        let table = self.table(entry)?;
        table
            .entries
            .iter()
            .map(|e| Ok((e.key.clone(), self.scalar_text(e)?)))
            .collect()
    }

    /// A scalar rendered as SQS's string form, so `VisibilityTimeout = 60` works.
    pub fn scalar_text(&self, entry: &Entry) -> Result<String, ConfigError> {
        match &entry.node.value {
            Value::Str(s) => Ok(s.clone()),
            Value::Int(i) => Ok(i.to_string()),
            Value::Bool(b) => Ok(b.to_string()),
            other => Err(self.mismatch(entry, "a string, integer or boolean", other)),
        }
    }

    fn mismatch(&self, entry: &Entry, wanted: &str, got: &Value) -> ConfigError {
        self.error(
            entry.node.line,
            format!("`{}` must be {wanted}, not {}", entry.key, got.kind()),
        )
    }
}

impl Value {
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a boolean",
            Value::List(_) => "a list",
            Value::Table(_) => "a table",
        }
    }

    /// JSON for values SQS takes as JSON text (Policy, RedrivePolicy, RedriveAllowPolicy).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Str(s) => s.clone().into(),
            Value::Int(i) => (*i).into(),
            Value::Float(f) => (*f).into(),
            Value::Bool(b) => (*b).into(),
            Value::List(items) => items.iter().map(|n| n.value.to_json()).collect(),
            Value::Table(t) => t
                .entries
                .iter()
                .map(|e| (e.key.clone(), e.node.value.to_json()))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        }
    }
}

/// The known key closest to a mistyped one: same letters ignoring case and `_`/`-`, or a
/// small edit distance.
pub fn suggest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let wanted = norm(key);
    known
        .iter()
        .map(|k| (strsim::levenshtein(&wanted, &norm(k)), *k))
        .filter(|(d, _)| *d <= 3.max(wanted.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::suggest;

    #[test]
    fn suggestions_ignore_case_and_separators() {
        let known = ["VisibilityTimeout", "DelaySeconds", "max_receive_count"];
        assert_eq!(
            suggest("visibility_timeout", &known),
            Some("VisibilityTimeout")
        );
        assert_eq!(suggest("DelaySecond", &known), Some("DelaySeconds"));
        assert_eq!(
            suggest("maxReceiveCount", &known),
            Some("max_receive_count")
        );
        assert_eq!(suggest("colour", &known), None);
    }
}
