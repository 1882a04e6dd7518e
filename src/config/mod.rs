//! Server settings (where to listen, which region and account, how to mint URLs) and the
//! queues and topics to declare at startup, from flags, a `sqslite.toml` or an ElasticMQ `.conf`.

mod admin;
mod credentials;
mod elasticmq;
mod hocon;
mod render;
mod roles;
pub mod settings;
mod settings_flags;
mod settings_kind;
mod settings_values;
mod toml_file;
mod topics_file;
mod tree;
mod triggers;

use std::path::Path;

// The settings types of the modules `Config` holds, so an embedder can name them.
pub use crate::durable::FsyncPolicy;
pub use crate::faults::FaultSpec;
pub use crate::http::outbound::OutboundConfig;

/// The services a fault rule may aim at: their action names and error tables. (SQS, which
/// the other services stand on, knows nothing of the rules: the router applies them.)
pub(crate) const FAULT_TARGETS: crate::faults::Services = crate::faults::Services {
    sqs: crate::faults::Catalog {
        actions: crate::sqs::actions::Action::NAMES,
        knows_code: |code| crate::sqs::error::ErrorKind::from_name(code).is_some(),
    },
    sns: crate::sns::faults::FAULT_CATALOG,
};
pub use crate::http::auth::Credential;
pub use crate::http::context::UrlStyle;
pub use crate::http::guard::AccessConfig;
pub use crate::http::server::Limits;
pub use crate::observe::advisor::Thresholds;
pub use crate::observe::alarms::AlarmConfig;
pub use crate::s3::S3Config;
pub use crate::sqs::declare::{DeadLetter, QueueDecl, QueueTemplate};
pub use crate::sqs::engine::at_least_once::{DeliverySettings, Mode as DeliveryMode, Rates};
pub use crate::sts::engine::Role;
pub use crate::triggers::{Function, MappingDecl, Target, TriggersConfig};
pub(crate) use admin::from_json;
pub use admin::AdminConfig;
pub use tree::ConfigError;

/// Which clock the server runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClockKind {
    /// The system's wall clock (the default).
    #[default]
    System,
    /// Time stands still until advanced through the admin API or the embedding test.
    Manual,
}

/// Everything a server is started with: flags, `sqslite.toml` or an ElasticMQ file, or code.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to listen on (`127.0.0.1` by default).
    pub host: String,
    /// The port to listen on (9324 by default; 0 picks a free one).
    pub port: u16,
    /// The region of requests that name none and of declared queues (`us-east-1`).
    pub region: String,
    /// The 12-digit account of unsigned requests and declared queues (`000000000000`).
    pub account_id: String,
    /// Fixed base written into queue URLs (e.g. `http://sqs:9324`); wins over `url_style`.
    pub public_url: Option<String>,
    /// How queue URLs are minted when `public_url` is unset.
    pub url_style: UrlStyle,
    /// The system clock, or a manual one that only the admin API or a test moves.
    pub clock: ClockKind,
    /// Creates any queue on first use by SendMessage, ReceiveMessage or GetQueueUrl.
    pub auto_create: bool,
    /// How many queues the server holds; CreateQueue past it is OverLimit.
    pub max_queues: usize,
    /// SQS's 60-second guards: QueueDeletedRecently when a deleted queue's name is reused
    /// within 60 s, PurgeQueueInProgress for a second purge within 60 s. Off by default, since
    /// test suites create, purge and delete the same queue names many times a minute.
    pub strict: bool,
    /// Queues that exist before the first request is served, created in dependency order.
    pub queues: Vec<QueueDecl>,
    /// Queues whose name starts with a template's prefix are created on first use from it.
    pub templates: Vec<QueueTemplate>,
    /// SNS topics and their subscriptions that exist before the first request is served.
    pub topics: Vec<crate::sns::declare::TopicDecl>,
    /// The game-day admin API, startup fault rules and alarm thresholds.
    pub admin: AdminConfig,
    /// Admin token, allowed hosts and browser origins, the `/metrics` switch.
    pub access: crate::http::guard::AccessConfig,
    /// Header and idle timeouts, the connection cap and the shutdown deadline.
    pub connections: crate::http::server::Limits,
    /// Access keys for SigV4 authentication; empty means any signature is accepted.
    pub credentials: Vec<Credential>,
    /// `[[roles]]`: the IAM roles STS's AssumeRole may assume.
    pub roles: Vec<Role>,
    /// Where queues and messages are kept across restarts; `None`: memory only.
    pub data_dir: Option<std::path::PathBuf>,
    /// When the data directory's log reaches stable storage.
    pub fsync: crate::durable::FsyncPolicy,
    /// Start even though a data file is damaged: read around the damage, set the file aside
    /// and report what could not be recovered (`--repair`); off, such a file stops the start.
    pub repair: bool,
    /// `[advisor]`: the thresholds of the dead-letter advisor's rules.
    pub advisor: crate::observe::advisor::Thresholds,
    /// `[[functions]]` and `[[event_source_mappings]]`: Lambda-style triggers.
    pub triggers: crate::triggers::TriggersConfig,
    /// `[outbound]`: where SNS deliveries, functions and webhooks may connect.
    pub outbound: OutboundConfig,
    /// `max_topics`, `max_fifo_topics`, `max_subscriptions_per_topic` in `[server]`: SNS's
    /// quotas by default.
    pub sns_limits: crate::sns::engine::Limits,
    /// `s3_max_bytes` in `[server]`: what S3's in-memory storage holds.
    pub s3: S3Config,
    /// `[delivery]`: how standard queues deliver (exact, or at least once with a seed).
    pub delivery: DeliverySettings,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 9324,
            region: "us-east-1".into(),
            account_id: "000000000000".into(),
            public_url: None,
            url_style: UrlStyle::Host,
            clock: ClockKind::System,
            auto_create: false,
            max_queues: crate::sqs::engine::DEFAULT_MAX_QUEUES,
            strict: false,
            queues: Vec::new(),
            templates: Vec::new(),
            topics: Vec::new(),
            admin: AdminConfig::default(),
            access: crate::http::guard::AccessConfig::default(),
            connections: crate::http::server::Limits::default(),
            credentials: Vec::new(),
            roles: Vec::new(),
            data_dir: None,
            fsync: crate::durable::DEFAULT_FSYNC,
            repair: false,
            advisor: crate::observe::advisor::Thresholds::default(),
            triggers: crate::triggers::TriggersConfig::default(),
            outbound: OutboundConfig::default(),
            sns_limits: crate::sns::engine::Limits::default(),
            s3: S3Config::default(),
            delivery: DeliverySettings::default(),
        }
    }
}

impl Config {
    /// Listens on an ephemeral loopback port, as tests and embedders want.
    pub fn ephemeral() -> Self {
        Config {
            port: 0,
            ..Config::default()
        }
    }

    /// What a request's [`crate::http::Context`] falls back on and mints URLs from.
    pub(crate) fn defaults(&self) -> crate::http::context::Defaults<'_> {
        crate::http::context::Defaults {
            region: &self.region,
            account_id: &self.account_id,
            public_url: self.public_url.as_deref(),
            url_style: self.url_style,
        }
    }

    /// A server-wide `total` (`max_queues`, `max_subscriptions`, `max_event_source_mappings`),
    /// shared among [`Config::sharing_accounts`].
    pub(crate) fn quota(&self, total: usize) -> crate::quota::Quota {
        crate::quota::Quota::whole(total).among(self.sharing_accounts())
    }

    /// The queues to declare at startup and on first use, for [`crate::sqs::declare`].
    pub(crate) fn plan(&self) -> crate::sqs::declare::Plan<'_> {
        crate::sqs::declare::Plan {
            region: &self.region,
            account_id: &self.account_id,
            auto_create: self.auto_create,
            queues: &self.queues,
            templates: &self.templates,
        }
    }

    /// Adds a queue to create before the server starts serving.
    #[must_use]
    pub fn with_queue(mut self, queue: QueueDecl) -> Self {
        self.queues.push(queue);
        self
    }

    /// Adds an SNS topic (with its subscriptions) to create before the server starts serving.
    #[must_use]
    pub fn with_topic(mut self, topic: crate::sns::declare::TopicDecl) -> Self {
        self.topics.push(topic);
        self
    }

    /// How many accounts share the server: the distinct accounts of `[[credentials]]` and
    /// `[[roles]]`, 1 without credentials (every request is the default account's). Each
    /// gets an equal share of the server-wide bounds.
    pub fn sharing_accounts(&self) -> usize {
        if self.credentials.is_empty() {
            return 1;
        }
        let keys = self.credentials.iter().map(|c| c.account_id.as_str());
        let roles = self.roles.iter().map(|r| r.account_id.as_str());
        let accounts: std::collections::BTreeSet<&str> = keys.chain(roles).collect();
        accounts.len()
    }

    /// Requires every request to be signed with one of these keys (see [`Credential`]).
    #[must_use]
    pub fn with_credential(mut self, credential: Credential) -> Self {
        self.credentials.push(credential);
        self
    }

    /// Reads a `sqslite.toml` or an ElasticMQ `.conf` (by extension, else by content), as a
    /// [`Loaded`]: the configuration and the settings it did not carry over.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Loaded, ConfigError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: file.clone(),
            line: None,
            message: format!("cannot read the file: {e}"),
        })?;
        Config::from_text(&file, &text)
    }

    /// Parses config text into a [`Loaded`]; `file` names it in errors and picks the format
    /// by its extension.
    pub fn from_text(file: &str, text: &str) -> Result<Loaded, ConfigError> {
        if is_hocon(file, text) {
            elasticmq::load(file, text)
        } else {
            toml_file::load(file, text)
        }
    }

    /// Reads the `sqslite.toml` tables of a file that holds others too (a drill file), passing
    /// over the top-level keys in `others`.
    pub fn from_text_beside(
        file: &str,
        text: &str,
        others: &[&str],
    ) -> Result<Loaded, ConfigError> {
        toml_file::load_beside(file, text, others)
    }

    /// The effective configuration as a `sqslite.toml`, for `--print-config`: each secret (the
    /// admin token, a credential's secret key) as [`settings::HIDDEN`], which reading the text
    /// back refuses.
    pub fn to_toml(&self) -> String {
        render::to_toml(self, settings::Secrets::Hidden)
    }

    /// The same with the secrets as they are (`--print-config --with-secrets`): a working
    /// config file, to be kept as carefully as the secrets.
    pub fn to_toml_with_secrets(&self) -> String {
        render::to_toml(self, settings::Secrets::Shown)
    }
}

/// A parsed file: the configuration and what was read but not carried over.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The configuration read.
    pub config: Config,
    /// One line per setting read but not carried over (ElasticMQ keys sqslite ignores).
    pub warnings: Vec<String>,
}

fn is_hocon(file: &str, text: &str) -> bool {
    let ext = Path::new(file).extension().and_then(|e| e.to_str());
    match ext {
        Some("conf" | "hocon") => true,
        Some("toml") => false,
        // TOML never opens a block with `name {`; HOCON (ElasticMQ) always does.
        _ => text.lines().any(|l| {
            let l = l.trim();
            l.starts_with("include ") || (l.ends_with('{') && !l.contains('='))
        }),
    }
}

impl<'a> From<&'a Config> for crate::http::guard::Exposure<'a> {
    fn from(config: &'a Config) -> Self {
        crate::http::guard::Exposure {
            host: &config.host,
            public_url: config.public_url.as_deref(),
            access: &config.access,
            verified: !config.credentials.is_empty(),
        }
    }
}

/// The guide's table of the config file's tables names every key the readers accept.
#[cfg(test)]
mod documented_tests {
    /// Each table's keys, as the readers list them.
    const TABLES: &[(&str, &[&str])] = &[
        ("the file", super::toml_file::TOP_KEYS),
        ("[[queues]]", super::toml_file::QUEUE_KEYS),
        ("[[topics]]", super::topics_file::TOPIC_KEYS),
        (
            "[[topics.subscriptions]]",
            super::topics_file::SUBSCRIPTION_KEYS,
        ),
        ("[[functions]]", super::triggers::FUNCTION_KEYS),
        ("[[event_source_mappings]]", super::triggers::MAPPING_KEYS),
        ("[[credentials]]", super::credentials::KEYS),
        ("[[roles]]", super::roles::KEYS),
    ];

    /// A key added to a reader and not to docs/src/configuration.md fails here.
    #[test]
    fn every_file_key_is_in_the_configuration_reference() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/configuration.md");
        let page = std::fs::read_to_string(path).unwrap();
        let table = &page[page
            .find("## Every table of the file")
            .expect("the configuration page lists every table")..];
        for (name, keys) in TABLES {
            for key in *keys {
                let shown = [
                    format!("`{key}`"),
                    format!("`[{key}]`"),
                    format!("`[[{key}]]`"),
                ];
                assert!(
                    shown.iter().any(|s| table.contains(s.as_str())),
                    "{name}: `{key}` is missing from {path}'s table of the file"
                );
            }
        }
    }
}
