//! `[[functions]]` and `[[event_source_mappings]]` tables of `sqslite.toml`, loaded into the
//! triggers service's own settings types.

use super::tree::{ConfigError, Node, Source, Table, Value};
use crate::triggers::{Function, MappingDecl, Target};

pub(super) const FUNCTION_KEYS: &[&str] = &[
    "name",
    "url",
    "invoke_url",
    "command",
    "timeout",
    "accounts",
];
pub(super) const MAPPING_KEYS: &[&str] = &[
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
    let (mut name, mut targets, mut timeout, mut accounts) = (None, Vec::new(), None, None);
    for e in &table.entries {
        match e.key.as_str() {
            "name" => name = Some(src.string(e)?),
            "url" => targets.push(Target::Url(src.string(e)?)),
            "invoke_url" => targets.push(Target::InvokeUrl(src.string(e)?)),
            "command" => targets.push(Target::Command(src.strings(e)?)),
            "timeout" => timeout = Some(src.seconds(e)?),
            "accounts" => accounts = Some(src.strings(e)?),
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
    function.accounts = accounts;
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

/// The triggers written back for `--print-config`, in the keys [`function`] and [`mapping`] read.
pub fn render(triggers: &crate::triggers::TriggersConfig, root: &mut toml::Table) {
    use toml::Value as T;
    let functions: Vec<T> = triggers
        .functions
        .iter()
        .map(|f| {
            let mut t = toml::Table::new();
            t.insert("name".into(), f.name.clone().into());
            let target = match &f.target {
                Target::Url(u) | Target::InvokeUrl(u) => T::from(u.clone()),
                Target::Command(argv) => T::from(argv.clone()),
            };
            t.insert(f.target.kind().into(), target);
            t.insert("timeout".into(), T::from(f.timeout.as_secs_f64()));
            t.into()
        })
        .collect();
    if !functions.is_empty() {
        root.insert("functions".into(), functions.into());
    }
    let mappings: Vec<T> = triggers
        .mappings
        .iter()
        .map(|m| {
            let mut t = toml::Table::new();
            t.insert("function".into(), m.function.clone().into());
            t.insert("queue".into(), m.queue.clone().into());
            t.insert("batch_size".into(), i64::from(m.batch_size).into());
            let window = i64::from(m.maximum_batching_window);
            t.insert("maximum_batching_window".into(), window.into());
            if !m.function_response_types.is_empty() {
                let types = m.function_response_types.clone();
                t.insert("function_response_types".into(), types.into());
            }
            if let Some(c) = m.maximum_concurrency {
                t.insert("maximum_concurrency".into(), i64::from(c).into());
            }
            t.insert("enabled".into(), m.enabled.into());
            if !m.filters.is_empty() {
                t.insert("filters".into(), m.filters.clone().into());
            }
            t.into()
        })
        .collect();
    if !mappings.is_empty() {
        root.insert("event_source_mappings".into(), mappings.into());
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;

    #[test]
    fn triggers_survive_print_config() {
        let text = r#"
[[functions]]
name = "orders-handler"
command = ["python3", "handler.py"]
timeout = 30

[[event_source_mappings]]
function = "orders-handler"
queue = "orders"
batch_size = 20
maximum_batching_window = 2
function_response_types = ["ReportBatchItemFailures"]
maximum_concurrency = 2
enabled = false
filters = ['{"body": {"type": ["order"]}}', { body = { kind = ["x"] } }]
"#;
        let first = Config::from_text("sqslite.toml", text).unwrap().config;
        let t = &first.triggers;
        assert_eq!(t.functions[0].timeout, std::time::Duration::from_secs(30));
        assert_eq!(t.mappings[0].filters[1], r#"{"body":{"kind":["x"]}}"#);
        assert!(!t.mappings[0].enabled);
        let again = Config::from_text("sqslite.toml", &first.to_toml())
            .unwrap()
            .config;
        let unplaced = |mut t: crate::triggers::TriggersConfig| {
            t.mappings.iter_mut().for_each(|m| m.origin = None);
            t
        };
        assert_eq!(unplaced(again.triggers), unplaced(first.triggers.clone()));
    }
}
