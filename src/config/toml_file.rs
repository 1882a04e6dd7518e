//! `sqslite.toml`: a `[server]` table, `[[queues]]` declarations, `[[templates]]` for
//! queues created on first use and `[[topics]]` ([`super::topics_file`]). Attribute keys
//! are SQS's own names.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::from_json;
use super::tree::{ConfigError, Entry, Node, Source, Table, Value};
use super::{ClockKind, Config, DeadLetter, Loaded, QueueDecl, QueueTemplate, UrlStyle};
use crate::sqs::engine::attribute_table;

const TOP_KEYS: &[&str] = &[
    "server",
    "queues",
    "templates",
    "alarms",
    "faults",
    "credentials",
    "advisor",
    "functions",
    "event_source_mappings",
    "topics",
    "outbound",
];
const SERVER_KEYS: &[&str] = &[
    "host",
    "port",
    "region",
    "account_id",
    "public_url",
    "url_style",
    "clock",
    "auto_create",
    "max_queues",
    "max_topics",
    "max_fifo_topics",
    "max_subscriptions_per_topic",
    "strict",
    "data_dir",
    "fsync",
    "repair",
    "admin_token",
    "allow_hosts",
    "allow_origins",
    "admin_allow_origins",
    "admin_require_token",
    "metrics",
    "header_timeout_seconds",
    "idle_timeout_seconds",
    "max_connections",
    "shutdown_timeout_seconds",
];
const QUEUE_KEYS: &[&str] = &[
    "name",
    "region",
    "account_id",
    "tags",
    "dead_letter_queue",
    "max_receive_count",
];

pub fn load(file: &str, text: &str) -> Result<Loaded, ConfigError> {
    let src = Source { file: file.into() };
    let root = parse(&src, text)?;
    let mut config = Config::default();
    for entry in &root.entries {
        match entry.key.as_str() {
            "server" => server(&src, src.table(entry)?, &mut config)?,
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
            "outbound" => config.outbound = outbound(&src, entry)?,
            "topics" => {
                for (node, table) in tables(&src, entry)? {
                    config
                        .topics
                        .push(super::topics_file::topic(&src, node, table)?);
                }
            }
            "credentials" => {
                for (node, table) in tables(&src, entry)? {
                    config
                        .credentials
                        .push(super::credentials::parse(&src, node, table)?);
                }
                super::credentials::check_unique(&src, &config.credentials)?;
            }
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

/// `[outbound]`: its entries, each checked (the error names the file and line).
fn outbound(src: &Source, entry: &Entry) -> Result<super::OutboundConfig, ConfigError> {
    src.table(entry)?;
    super::admin::from_json(entry.node.value.to_json())
        .and_then(|o: super::OutboundConfig| o.check().map(|()| o))
        .map_err(|e| src.error(entry.line, format!("[outbound]: {e}")))
}

fn server(src: &Source, table: &Table, config: &mut Config) -> Result<(), ConfigError> {
    for e in &table.entries {
        match e.key.as_str() {
            "host" => config.host = src.string(e)?,
            "port" => config.port = src.integer(e)?,
            "region" => config.region = src.string(e)?,
            "account_id" => config.account_id = src.string(e)?,
            "public_url" => config.public_url = Some(src.string(e)?),
            "auto_create" => config.auto_create = src.boolean(e)?,
            "max_queues" => config.max_queues = src.integer(e)?,
            "max_topics" => config.sns_limits.topics = src.integer(e)?,
            "max_fifo_topics" => config.sns_limits.fifo_topics = src.integer(e)?,
            "max_subscriptions_per_topic" => {
                config.sns_limits.subscriptions_per_topic = src.integer(e)?;
            }
            "strict" => config.strict = src.boolean(e)?,
            "repair" => config.repair = src.boolean(e)?,
            "data_dir" => config.data_dir = Some(src.string(e)?.into()),
            "fsync" => {
                config.fsync = src
                    .string(e)?
                    .parse()
                    .map_err(|m: String| src.error(e.line, m))?;
            }
            "url_style" => {
                config.url_style = match src.string(e)?.as_str() {
                    "host" => UrlStyle::Host,
                    "path" => UrlStyle::Path,
                    "region" => UrlStyle::Region,
                    _ => {
                        return Err(src.error(
                            e.node.line,
                            "`url_style` must be \"host\", \"path\" or \"region\"",
                        ))
                    }
                }
            }
            "clock" => {
                config.clock = match src.string(e)?.as_str() {
                    "system" => ClockKind::System,
                    "manual" => ClockKind::Manual,
                    _ => {
                        return Err(
                            src.error(e.node.line, "`clock` must be \"system\" or \"manual\"")
                        )
                    }
                }
            }
            _ if guard_or_limit(src, e, config)? => {}
            _ => return Err(src.unknown_key(e, "[server]", SERVER_KEYS)),
        }
    }
    Ok(())
}

/// The `[server]` keys for who may call and how long connections may take; false if not one.
fn guard_or_limit(src: &Source, e: &Entry, config: &mut Config) -> Result<bool, ConfigError> {
    let (access, limits) = (&mut config.access, &mut config.connections);
    match e.key.as_str() {
        "admin_token" => access.admin_token = Some(src.string(e)?),
        "allow_hosts" => access.allow_hosts = src.strings(e)?,
        "allow_origins" => access.allow_origins = src.strings(e)?,
        "admin_allow_origins" => access.admin_origins = src.strings(e)?,
        "admin_require_token" => access.require_admin_token = src.boolean(e)?,
        "metrics" => access.metrics = Some(src.boolean(e)?),
        "header_timeout_seconds" => limits.header_timeout = src.seconds(e)?,
        "idle_timeout_seconds" => limits.idle_timeout = src.seconds(e)?,
        "max_connections" => limits.max_connections = Some(src.integer(e)?),
        "shutdown_timeout_seconds" => limits.shutdown_timeout = src.seconds(e)?,
        _ => return Ok(false),
    }
    Ok(true)
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
