//! ElasticMQ's `elasticmq.conf`: its `queues` block, `node-address`, `rest-sqs` and `aws`
//! settings become sqslite's; sections sqslite has no use for are reported as warnings.

use super::hocon;
use super::tree::{ConfigError, Entry, Source, Table, Value};
use super::{Config, DeadLetter, Loaded, QueueDecl};

const TOP_KEYS: &[&str] = &[
    "node-address",
    "rest-sqs",
    "generate-node-address",
    "queues",
    "aws",
    "rest-stats",
    "messages-storage",
    "queues-storage",
    "akka",
    "pekko",
];
/// Read without complaint but not carried over: sqslite has no stats UI or persistence.
const IGNORED: &[&str] = &[
    "rest-stats",
    "messages-storage",
    "queues-storage",
    "akka",
    "pekko",
];
const QUEUE_KEYS: &[&str] = &[
    "defaultVisibilityTimeout",
    "delay",
    "receiveMessageWait",
    "deadLettersQueue",
    "fifo",
    "contentBasedDeduplication",
    "tags",
    "copyTo",
    "moveTo",
];

pub fn load(file: &str, text: &str) -> Result<Loaded, ConfigError> {
    let src = Source { file: file.into() };
    let (root, mut warnings) = hocon::parse(&src, text)?;
    let mut config = Config::default();
    for e in &root.entries {
        match e.key.as_str() {
            "node-address" => node_address(&src, src.table(e)?, &mut config)?,
            "rest-sqs" => rest_sqs(&src, src.table(e)?, &mut config, &mut warnings)?,
            "generate-node-address" => {
                // sqslite always derives URLs from the request unless a public URL is fixed.
                if boolean(&src, e)? {
                    config.public_url = None;
                }
            }
            "aws" => {
                for a in &src.table(e)?.entries {
                    match a.key.as_str() {
                        "region" => config.region = src.string(a)?,
                        "accountId" => config.account_id = src.scalar_text(a)?,
                        _ => return Err(src.unknown_key(a, "aws", &["region", "accountId"])),
                    }
                }
            }
            "queues" => {
                for q in &src.table(e)?.entries {
                    config.queues.push(queue(&src, q, &mut warnings)?);
                }
            }
            k if IGNORED.contains(&k) => {
                warnings.push(format!("{}: `{k}` is not used by sqslite", src.at(e.line)));
            }
            _ => return Err(src.unknown_key(e, "the file", TOP_KEYS)),
        }
    }
    Ok(Loaded { config, warnings })
}

fn node_address(src: &Source, table: &Table, config: &mut Config) -> Result<(), ConfigError> {
    let (mut protocol, mut host, mut port, mut path) =
        ("http".to_owned(), None, 9324_i64, String::new());
    for e in &table.entries {
        match e.key.as_str() {
            "protocol" => protocol = src.string(e)?,
            "host" => host = Some(src.string(e)?),
            "port" => port = src.integer(e)?,
            "context-path" => path = src.string(e)?,
            _ => {
                return Err(src.unknown_key(
                    e,
                    "node-address",
                    &["protocol", "host", "port", "context-path"],
                ))
            }
        }
    }
    // `*` is ElasticMQ's "take the host from the request", sqslite's default.
    config.public_url = match host.as_deref() {
        None | Some("*") => None,
        Some(h) => Some(
            format!("{protocol}://{h}:{port}/{}", path.trim_matches('/'))
                .trim_end_matches('/')
                .to_owned(),
        ),
    };
    Ok(())
}

fn rest_sqs(
    src: &Source,
    table: &Table,
    config: &mut Config,
    warnings: &mut Vec<String>,
) -> Result<(), ConfigError> {
    for e in &table.entries {
        match e.key.as_str() {
            "enabled" => {
                if !boolean(src, e)? {
                    warnings.push(format!(
                        "{}: `rest-sqs.enabled = false` ignored; sqslite always serves SQS",
                        src.at(e.line)
                    ));
                }
            }
            "bind-port" => config.port = src.integer(e)?,
            "bind-hostname" => {
                config.host = src.string(e)?;
                if !crate::http::guard::loopback_only(&config.host) {
                    warnings.push(format!(
                        "{}: `bind-hostname = \"{}\"` listens beyond loopback, where the dashboard and admin API answer 403 without a token; --admin-token (SQSLITE_ADMIN_TOKEN) opens them",
                        src.at(e.line),
                        config.host
                    ));
                }
            }
            "sqs-limits" => {
                if src.string(e)? != "strict" {
                    warnings.push(format!(
                        "{}: sqslite always applies SQS's limits strictly",
                        src.at(e.line)
                    ));
                }
            }
            _ => {
                return Err(src.unknown_key(
                    e,
                    "rest-sqs",
                    &["enabled", "bind-port", "bind-hostname", "sqs-limits"],
                ))
            }
        }
    }
    Ok(())
}

fn queue(
    src: &Source,
    entry: &Entry,
    warnings: &mut Vec<String>,
) -> Result<QueueDecl, ConfigError> {
    let mut decl = QueueDecl {
        name: entry.key.clone(),
        origin: Some(src.at(entry.line)),
        ..QueueDecl::default()
    };
    let mut content_dedup = None;
    for e in &src.table(entry)?.entries {
        match e.key.as_str() {
            "defaultVisibilityTimeout" => set(&mut decl, "VisibilityTimeout", seconds(src, e)?),
            "delay" => set(&mut decl, "DelaySeconds", seconds(src, e)?),
            "receiveMessageWait" => {
                set(&mut decl, "ReceiveMessageWaitTimeSeconds", seconds(src, e)?);
            }
            "fifo" => {
                if boolean(src, e)? {
                    set(&mut decl, "FifoQueue", "true");
                }
            }
            "contentBasedDeduplication" => content_dedup = Some(boolean(src, e)?),
            "tags" => decl.tags = src.string_map(e)?,
            "deadLettersQueue" => decl.dead_letter = Some(dead_letters(src, e)?),
            "copyTo" | "moveTo" => warnings.push(format!(
                "{}: `{}` of queue `{}` is not supported and was ignored",
                src.at(e.line),
                e.key,
                decl.name
            )),
            _ => return Err(src.unknown_key(e, &format!("queue `{}`", decl.name), QUEUE_KEYS)),
        }
    }
    // ElasticMQ writes `contentBasedDeduplication = false` on standard queues too; SQS
    // would refuse the attribute there, so it only carries over to FIFO queues.
    let fifo = decl.attributes.contains_key("FifoQueue");
    if let Some(on) = content_dedup.filter(|_| fifo) {
        set(&mut decl, "ContentBasedDeduplication", on);
    }
    // ElasticMQ names a `fifo = true` queue `<key>.fifo` (`addSuffixWhenFifoQueue` in its
    // server config), so `test { fifo = true }` is `test.fifo`; a FIFO queue's dead letters
    // go to a FIFO queue, so its `deadLettersQueue` name takes the suffix too.
    if fifo {
        with_fifo_suffix(&mut decl.name);
        if let Some(dlq) = &mut decl.dead_letter {
            with_fifo_suffix(&mut dlq.target);
        }
    }
    Ok(decl)
}

/// Appends `.fifo` unless the name ends with it (exactly: ElasticMQ's rule).
fn with_fifo_suffix(name: &mut String) {
    if name.strip_suffix(".fifo").is_none() {
        name.push_str(".fifo");
    }
}

fn set(decl: &mut QueueDecl, name: &str, value: impl std::fmt::Display) {
    decl.attributes.insert(name.to_owned(), value.to_string());
}

fn dead_letters(src: &Source, entry: &Entry) -> Result<DeadLetter, ConfigError> {
    let (mut name, mut max) = (None, None);
    for e in &src.table(entry)?.entries {
        match e.key.as_str() {
            "name" => name = Some(src.string(e)?),
            "maxReceiveCount" => max = Some(src.integer(e)?),
            _ => return Err(src.unknown_key(e, "deadLettersQueue", &["name", "maxReceiveCount"])),
        }
    }
    match (name, max) {
        (Some(target), Some(max_receive_count)) => Ok(DeadLetter {
            target,
            max_receive_count,
        }),
        _ => Err(src.error(
            entry.line,
            "`deadLettersQueue` needs both `name` and `maxReceiveCount`",
        )),
    }
}

/// HOCON booleans: `true`/`false`, also `yes`/`no`/`on`/`off`, quoted or not.
fn boolean(src: &Source, e: &Entry) -> Result<bool, ConfigError> {
    match &e.node.value {
        Value::Bool(b) => Ok(*b),
        Value::Str(s) if matches!(s.as_str(), "true" | "yes" | "on") => Ok(true),
        Value::Str(s) if matches!(s.as_str(), "false" | "no" | "off") => Ok(false),
        _ => src.boolean(e),
    }
}

/// A HOCON duration in whole seconds: `10 seconds`, `5s`, `2 minutes`, or a bare number of
/// milliseconds (HOCON's rule for unitless durations).
fn seconds(src: &Source, e: &Entry) -> Result<u64, ConfigError> {
    let bad = |why: &str| src.error(e.node.line, format!("`{}` {why}", e.key));
    let (amount, unit) = match &e.node.value {
        Value::Int(ms) => (*ms, "ms"),
        Value::Str(s) => {
            let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
            let amount = s[..split]
                .parse()
                .map_err(|_| bad("must be a duration such as `10 seconds`"))?;
            (amount, s[split..].trim())
        }
        _ => return Err(bad("must be a duration such as `10 seconds`")),
    };
    let ms_per: i64 = match unit {
        "ms" | "milli" | "millis" | "millisecond" | "milliseconds" => 1,
        "s" | "second" | "seconds" => 1_000,
        "m" | "minute" | "minutes" => 60_000,
        "h" | "hour" | "hours" => 3_600_000,
        "d" | "day" | "days" => 86_400_000,
        _ => return Err(bad(&format!("has an unknown time unit `{unit}`"))),
    };
    let ms = amount
        .checked_mul(ms_per)
        .filter(|ms| *ms >= 0)
        .ok_or_else(|| bad("is out of range"))?;
    if ms % 1_000 != 0 {
        return Err(bad("must be a whole number of seconds, as in SQS"));
    }
    Ok((ms / 1_000) as u64)
}
