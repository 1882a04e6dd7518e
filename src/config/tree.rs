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

    /// The entry's value as text.
    pub fn string(&self, entry: &Entry) -> Result<String, ConfigError> {
        self.read(entry, entry.node.value.text())
    }

    /// The entry's value as `true` or `false`.
    pub fn boolean(&self, entry: &Entry) -> Result<bool, ConfigError> {
        self.read(entry, entry.node.value.boolean())
    }

    /// The entry's value as a whole number that fits `T`.
    pub fn integer<T: TryFrom<i64>>(&self, entry: &Entry) -> Result<T, ConfigError> {
        self.read(entry, entry.node.value.integer())
    }

    /// A reading of an entry's value, its error naming the key and the value's line.
    pub fn read<T>(&self, entry: &Entry, read: Result<T, String>) -> Result<T, ConfigError> {
        read.map_err(|m| self.error(entry.node.line, format!("`{}` {m}", entry.key)))
    }

    pub fn table<'a>(&self, entry: &'a Entry) -> Result<&'a Table, ConfigError> {
        match &entry.node.value {
            Value::Table(t) => Ok(t),
            other => Err(self.mismatch(entry, "a table", other)),
        }
    }

    /// A list of strings, such as host names; one string alone stands for a list of one.
    pub fn strings(&self, entry: &Entry) -> Result<Vec<String>, ConfigError> {
        self.read(entry, entry.node.value.strings())
    }

    /// A non-negative number of seconds, whole or not (`0.5`).
    pub fn seconds(&self, entry: &Entry) -> Result<std::time::Duration, ConfigError> {
        self.read(entry, entry.node.value.seconds())
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
    /// As text.
    pub fn text(&self) -> Result<String, String> {
        match self {
            Value::Str(s) => Ok(s.clone()),
            other => Err(format!("must be a string, not {}", other.kind())),
        }
    }

    /// As `true` or `false`.
    pub fn boolean(&self) -> Result<bool, String> {
        match self {
            Value::Bool(b) => Ok(*b),
            other => Err(format!("must be true or false, not {}", other.kind())),
        }
    }

    /// As a whole number that fits `T`.
    pub fn integer<T: TryFrom<i64>>(&self) -> Result<T, String> {
        match self {
            Value::Int(i) => T::try_from(*i).map_err(|_| "is out of range".to_owned()),
            other => Err(format!("must be an integer, not {}", other.kind())),
        }
    }

    /// As a list of strings; one string alone stands for a list of one.
    pub fn strings(&self) -> Result<Vec<String>, String> {
        let wanted = "must be a list of strings";
        match self {
            Value::Str(s) => Ok(vec![s.clone()]),
            Value::List(items) => items
                .iter()
                .map(|n| match &n.value {
                    Value::Str(s) => Ok(s.clone()),
                    other => Err(format!("{wanted}, not {}", other.kind())),
                })
                .collect(),
            other => Err(format!("{wanted}, not {}", other.kind())),
        }
    }

    /// As a non-negative number of seconds, whole or not (`0.5`).
    pub fn seconds(&self) -> Result<std::time::Duration, String> {
        let secs = match self {
            Value::Int(i) => *i as f64,
            Value::Float(f) => *f,
            other => return Err(format!("must be a number of seconds, not {}", other.kind())),
        };
        std::time::Duration::try_from_secs_f64(secs)
            .map_err(|_| "must be a number of seconds >= 0".to_owned())
    }

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
