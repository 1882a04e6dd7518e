//! Every scalar setting of `[server]` and `[outbound]`, written once: its key in the file,
//! its flag and environment variable, what it holds, its help, how it is set and how it is
//! printed back. The file reader, `--print-config`, the command line and the configuration
//! reference are all read from [`SETTINGS`], so a key cannot exist in one and not the others.

use super::tree::Value;
use super::Config;

pub use super::settings_kind::{Kind, Section};

/// A setting's value set into a configuration; the error says what is wrong with it.
type Apply = fn(&mut Config, &Value) -> Result<(), String>;
/// A setting's value as printed back, or none when there is nothing to print.
type Show = fn(&Config) -> Option<toml::Value>;

/// One setting.
#[derive(Clone, Copy)]
pub struct Setting {
    /// The table it is written in.
    pub section: Section,
    /// Its key in that table.
    pub key: &'static str,
    /// Its long flag, without the dashes.
    pub flag: Option<&'static str>,
    /// Its environment variable.
    pub env: Option<&'static str>,
    /// What it holds.
    pub kind: Kind,
    /// What it does, one sentence or two.
    pub help: &'static str,
    /// The default as words, when the printed default depends on the machine.
    pub default_text: Option<&'static str>,
    /// Printed as [`HIDDEN`] unless `--with-secrets`, its environment value not shown in
    /// `--help`.
    pub secret: bool,
    /// Sets it.
    pub apply: Apply,
    /// Reads it back.
    pub show: Show,
}

impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}] {}", self.section.name(), self.key)
    }
}

impl Setting {
    /// A `[server]` setting with the flag `--key-with-dashes` and no variable yet.
    const fn server(key: &'static str, kind: Kind, help: &'static str) -> Setting {
        Setting {
            section: Section::Server,
            key,
            flag: None,
            env: None,
            kind,
            help,
            default_text: None,
            secret: false,
            apply: |_, _| Ok(()),
            show: |_| None,
        }
    }

    /// The same, in `[outbound]`.
    const fn outbound(key: &'static str, kind: Kind, help: &'static str) -> Setting {
        Setting {
            section: Section::Outbound,
            ..Setting::server(key, kind, help)
        }
    }

    /// The same, in `[delivery]`.
    const fn delivery(key: &'static str, kind: Kind, help: &'static str) -> Setting {
        Setting {
            section: Section::Delivery,
            ..Setting::server(key, kind, help)
        }
    }

    /// A rate of at-least-once delivery in `[delivery]`, its flag and variable named after it
    /// (`duplicate`: `--delivery-duplicate`, `SQSLITE_DELIVERY_DUPLICATE`).
    const fn rate(key: &'static str, help: &'static str) -> Setting {
        let (flag, env) = match key.as_bytes() {
            b"duplicate" => ("delivery-duplicate", "SQSLITE_DELIVERY_DUPLICATE"),
            b"reorder" => ("delivery-reorder", "SQSLITE_DELIVERY_REORDER"),
            b"early_visibility" => (
                "delivery-early-visibility",
                "SQSLITE_DELIVERY_EARLY_VISIBILITY",
            ),
            _ => (
                "delivery-approximate-counts",
                "SQSLITE_DELIVERY_APPROXIMATE_COUNTS",
            ),
        };
        Setting::delivery(key, Kind::Rate, help).cli(flag, env)
    }

    /// A setting of the command line alone.
    const fn command(key: &'static str, kind: Kind, help: &'static str) -> Setting {
        Setting {
            section: Section::Command,
            ..Setting::server(key, kind, help)
        }
    }

    /// With this flag and environment variable.
    const fn cli(self, flag: &'static str, env: &'static str) -> Setting {
        Setting {
            flag: Some(flag),
            env: Some(env),
            ..self
        }
    }

    /// With a flag and no environment variable.
    const fn flag_only(self, flag: &'static str) -> Setting {
        Setting {
            flag: Some(flag),
            ..self
        }
    }

    /// With an environment variable and no flag.
    const fn env_only(self, env: &'static str) -> Setting {
        Setting {
            env: Some(env),
            ..self
        }
    }

    /// Set and read back by these.
    const fn via(self, apply: Apply, show: Show) -> Setting {
        Setting {
            apply,
            show,
            ..self
        }
    }

    /// With its default in words.
    const fn default_is(self, text: &'static str) -> Setting {
        Setting {
            default_text: Some(text),
            ..self
        }
    }

    /// Printed as [`HIDDEN`] unless asked.
    const fn secret(self) -> Setting {
        Setting {
            secret: true,
            ..self
        }
    }

    /// Its default as the reference shows it.
    pub fn default_shown(&self) -> Option<String> {
        if let Some(text) = self.default_text {
            return Some(text.to_owned());
        }
        (self.show)(&Config::default()).map(|v| match v {
            toml::Value::String(s) => format!("`{s}`"),
            other => format!("`{other}`"),
        })
    }
}

/// The setting written as `key` in `section`.
pub fn find(section: Section, key: &str) -> Option<&'static Setting> {
    SETTINGS
        .iter()
        .find(|s| s.section == section && s.key == key)
}

/// The keys of one table, for "unknown key" suggestions.
pub fn keys(section: Section) -> Vec<&'static str> {
    SETTINGS
        .iter()
        .filter(|s| s.section == section)
        .map(|s| s.key)
        .collect()
}

/// What `--print-config` writes in place of a secret. Read back, it is refused by name, so a
/// printed file never runs with the placeholder as its secret.
pub const HIDDEN: &str = "<hidden: --print-config --with-secrets shows it>";

/// Whether `--print-config` writes secrets as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secrets {
    /// As [`HIDDEN`]: the default, so a printed configuration can be pasted into an issue.
    Hidden,
    /// As they are (`--with-secrets`), so the output is a working config file.
    Shown,
}

impl Secrets {
    /// `secret` as printed.
    pub fn show(self, secret: &str) -> String {
        match self {
            Secrets::Hidden => HIDDEN.to_owned(),
            Secrets::Shown => secret.to_owned(),
        }
    }
}

/// The table of one section as `--print-config` writes it.
pub fn render(section: Section, config: &Config, secrets: Secrets) -> toml::Table {
    let shown = |s: &Setting, v: toml::Value| match (s.secret, v) {
        (true, toml::Value::String(text)) => secrets.show(&text).into(),
        (_, v) => v,
    };
    SETTINGS
        .iter()
        .filter(|s| s.section == section)
        .filter_map(|s| Some((s.key.to_owned(), shown(s, (s.show)(config)?))))
        .collect()
}

/// Every setting, in the order the reference lists them. One row per setting, kept on its
/// lines so the table reads as one.
#[rustfmt::skip]
pub static SETTINGS: &[Setting] = &[
    Setting::command("config", Kind::Path, "Config file: a sqslite.toml, or an ElasticMQ elasticmq.conf (by .conf or content).")
        .cli("config", "SQSLITE_CONFIG")
        .default_is("none"),
    Setting::command("print-config", Kind::Flag, "Print the effective configuration as sqslite.toml and exit.")
        .flag_only("print-config"),
    Setting::command("with-secrets", Kind::Flag, "With --print-config: print secrets (admin token, credentials' secret keys) as they are, not as a placeholder.")
        .flag_only("with-secrets"),
    Setting::command("log-format", Kind::Choice(&["text", "json"]), "Log line format.")
        .cli("log-format", "SQSLITE_LOG_FORMAT")
        .default_is("`text`"),
    Setting::command("log", Kind::Text, "Log filter: `target=level` directives, e.g. `warn,sqslite=debug`.")
        .env_only("SQSLITE_LOG")
        .default_is("`info`"),
    Setting::command("no-admin", Kind::Flag, "Serve no admin API (`/_sqslite/...`, `/_aws/sqs/...`), nor `/metrics` unless --metrics on.")
        .cli("no-admin", "SQSLITE_NO_ADMIN")
        .via(|c, v| set(&mut c.admin.enabled, boolean(v).map(|off| !off)), |_| None)
        .default_is("`false`"),
    Setting::server("host", Kind::Text, "Address to listen on; use 0.0.0.0 inside a container.")
        .cli("host", "SQSLITE_HOST")
        .via(|c, v| set(&mut c.host, text(v)), |c| Some(c.host.clone().into())),
    Setting::server("port", Kind::Integer, "Port to listen on; 0 picks a free one and logs it.")
        .cli("port", "SQSLITE_PORT")
        .via(|c, v| set(&mut c.port, integer(v)), |c| Some(i64::from(c.port).into())),
    Setting::server("region", Kind::Text, "Region assumed when a request's signature names none, and of declared queues and topics.")
        .cli("region", "SQSLITE_REGION")
        .via(|c, v| set(&mut c.region, text(v)), |c| Some(c.region.clone().into())),
    Setting::server("account_id", Kind::Text, "Account assumed when the access key id is not 12 digits, and of declared queues and topics.")
        .cli("account-id", "SQSLITE_ACCOUNT_ID")
        .via(|c, v| set(&mut c.account_id, text(v)), |c| Some(c.account_id.clone().into())),
    Setting::server("public_url", Kind::Text, "Fixed base of queue URLs and of SNS's links (e.g. http://sqs:9324); wins over url_style.")
        .cli("public-url", "SQSLITE_PUBLIC_URL")
        .via(|c, v| set(&mut c.public_url, text(v).map(Some)), |c| c.public_url.clone().map(Into::into))
        .default_is("none: from the listening address"),
    Setting::server("url_style", Kind::Choice(&["host", "path", "region"]), "Queue URLs from the request's Host header, path-only (/<account>/<name>), or regional (http://sqs.<region>.<Host>/<account>/<name>).")
        .cli("url-style", "SQSLITE_URL_STYLE")
        .via(|c, v| set(&mut c.url_style, url_style(v)), |c| Some(url_style_name(c.url_style).into())),
    Setting::server("clock", Kind::Choice(&["system", "manual"]), "`manual` freezes time until it is advanced through the admin API.")
        .cli("clock", "SQSLITE_CLOCK")
        .via(|c, v| set(&mut c.clock, clock(v)), |c| Some(clock_name(c.clock).into())),
    Setting::server("auto_create", Kind::Flag, "Create queues on first use by SendMessage(Batch), ReceiveMessage or GetQueueUrl.")
        .cli("auto-create", "SQSLITE_AUTO_CREATE")
        .via(|c, v| set(&mut c.auto_create, boolean(v)), |c| Some(c.auto_create.into())),
    Setting::server("max_queues", Kind::Integer, "How many queues the server holds; with [[credentials]] declared, each account at most its share, this divided by the accounts of [[credentials]] and [[roles]]. CreateQueue past either is OverLimit.")
        .cli("max-queues", "SQSLITE_MAX_QUEUES")
        .via(|c, v| set(&mut c.max_queues, integer(v)), |c| Some(count(c.max_queues))),
    Setting::server("max_topics", Kind::Integer, "Standard SNS topics per account; CreateTopic past it is TopicLimitExceeded.")
        .cli("max-topics", "SQSLITE_MAX_TOPICS")
        .via(|c, v| set(&mut c.sns_limits.topics, integer(v)), |c| Some(count(c.sns_limits.topics))),
    Setting::server("max_fifo_topics", Kind::Integer, "FIFO SNS topics per account.")
        .cli("max-fifo-topics", "SQSLITE_MAX_FIFO_TOPICS")
        .via(|c, v| set(&mut c.sns_limits.fifo_topics, integer(v)), |c| Some(count(c.sns_limits.fifo_topics))),
    Setting::server("max_subscriptions_per_topic", Kind::Integer, "Subscriptions per SNS topic; Subscribe past it is SubscriptionLimitExceeded.")
        .cli("max-subscriptions-per-topic", "SQSLITE_MAX_SUBSCRIPTIONS_PER_TOPIC")
        .via(|c, v| set(&mut c.sns_limits.subscriptions_per_topic, integer(v)), |c| Some(count(c.sns_limits.subscriptions_per_topic))),
    Setting::server("max_subscriptions", Kind::Integer, "SNS subscriptions of all topics the server holds, each account at most its share as with max_queues; Subscribe past either is SubscriptionLimitExceeded (SNS documents only the per-topic quota: sqslite's bound).")
        .cli("max-subscriptions", "SQSLITE_MAX_SUBSCRIPTIONS")
        .via(|c, v| set(&mut c.sns_limits.subscriptions, integer(v)), |c| Some(count(c.sns_limits.subscriptions))),
    Setting::server("max_event_source_mappings", Kind::Integer, "Event source mappings the server holds, each account at most its share as with max_queues; CreateEventSourceMapping past either is InvalidParameterValueException (Lambda documents no quota: sqslite's bound).")
        .cli("max-event-source-mappings", "SQSLITE_MAX_EVENT_SOURCE_MAPPINGS")
        .via(|c, v| set(&mut c.triggers.max_mappings, integer(v).map(Some)), |c| c.triggers.max_mappings.map(count))
        .default_is("`10000`"),
    Setting::server("strict", Kind::Flag, "AWS's behaviour where sqslite's default favours tests: SQS's 60-second guards (QueueDeletedRecently, PurgeQueueInProgress) and SNS's Policy rules into same-account queues.")
        .cli("strict", "SQSLITE_STRICT")
        .via(|c, v| set(&mut c.strict, boolean(v)), |c| Some(c.strict.into())),
    Setting::server("data_dir", Kind::Path, "Keep queues, messages, topics, mappings and S3 buckets and objects in this directory across restarts.")
        .cli("data-dir", "SQSLITE_DATA_DIR")
        .via(|c, v| set(&mut c.data_dir, text::<String>(v).map(|p| Some(p.into()))), |c| c.data_dir.as_ref().map(|p| p.display().to_string().into()))
        .default_is("none: memory only"),
    Setting::server("fsync", Kind::Text, "When the data directory's log is synced: `always`, `interval=<ms>` or `never`.")
        .cli("fsync", "SQSLITE_FSYNC")
        .via(|c, v| set(&mut c.fsync, text::<String>(v).and_then(|t| t.parse())), |c| Some(c.fsync.to_string().into())),
    // Not printed: a repair is asked for once, after a damage, not kept in a config file.
    Setting::server("repair", Kind::Flag, "Start even though a data file is damaged: read around the damage, keep the damaged file under another name and report what could not be recovered. Once, not always.")
        .cli("repair", "SQSLITE_REPAIR")
        .via(|c, v| set(&mut c.repair, boolean(v)), |_| None),
    Setting::server("admin_token", Kind::Text, "Bearer token the admin API and /metrics require; needed beyond loopback.")
        .cli("admin-token", "SQSLITE_ADMIN_TOKEN")
        .via(|c, v| set(&mut c.access.admin_token, secret(v).map(Some)), |c| c.access.admin_token.clone().map(Into::into))
        .default_is("none")
        .secret(),
    Setting::server("admin_require_token", Kind::Flag, "Refuse to start without admin_token, so the admin API always needs it (loopback too).")
        .cli("admin-require-token", "SQSLITE_ADMIN_REQUIRE_TOKEN")
        .via(|c, v| set(&mut c.access.require_admin_token, boolean(v)), |c| Some(c.access.require_admin_token.into())),
    Setting::server("allow_hosts", Kind::List, "More Host names a loopback server answers to (DNS rebinding): on every route without [[credentials]], on the admin API without a token.")
        .cli("allow-host", "SQSLITE_ALLOW_HOST")
        .via(|c, v| extend(&mut c.access.allow_hosts, v), |c| Some(c.access.allow_hosts.clone().into())),
    Setting::server("allow_origins", Kind::List, "Browser origins allowed to call the SQS and SNS APIs, e.g. http://localhost:3000 or *; not the admin API.")
        .cli("allow-origin", "SQSLITE_ALLOW_ORIGIN")
        .via(|c, v| extend(&mut c.access.allow_origins, v), |c| Some(c.access.allow_origins.clone().into())),
    Setting::server("admin_allow_origins", Kind::List, "Browser origins allowed to call the admin API and /metrics.")
        .cli("admin-allow-origin", "SQSLITE_ADMIN_ALLOW_ORIGIN")
        .via(|c, v| extend(&mut c.access.admin_origins, v), |c| Some(c.access.admin_origins.clone().into())),
    Setting::server("metrics", Kind::Switch, "Serve /metrics.")
        .cli("metrics", "SQSLITE_METRICS")
        .via(|c, v| set(&mut c.access.metrics, boolean(v).map(Some)), |c| c.access.metrics.map(Into::into))
        .default_is("on, unless --no-admin"),
    Setting::server("header_timeout_seconds", Kind::Seconds, "A request's headers must arrive within this many seconds.")
        .cli("header-timeout", "SQSLITE_HEADER_TIMEOUT")
        .via(|c, v| set(&mut c.connections.header_timeout, seconds(v)), |c| Some(secs(c.connections.header_timeout))),
    Setting::server("idle_timeout_seconds", Kind::Seconds, "Idle keep-alive connections close after this many seconds.")
        .cli("idle-timeout", "SQSLITE_IDLE_TIMEOUT")
        .via(|c, v| set(&mut c.connections.idle_timeout, seconds(v)), |c| Some(secs(c.connections.idle_timeout))),
    Setting::server("max_connections", Kind::Integer, "Connections served at once; more wait.")
        .cli("max-connections", "SQSLITE_MAX_CONNECTIONS")
        .via(|c, v| set(&mut c.connections.max_connections, positive(v).map(Some)), |c| Some(count(c.connections.max_connections.unwrap_or_else(crate::http::server::default_max_connections))))
        .default_is("from the open-file limit"),
    Setting::server("shutdown_timeout_seconds", Kind::Seconds, "On SIGTERM, requests in flight may finish for this many seconds.")
        .cli("shutdown-timeout", "SQSLITE_SHUTDOWN_TIMEOUT")
        .via(|c, v| set(&mut c.connections.shutdown_timeout, seconds(v)), |c| Some(secs(c.connections.shutdown_timeout))),
    Setting::outbound("allow", Kind::List, "Destinations outbound requests may reach: hosts, addresses, CIDRs, each with an optional :port, or *:PORT; with any, only these, past the default refusals.")
        .cli("outbound-allow", "SQSLITE_OUTBOUND_ALLOW")
        .via(|c, v| extend(&mut c.outbound.allow, v), |c| listed(&c.outbound.allow))
        .default_is("none: everything but the default refusals"),
    Setting::outbound("deny", Kind::List, "Destinations outbound requests may not reach, besides the default refusals.")
        .cli("outbound-deny", "SQSLITE_OUTBOUND_DENY")
        .via(|c, v| extend(&mut c.outbound.deny, v), |c| listed(&c.outbound.deny))
        .default_is("none"),
    Setting::outbound("ca_file", Kind::Path, "A PEM file of CA certificates https subscribers, functions and webhooks are verified against, besides the system's roots (mkcert's, a compose service's own CA).")
        .cli("outbound-ca-file", "SQSLITE_OUTBOUND_CA_FILE")
        .via(|c, v| set(&mut c.outbound.ca_file, text::<String>(v).map(|p| Some(p.into()))), |c| c.outbound.ca_file.as_ref().map(|p| p.display().to_string().into()))
        .default_is("none"),
    Setting::outbound("insecure", Kind::Flag, "Accept any https certificate on outbound requests (logged at start).")
        .cli("outbound-insecure", "SQSLITE_OUTBOUND_INSECURE")
        .via(|c, v| set(&mut c.outbound.insecure, boolean(v)), |c| c.outbound.insecure.then_some(true.into()))
        .default_is("`false`"),
    Setting::server("s3_max_bytes", Kind::Integer, "Bytes of S3 object data held (objects and multipart parts; with --data-dir, their files); a PUT or part past it is EntityTooLarge.")
        .cli("s3-max-bytes", "SQSLITE_S3_MAX_BYTES")
        .via(|c, v| set(&mut c.s3.max_bytes, integer(v)), |c| Some(i64::try_from(c.s3.max_bytes).unwrap_or(i64::MAX).into())),
    Setting::delivery("mode", Kind::Choice(crate::sqs::engine::at_least_once::Mode::WORDS), "How standard queues deliver: `exact` (in order, never twice, exact counts) or `at-least-once` (as AWS: duplicates, best-effort order, visibility that ends early, approximate counts, at the rates below). FIFO queues stay exact.")
        .cli("delivery", "SQSLITE_DELIVERY")
        .via(|c, v| set(&mut c.delivery.mode, text::<String>(v).and_then(|w| Mode::parse(&w))), |c| Some(c.delivery.mode.as_str().into())),
    Setting::delivery("seed", Kind::Integer, "Seeds at-least-once delivery's decisions: the same seed and the same requests give the same run.")
        .cli("delivery-seed", "SQSLITE_DELIVERY_SEED")
        .via(|c, v| set(&mut c.delivery.seed, integer(v)), |c| Some(i64::try_from(c.delivery.seed).unwrap_or(i64::MAX).into())),
    Setting::rate("duplicate", "How often a deleted message comes back once more, with a new receipt handle.")
        .via(|c, v| set(&mut c.delivery.rates.duplicate, probability(v)), |c| Some(c.delivery.rates.duplicate.into())),
    Setting::rate("reorder", "How often a receive passes over a visible message, so a later one comes first.")
        .via(|c, v| set(&mut c.delivery.rates.reorder, probability(v)), |c| Some(c.delivery.rates.reorder.into())),
    Setting::rate("early_visibility", "How often a receive hides its message for only part of the visibility timeout, so it comes back while its receiver still works on it.")
        .via(|c, v| set(&mut c.delivery.rates.early_visibility, probability(v)), |c| Some(c.delivery.rates.early_visibility.into())),
    Setting::rate("approximate_counts", "How often an ApproximateNumberOfMessages* read is off by a little (up to a tenth, at least one).")
        .via(|c, v| set(&mut c.delivery.rates.approximate_counts, probability(v)), |c| Some(c.delivery.rates.approximate_counts.into())),
];

use super::settings_values::{
    boolean, clock, clock_name, count, extend, integer, listed, positive, probability, seconds,
    secret, secs, set, text, url_style, url_style_name,
};
use crate::sqs::engine::at_least_once::Mode;

pub use super::settings_flags::{apply_args, args, from_flag, reference};

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
