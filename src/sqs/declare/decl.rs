//! Queue declarations, the settings [`super`] creates queues from; the configuration
//! loads them from `[[queues]]` and `[[templates]]` (or ElasticMQ's `queues { }`).

use std::collections::BTreeMap;

/// What the configuration declares, as [`super::declare_all`] and [`super::on_first_use`] read it.
#[derive(Debug, Clone, Copy)]
pub struct Plan<'a> {
    /// The region and account of a declaration that names neither.
    pub region: &'a str,
    pub account_id: &'a str,
    /// Creates any queue on first use by SendMessage, ReceiveMessage or GetQueueUrl.
    pub auto_create: bool,
    /// Created before the first request is served, in dependency order.
    pub queues: &'a [QueueDecl],
    /// Queues whose name starts with a template's prefix are created on first use from it.
    pub templates: &'a [QueueTemplate],
}

/// A queue to create at startup, with SQS attribute names and string values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueueDecl {
    /// The queue's name (`.fifo` for a FIFO queue).
    pub name: String,
    /// Defaults to the server's region and account.
    pub region: Option<String>,
    /// The owning account; defaults to the server's.
    pub account_id: Option<String>,
    /// CreateQueue attributes by SQS's names, e.g. `VisibilityTimeout` = `"60"`.
    pub attributes: BTreeMap<String, String>,
    /// The queue's tags, key to value.
    pub tags: BTreeMap<String, String>,
    /// A RedrivePolicy written as its two parts.
    pub dead_letter: Option<DeadLetter>,
    /// Where it was declared (`file:line`), to point errors at it.
    pub origin: Option<String>,
    /// Its own delivery mode (`delivery = "at-least-once"`); `None`: the server's.
    pub delivery: Option<crate::sqs::engine::at_least_once::Mode>,
}

/// Dead-letter wiring: `target` is a queue name (same region and account) or an ARN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLetter {
    /// The dead-letter queue: a name or an ARN.
    pub target: String,
    /// Receives after which a message moves there (RedrivePolicy's maxReceiveCount).
    pub max_receive_count: u32,
}

impl QueueDecl {
    /// A queue named `name` with SQS's default attributes.
    pub fn new(name: impl Into<String>) -> Self {
        QueueDecl {
            name: name.into(),
            ..QueueDecl::default()
        }
    }

    /// Sets an attribute by its SQS name, e.g. `("VisibilityTimeout", "60")`.
    #[must_use]
    pub fn attribute(mut self, name: impl Into<String>, value: impl std::fmt::Display) -> Self {
        self.attributes.insert(name.into(), value.to_string());
        self
    }

    /// Adds a tag.
    #[must_use]
    pub fn tag(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.tags.insert(key.into(), value.into());
        self
    }

    /// Delivers in this mode whatever the server's (a standard queue only).
    #[must_use]
    pub fn delivery(mut self, mode: crate::sqs::engine::at_least_once::Mode) -> Self {
        self.delivery = Some(mode);
        self
    }

    /// Moves messages to `target` (a queue name or ARN) after `max_receive_count` receives.
    #[must_use]
    pub fn dead_letter(mut self, target: impl Into<String>, max_receive_count: u32) -> Self {
        self.dead_letter = Some(DeadLetter {
            target: target.into(),
            max_receive_count,
        });
        self
    }
}

/// Settings for queues created on first use whose name starts with `prefix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueTemplate {
    /// Names that start with this use the template.
    pub prefix: String,
    /// Attributes, tags and dead-letter wiring; its `name` is unused.
    pub queue: QueueDecl,
}
