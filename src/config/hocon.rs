//! A HOCON reader for the subset ElasticMQ configs use: objects, dotted keys, `=`/`:`/`{`,
//! quoted and unquoted strings, lists, comments, object merging. `include` lines are skipped
//! (ElasticMQ's only include is its built-in defaults); substitutions are refused by name.

use super::tree::{ConfigError, Entry, Node, Source, Table, Value};

/// Characters HOCON forbids in unquoted text.
const FORBIDDEN: &str = "$\"{}[]:=,+#`^?!@*&\\";

pub fn parse(src: &Source, text: &str) -> Result<(Table, Vec<String>), ConfigError> {
    let mut p = Parser {
        chars: text.chars().collect(),
        pos: 0,
        line: 1,
        src,
        warnings: Vec::new(),
    };
    p.skip_space(true);
    let braced = p.peek() == Some('{');
    if braced {
        p.bump();
    }
    let table = p.members(braced)?;
    Ok((table, p.warnings))
}

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    src: &'a Source,
    warnings: Vec<String>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_comment(&self) -> bool {
        self.peek() == Some('#')
            || (self.peek() == Some('/') && self.chars.get(self.pos + 1) == Some(&'/'))
    }

    /// Skips blanks and comments; newlines too when `newlines` (they separate members).
    fn skip_space(&mut self, newlines: bool) {
        while let Some(c) = self.peek() {
            if self.at_comment() {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if c == '\n' && !newlines {
                return;
            } else if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
            } else {
                return;
            }
        }
    }

    fn fail(&self, message: impl Into<String>) -> ConfigError {
        self.src.error(self.line, message)
    }

    /// Members up to the closing brace (or the end of the file for the root).
    fn members(&mut self, braced: bool) -> Result<Table, ConfigError> {
        let mut table = Table::default();
        loop {
            self.skip_space(true);
            match self.peek() {
                None if braced => return Err(self.fail("a `{` is never closed")),
                None => return Ok(table),
                Some('}') if braced => {
                    self.bump();
                    return Ok(table);
                }
                Some(',') => {
                    self.bump();
                }
                Some(_) => self.member(&mut table)?,
            }
        }
    }

    fn member(&mut self, table: &mut Table) -> Result<(), ConfigError> {
        let line = self.line;
        let path = self.key()?;
        if path == ["include"] && self.peek().is_some_and(char::is_whitespace) {
            self.skip_space(false);
            let start = self.pos;
            while self.peek().is_some_and(|c| c != '\n') {
                self.bump();
            }
            let rest: String = self.chars[start..self.pos].iter().collect();
            self.warnings.push(format!(
                "{}: skipped `include {}`",
                self.src.at(line),
                rest.trim()
            ));
            return Ok(());
        }
        self.skip_space(false);
        let node = match self.peek() {
            Some('{') => self.value()?,
            Some('=' | ':') => {
                self.bump();
                self.skip_space(false);
                self.value()?
            }
            Some('+') => return Err(self.fail("`+=` is not supported")),
            _ => {
                return Err(self.fail(format!(
                    "expected `=`, `:` or `{{` after `{}`",
                    path.join(".")
                )))
            }
        };
        insert(table, &path, line, node);
        Ok(())
    }

    /// A key path: dot-separated unquoted or quoted parts (dots inside quotes are literal).
    fn key(&mut self) -> Result<Vec<String>, ConfigError> {
        let mut path = Vec::new();
        loop {
            let part = if self.peek() == Some('"') {
                self.quoted()?
            } else {
                let start = self.pos;
                while self
                    .peek()
                    .is_some_and(|c| !c.is_whitespace() && c != '.' && !FORBIDDEN.contains(c))
                {
                    self.bump();
                }
                self.chars[start..self.pos].iter().collect()
            };
            if part.is_empty() {
                return Err(self.fail(format!("expected a key, found {}", self.describe())));
            }
            path.push(part);
            if self.peek() != Some('.') {
                return Ok(path);
            }
            self.bump();
        }
    }

    fn describe(&self) -> String {
        self.peek()
            .map_or_else(|| "the end of the file".into(), |c| format!("`{c}`"))
    }

    fn quoted(&mut self) -> Result<String, ConfigError> {
        self.bump();
        let mut out = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(self.fail("a quoted string is never closed")),
                Some('"') => return Ok(out),
                Some('\\') => out.push(match self.bump() {
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some(c) => c,
                    None => return Err(self.fail("a quoted string is never closed")),
                }),
                Some(c) => out.push(c),
            }
        }
    }

    fn value(&mut self) -> Result<Node, ConfigError> {
        let line = self.line;
        let value = match self.peek() {
            Some('{') => {
                self.bump();
                Value::Table(self.members(true)?)
            }
            Some('[') => {
                self.bump();
                Value::List(self.list()?)
            }
            Some('"') => Value::Str(self.quoted()?),
            Some('$') => return Err(self.fail("substitutions (`${...}`) are not supported")),
            _ => self.unquoted()?,
        };
        Ok(Node { line, value })
    }

    fn list(&mut self) -> Result<Vec<Node>, ConfigError> {
        let mut items = Vec::new();
        loop {
            self.skip_space(true);
            match self.peek() {
                None => return Err(self.fail("a `[` is never closed")),
                Some(']') => {
                    self.bump();
                    return Ok(items);
                }
                Some(',') => {
                    self.bump();
                }
                Some(_) => items.push(self.value()?),
            }
        }
    }

    /// Unquoted text up to the end of the line, a separator or a comment, such as `10 seconds`.
    fn unquoted(&mut self) -> Result<Value, ConfigError> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| !matches!(c, '\n' | ',' | '}' | ']'))
            && !self.at_comment()
        {
            if self
                .peek()
                .is_some_and(|c| FORBIDDEN.contains(c) && !c.is_whitespace())
            {
                return Err(self.fail(format!(
                    "{} is not allowed in an unquoted value; quote it",
                    self.describe()
                )));
            }
            self.bump();
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        let text = text.trim();
        if text.is_empty() {
            return Err(self.fail(format!("expected a value, found {}", self.describe())));
        }
        Ok(match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            // `000000000000` is an account id, not zero: only canonical numbers are numbers.
            _ => match text.parse::<i64>() {
                Ok(i) if i.to_string() == text => Value::Int(i),
                _ => match text.parse::<f64>() {
                    Ok(f) if text.contains('.') => Value::Float(f),
                    _ => Value::Str(text.to_owned()),
                },
            },
        })
    }
}

/// Puts `node` at `path`; objects given twice merge, anything else is replaced (as HOCON does).
fn insert(table: &mut Table, path: &[String], line: usize, node: Node) {
    let (first, rest) = path.split_first().expect("keys are never empty");
    let node = if rest.is_empty() {
        node
    } else {
        let mut inner = Table::default();
        insert(&mut inner, rest, line, node);
        Node {
            line,
            value: Value::Table(inner),
        }
    };
    let existing = table.entries.iter_mut().find(|e| e.key == *first);
    match (existing, node.value) {
        (Some(entry), Value::Table(new)) if matches!(entry.node.value, Value::Table(_)) => {
            let Value::Table(old) = &mut entry.node.value else {
                unreachable!()
            };
            for e in new.entries {
                insert(old, std::slice::from_ref(&e.key), e.line, e.node);
            }
        }
        (existing, value) => {
            let node = Node {
                line: node.line,
                value,
            };
            match existing {
                Some(entry) => {
                    entry.node = node;
                    entry.line = line;
                }
                None => table.entries.push(Entry {
                    key: first.clone(),
                    line,
                    node,
                }),
            }
        }
    }
}
