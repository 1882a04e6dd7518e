//! A `[[method]]` step as written: what it does and what it needs (the steps run in
//! `steps`, `upload`, `delivery`...).

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::bounds::{self as b, bounded, bounded_opt};

/// One step of the method.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// What it does: `send`, `publish`, `upload`, `fault`, `clear_faults`, `advance`,
    /// `wait`, `redrive`, `consumer`, `delivery`.
    pub action: Spanned<String>,
    /// Its name in the report and for `after` (default: the action and its position).
    #[serde(default)]
    pub name: Option<String>,
    /// `send`, `redrive`: the queue.
    #[serde(default)]
    pub queue: Option<Spanned<String>>,
    /// `publish`: the topic.
    #[serde(default)]
    pub topic: Option<Spanned<String>>,
    /// `upload`: the bucket.
    #[serde(default)]
    pub bucket: Option<Spanned<String>>,
    /// `upload`: what each key starts and ends with, around `{run}/{kind}/{seq}`.
    #[serde(default)]
    pub prefix: Option<String>,
    #[serde(default)]
    pub suffix: Option<String>,
    /// `send`, `publish`, `upload`: how many.
    #[serde(default = "one", deserialize_with = "bounded::<b::Count, _>")]
    pub count: u64,
    /// `send`, `publish`, `upload`: the body, with `{seq}` (0, 1, ...) and `{run}`.
    #[serde(default)]
    pub body: Option<String>,
    /// `send`, `publish`, `upload`: what the messages are called in probes (`valid` by default).
    #[serde(default)]
    pub kind: Option<String>,
    /// `send`: the FIFO group, with `{seq}` and `{run}`.
    #[serde(default)]
    pub group: Option<String>,
    /// `send`: the FIFO deduplication id (default: the run, step and sequence).
    #[serde(default)]
    pub dedup: Option<String>,
    /// `send`: DelaySeconds.
    #[serde(default, deserialize_with = "bounded_opt::<b::Delay, _>")]
    pub delay_seconds: Option<u64>,
    /// `send`, `publish`: string message attributes.
    #[serde(default)]
    pub attributes: BTreeMap<String, String>,
    /// `fault`: the rule, as the fault API takes it.
    #[serde(default)]
    pub rule: Option<toml::Value>,
    /// `fault`: for how long (server seconds); without it, until the rollback.
    /// `advance`, `wait`: how long.
    #[serde(default, deserialize_with = "bounded_opt::<b::StepTime, _>")]
    pub seconds: Option<u64>,
    /// `redrive`: where to (default: the queue's source).
    #[serde(default)]
    pub destination: Option<Spanned<String>>,
    /// `consumer`: the sample consumer's new rule (the "fix").
    #[serde(default)]
    pub consumer_rule: Option<Spanned<String>>,
    /// `delivery`: `exact` or `at-least-once`, server-wide or, with `queue`, that queue's.
    #[serde(default)]
    pub mode: Option<Spanned<String>>,
    /// `delivery`: the seed of its decisions.
    #[serde(default)]
    pub seed: Option<u64>,
    /// `delivery`: rates by name (`duplicate`, `reorder`, ...), each from 0 to 1.
    #[serde(default)]
    pub rates: Option<Spanned<BTreeMap<String, f64>>>,
}

/// `count`'s default.
fn one() -> u64 {
    1
}
