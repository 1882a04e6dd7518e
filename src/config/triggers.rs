//! `[[functions]]` and `[[event_source_mappings]]` tables of `sqslite.toml`, loaded into the
//! triggers service's own settings types.

use super::tree::{ConfigError, Node, Source, Table, Value};
use crate::triggers::{Function, MappingDecl, Target};

const FUNCTION_KEYS: &[&str] = &["name", "url", "invoke_url", "command", "timeout"];
const MAPPING_KEYS: &[&str] = &[
    "function",
    "queue",
    "batch_size",
    "maximum_batching_window",
    "function_response_types",
    "maximum_concurrency",
    "enabled",
    "filters",
];

/// One `[[functions]]` table: a name and exactly one of `url`, `invoke_url`, `command`.
pub fn function(src: &Source, node: &Node, table: &Table) -> Result<Function, ConfigError> {
    let (mut name, mut targets, mut timeout) = (None, Vec::new(), None);
    for e in &table.entries {
        match e.key.as_str() {
            "name" => name = Some(src.string(e)?),
            "url" => targets.push(Target::Url(src.string(e)?)),
            "invoke_url" => targets.push(Target::InvokeUrl(src.string(e)?)),
            "command" => targets.push(Target::Command(src.strings(e)?)),
            "timeout" => timeout = Some(src.seconds(e)?),
            _ => return Err(src.unknown_key(e, "a function", FUNCTION_KEYS)),
        }
    }
    let name = name.ok_or_else(|| src.error(node.line, "this function has no `name`"))?;
    if targets.len() != 1 {
        return Err(src.error(
            node.line,
            format!("function `{name}` needs exactly one of `url`, `invoke_url` or `command`"),
        ));
    }
    let mut function = Function::new(name, targets.remove(0));
    if let Some(t) = timeout {
        function.timeout = t;
    }
    function.check().map_err(|m| src.error(node.line, m))?;
    Ok(function)
}

/// One `[[event_source_mappings]]` table; the model checks it once the queues exist.
pub fn mapping(src: &Source, node: &Node, table: &Table) -> Result<MappingDecl, ConfigError> {
    let mut decl = MappingDecl::new("", "");
    decl.origin = Some(src.at(node.line));
    for e in &table.entries {
        match e.key.as_str() {
            "function" => decl.function = src.string(e)?,
            "queue" => decl.queue = src.string(e)?,
            "batch_size" => decl.batch_size = src.integer(e)?,
            "maximum_batching_window" => decl.maximum_batching_window = src.integer(e)?,
            "function_response_types" => decl.function_response_types = src.strings(e)?,
            "maximum_concurrency" => decl.maximum_concurrency = Some(src.integer(e)?),
            "enabled" => decl.enabled = src.boolean(e)?,
            "filters" => decl.filters = patterns(src, e)?,
            _ => return Err(src.unknown_key(e, "an event source mapping", MAPPING_KEYS)),
        }
    }
    for (key, value) in [("function", &decl.function), ("queue", &decl.queue)] {
        if value.is_empty() {
            return Err(src.error(node.line, format!("this mapping has no `{key}`")));
        }
    }
    Ok(decl)
}

/// Filter patterns: JSON text, or TOML tables written as the pattern itself.
fn patterns(src: &Source, e: &super::tree::Entry) -> Result<Vec<String>, ConfigError> {
    let Value::List(items) = &e.node.value else {
        return Err(src.error(e.line, "`filters` must be a list of patterns"));
    };
    items
        .iter()
        .map(|n| match &n.value {
            Value::Str(s) => Ok(s.clone()),
            Value::Table(_) => Ok(n.value.to_json().to_string()),
            other => Err(src.error(
                n.line,
                format!(
                    "each filter must be a JSON pattern string or a table, not {}",
                    other.kind()
                ),
            )),
        })
        .collect()
}
