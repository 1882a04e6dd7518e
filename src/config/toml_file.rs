//! `sqslite.toml`: a `[server]` table, `[[queues]]` declarations, `[[templates]]` for
//! queues created on first use and `[[topics]]` ([`super::topics_file`]). Attribute keys
//! are SQS's own names.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::from_json;
use super::settings::{self, Section};
use super::tree::{ConfigError, Entry, Node, Source, Table, Value};
use super::{Config, DeadLetter, DeliveryMode, Loaded, QueueDecl, QueueTemplate};
use crate::sqs::engine::attribute_table;

pub(super) const TOP_KEYS: &[&str] = &[
    "server",
    "queues",
    "templates",
    "alarms",
    "faults",
    "credentials",
    "roles",
    "advisor",
    "functions",
    "event_source_mappings",
    "topics",
    "outbound",
    "delivery",
];
pub(super) const QUEUE_KEYS: &[&str] = &[
    "name",
    "region",
    "account_id",
    "tags",
    "dead_letter_queue",
    "max_receive_count",
    "delivery",
];

pub fn load(file: &str, text: &str) -> Result<Loaded, ConfigError> {
    load_beside(file, text, &[])
}

/// As [`load`], passing over the top-level keys in `others` (a drill file's own tables), so
/// line numbers stay the file's.
pub fn load_beside(file: &str, text: &str, others: &[&str]) -> Result<Loaded, ConfigError> {
    let src = Source { file: file.into() };
    let root = parse(&src, text)?;
    let mut config = Config::default();
    for entry in &root.entries {
        match entry.key.as_str() {
            key if others.contains(&key) => {}
            "server" => settings_table(&src, entry, Section::Server, &mut config)?,
            "queues" => {
                for (node, table) in tables(&src, entry)? {
                    config.queues.push(queue(&src, node, table, "name")?);
                }
            }
            "templates" => {
                for (node, table) in tables(&src, entry)? {
                    let queue = queue(&src, node, table, "prefix")?;
                    config.templates.push(QueueTemplate {
                        prefix: queue.name.clone(),
                        queue,
                    });
                }
            }
            "alarms" | "advisor" | "faults" => game_day(&src, entry, &mut config)?,
            "outbound" => settings_table(&src, entry, Section::Outbound, &mut config)?,
            "delivery" => settings_table(&src, entry, Section::Delivery, &mut config)?,
            "topics" => {
                for (node, table) in tables(&src, entry)? {
                    config
                        .topics
                        .push(super::topics_file::topic(&src, node, table)?);
                }
            }
            "credentials" | "roles" => identities(&src, entry, &mut config)?,
            "functions" => {
                for (node, table) in tables(&src, entry)? {
                    let function = super::triggers::function(&src, node, table)?;
                    config.triggers.functions.push(function);
                }
            }
            "event_source_mappings" => {
                for (node, table) in tables(&src, entry)? {
                    let mapping = super::triggers::mapping(&src, node, table)?;
                    config.triggers.mappings.push(mapping);
                }
            }
            _ => return Err(src.unknown_key(entry, "the file", TOP_KEYS)),
        }
    }
    check_duplicates(&src, &config.queues)?;
    Ok(Loaded {
        config,
        warnings: Vec::new(),
    })
}

fn parse(src: &Source, text: &str) -> Result<Table, ConfigError> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line = |offset: usize| starts.partition_point(|s| *s <= offset);
    let root = DeTable::parse(text).map_err(|e| {
        let at = e.span().map_or(1, |s| line(s.start));
        src.error(at, e.message().trim().to_owned())
    })?;
    Ok(convert_table(root.get_ref(), &line))
}

fn convert_table(table: &DeTable<'_>, line: &dyn Fn(usize) -> usize) -> Table {
    let mut entries: Vec<Entry> = table
        .iter()
        .map(|(k, v)| Entry {
            key: k.get_ref().to_string(),
            line: line(k.span().start),
            node: convert(v, line),
        })
        .collect();
    entries.sort_by_key(|e| e.line);
    Table { entries }
}

fn convert(value: &Spanned<DeValue<'_>>, line: &dyn Fn(usize) -> usize) -> Node {
    let value_line = line(value.span().start);
    let converted = match value.get_ref() {
        DeValue::String(s) => Value::Str(s.to_string()),
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix())
            .map_or_else(|_| Value::Str(i.as_str().to_owned()), Value::Int),
        DeValue::Float(f) => Value::Float(f.as_str().parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::Str(d.to_string()),
        DeValue::Array(items) => Value::List(items.iter().map(|v| convert(v, line)).collect()),
        DeValue::Table(t) => Value::Table(convert_table(t, line)),
    };
    Node {
        line: value_line,
        value: converted,
    }
}

/// Who may call, `[[credentials]]` or `[[roles]]` (the only keys `load` sends here), each
/// listed once.
fn identities(src: &Source, entry: &Entry, config: &mut Config) -> Result<(), ConfigError> {
    for (node, table) in tables(src, entry)? {
        if entry.key == "roles" {
            config.roles.push(super::roles::parse(src, node, table)?);
        } else {
            let credential = super::credentials::parse(src, node, table)?;
            config.credentials.push(credential);
        }
    }
    super::credentials::check_unique(src, &config.credentials)?;
    super::roles::check_unique(src, &config.roles)
}

/// Game-day settings, `[alarms]`, `[advisor]` or `[[faults]]` (the only keys `load` sends
/// here): serde shapes shared with the admin API (alarms::AlarmConfig, faults::FaultSpec).
fn game_day(src: &Source, entry: &Entry, config: &mut Config) -> Result<(), ConfigError> {
    match entry.key.as_str() {
        "alarms" => {
            src.table(entry)?;
            config.admin.alarms = from_json(entry.node.value.to_json())
                .map_err(|e| src.error(entry.line, format!("[alarms]: {e}")))?;
            config.admin.alarms.configured = true;
        }
        "advisor" => {
            src.table(entry)?;
            config.advisor = from_json(entry.node.value.to_json())
                .map_err(|e| src.error(entry.line, format!("[advisor]: {e}")))?;
        }
        _ => {
            for (node, _) in tables(src, entry)? {
                let spec: crate::faults::FaultSpec = from_json(node.value.to_json())
                    .and_then(|s: crate::faults::FaultSpec| {
                        s.validate(&super::FAULT_TARGETS).map(|_| s)
                    })
                    .map_err(|e| src.error(node.line, format!("[[faults]]: {e}")))?;
                config.admin.faults.push(spec);
            }
        }
    }
    Ok(())
}

/// `[server]` or `[outbound]`: each key set by its row of [`settings::SETTINGS`].
fn settings_table(
    src: &Source,
    entry: &Entry,
    section: Section,
    config: &mut Config,
) -> Result<(), ConfigError> {
    for e in &src.table(entry)?.entries {
        let Some(setting) = settings::find(section, &e.key) else {
            let name = format!("[{}]", section.name());
            return Err(src.unknown_key(e, &name, &settings::keys(section)));
        };
        src.read(e, (setting.apply)(config, &e.node.value))?;
    }
    if section == Section::Outbound {
        config
            .outbound
            .check()
            .map_err(|e| src.error(entry.line, e))?;
    }
    Ok(())
}

/// The tables of an array-of-tables entry such as `[[queues]]`.
pub(super) fn tables<'a>(
    src: &Source,
    entry: &'a Entry,
) -> Result<Vec<(&'a Node, &'a Table)>, ConfigError> {
    let Value::List(items) = &entry.node.value else {
        return Err(src.error(
            entry.line,
            format!(
                "`{0}` must be a list of tables: write each as [[{0}]]",
                entry.key
            ),
        ));
    };
    items
        .iter()
        .map(|node| match &node.value {
            Value::Table(t) => Ok((node, t)),
            other => Err(src.error(
                node.line,
                format!(
                    "each of `{}` must be a table, not {}",
                    entry.key,
                    other.kind()
                ),
            )),
        })
        .collect()
}

/// One `[[queues]]` (named by `name`) or `[[templates]]` (named by `prefix`) table.
fn queue(
    src: &Source,
    node: &Node,
    table: &Table,
    name_key: &str,
) -> Result<QueueDecl, ConfigError> {
    let mut decl = QueueDecl {
        origin: Some(src.at(node.line)),
        ..QueueDecl::default()
    };
    let mut named = false;
    let (mut target, mut max) = (None, None);
    let mut known: Vec<&str> = std::iter::once(name_key)
        .chain(QUEUE_KEYS[1..].iter().copied())
        .collect();
    known.extend(attribute_table::settable());
    for e in &table.entries {
        match e.key.as_str() {
            k if k == name_key => {
                decl.name = src.string(e)?;
                named = true;
            }
            "region" => decl.region = Some(src.string(e)?),
            "account_id" => decl.account_id = Some(src.string(e)?),
            "tags" => decl.tags = src.string_map(e)?,
            "dead_letter_queue" => target = Some((src.string(e)?, e.line)),
            "max_receive_count" => max = Some((src.integer::<u32>(e)?, e.line)),
            "delivery" => decl.delivery = Some(delivery(src, e, &decl)?),
            k if attribute_table::spec(k).is_some_and(|s| s.json)
                && matches!(e.node.value, Value::Table(_)) =>
            {
                decl.attributes
                    .insert(k.to_owned(), e.node.value.to_json().to_string());
            }
            k if attribute_table::spec(k).is_some_and(attribute_table::Spec::settable) => {
                decl.attributes.insert(k.to_owned(), src.scalar_text(e)?);
            }
            _ => return Err(src.unknown_key(e, "a queue", &known)),
        }
    }
    if !named {
        return Err(src.error(node.line, format!("this entry has no `{name_key}`")));
    }
    decl.dead_letter = match (target, max) {
        (Some((target, _)), Some((max_receive_count, _))) => Some(DeadLetter {
            target,
            max_receive_count,
        }),
        (None, None) => None,
        (Some((_, line)), None) => {
            return Err(src.error(
                line,
                "`dead_letter_queue` needs `max_receive_count` (1 to 1000)",
            ))
        }
        (None, Some((_, line))) => {
            return Err(src.error(
                line,
                "`max_receive_count` needs `dead_letter_queue` (a queue name or ARN)",
            ))
        }
    };
    Ok(decl)
}

/// A queue's own `delivery`: a mode word; a FIFO queue keeps exactly-once and order, so it
/// refuses at-least-once (its name or `FifoQueue` must come first to be seen).
fn delivery(src: &Source, e: &Entry, decl: &QueueDecl) -> Result<DeliveryMode, ConfigError> {
    let mode = src.read(e, DeliveryMode::parse(&src.string(e)?))?;
    let fifo = decl.name.strip_suffix(".fifo").is_some()
        || decl
            .attributes
            .get("FifoQueue")
            .is_some_and(|v| v == "true");
    if fifo && mode == DeliveryMode::AtLeastOnce {
        return Err(src.error(
            e.line,
            format!("queue `{}` is FIFO, which delivers exactly once and in order (as on AWS): `delivery = \"at-least-once\"` is for standard queues", decl.name),
        ));
    }
    Ok(mode)
}

fn check_duplicates(src: &Source, queues: &[QueueDecl]) -> Result<(), ConfigError> {
    let mut seen = std::collections::HashMap::new();
    for q in queues {
        let key = (&q.region, &q.account_id, &q.name);
        if let Some(first) = seen.insert(key, q.origin.clone()) {
            let line = q
                .origin
                .as_deref()
                .and_then(|o| o.rsplit(':').next()?.parse().ok());
            return Err(ConfigError {
                file: src.file.clone(),
                line,
                message: format!(
                    "queue `{}` is declared twice (first at {})",
                    q.name,
                    first.unwrap_or_default()
                ),
            });
        }
    }
    Ok(())
}
