//! What a setting is: the table it is written in and the kind of value it holds.

/// The table a setting is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// `[server]`.
    Server,
    /// `[outbound]`.
    Outbound,
    /// `[delivery]`: at-least-once delivery on request.
    Delivery,
    /// The command line and environment only: read before any file, or about the process.
    Command,
}

impl Section {
    /// The table's name as written in the file.
    pub fn name(self) -> &'static str {
        match self {
            Section::Server => "server",
            Section::Outbound => "outbound",
            Section::Delivery => "delivery",
            Section::Command => "command",
        }
    }
}

/// What a setting holds, which decides how a flag's text becomes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text.
    Text,
    /// A file or directory.
    Path,
    /// A whole number.
    Integer,
    /// `true`/`false` in the file; the flag alone means true.
    Flag,
    /// `true`/`false` in the file, `on`/`off` as a flag.
    Switch,
    /// Seconds, whole or not.
    Seconds,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A list of text; a flag takes it comma-separated and adds to the file's.
    List,
    /// A probability, from 0 to 1.
    Rate,
}

impl Kind {
    /// How the reference names the value.
    pub fn describe(self) -> String {
        match self {
            Kind::Text => "text".into(),
            Kind::Path => "path".into(),
            Kind::Integer => "integer".into(),
            Kind::Flag => "boolean".into(),
            Kind::Switch => "boolean (`on`/`off` as a flag)".into(),
            Kind::Seconds => "seconds".into(),
            Kind::Choice(words) => words
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(" or "),
            Kind::List => "list of text".into(),
            Kind::Rate => "probability, 0 to 1".into(),
        }
    }
}
