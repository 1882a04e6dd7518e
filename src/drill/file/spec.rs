//! A drill file as written: `[drill]`, what it needs, its consumer, the steady state, the
//! method, the expectations and the rollback, beside the `sqslite.toml` tables (`[[queues]]`,
//! `[[topics]]`, `[alarms]` ...) that `--serve` declares. Unknown keys, and numbers past their bounds
//! (`bounds`), are refused by serde with the file's line and column.

use serde::Deserialize;
use toml::Spanned;

use super::bounds::{self as b, bounded, bounded_opt, finite_opt};
pub use super::step_spec::Step;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrillFile {
    /// `[drill]`: its name and how it runs.
    pub drill: Meta,
    /// `[requires]`: names that must already exist on the target server.
    #[serde(default)]
    pub requires: Requires,
    /// `[consumer]`: the consumer under test, unless `--consumer` names one.
    #[serde(default)]
    pub consumer: Option<ConsumerSpec>,
    /// `[[steady_state]]`: probes that hold before the method and after it.
    #[serde(default)]
    pub steady_state: Vec<Spanned<Probe>>,
    /// `[[method]]`: the steps, in order.
    #[serde(default)]
    pub method: Vec<Spanned<Step>>,
    /// `[[buckets]]`: S3 buckets created before the method, with their notifications.
    #[serde(default)]
    pub buckets: Vec<Spanned<super::buckets::BucketSpec>>,
    /// `[[expect]]`: what must happen, with budgets on the server's clock.
    #[serde(default)]
    pub expect: Vec<Spanned<Expectation>>,
    /// `[rollback]`: what is undone at the end.
    #[serde(default)]
    pub rollback: Rollback,
    /// `sqslite.toml`'s tables, read by the config loader (line numbers kept): declared on
    /// a `--serve` server, and the queues also created on an `--endpoint` one.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub queues: Vec<toml::Value>,
    /// As in `sqslite.toml`.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub templates: Vec<toml::Value>,
    /// As in `sqslite.toml`.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub topics: Vec<toml::Value>,
    /// As in `sqslite.toml`: the alarms of a `--serve` server.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub alarms: Option<toml::Value>,
    /// As in `sqslite.toml`.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub advisor: Option<toml::Value>,
    /// As in `sqslite.toml`.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub functions: Vec<toml::Value>,
    /// As in `sqslite.toml`: the delivery mode of a `--serve` server.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub delivery: Option<toml::Value>,
    /// As in `sqslite.toml`.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub event_source_mappings: Vec<toml::Value>,
}

/// The top-level keys the config loader reads; the others are the drill's.
pub const DRILL_KEYS: &[&str] = &[
    "drill",
    "requires",
    "consumer",
    "steady_state",
    "method",
    "expect",
    "rollback",
    "buckets",
];

/// `[drill]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// What the drill is called in its report and JUnit suite.
    pub name: String,
    /// What it rehearses, for the report.
    #[serde(default)]
    pub description: String,
    /// The clock of a `--serve` server: `manual` (the default: the drill moves time, so a
    /// drill of minutes runs in seconds) or `system`.
    #[serde(default)]
    pub clock: Option<Spanned<String>>,
    /// Wall-clock seconds after which the drill gives up.
    #[serde(
        default = "default_timeout",
        deserialize_with = "bounded::<b::Timeout, _>"
    )]
    pub timeout_seconds: u64,
    /// Wall-clock milliseconds between looks at the server.
    #[serde(default = "default_look", deserialize_with = "bounded::<b::LookMs, _>")]
    pub look_ms: u64,
    /// On a manual clock, server seconds the drill moves per look while it waits.
    #[serde(
        default = "default_step",
        deserialize_with = "bounded::<b::StepSeconds, _>"
    )]
    pub step_seconds: u64,
}

impl Meta {
    /// Whether the drill asks for the system clock (`clock = "system"`).
    pub fn system_clock(&self) -> bool {
        self.clock.as_ref().is_some_and(|k| k.get_ref() == "system")
    }
}

/// 10 minutes of wall time.
fn default_timeout() -> u64 {
    600
}

/// A look every 50 ms.
fn default_look() -> u64 {
    50
}

/// One server second per look.
fn default_step() -> u64 {
    1
}

/// `[requires]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Requires {
    /// Queue names that must exist.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub queues: Vec<Spanned<String>>,
    /// Topic names that must exist.
    #[allow(dead_code)] // read by the config loader; named so unknown keys are refused
    #[serde(default)]
    pub topics: Vec<Spanned<String>>,
}

/// `[consumer]`: a command of the team's, or sqslite's sample consumer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerSpec {
    /// A command line, run with `sh -c`; its environment names the endpoint and queue URLs.
    #[serde(default)]
    pub command: Option<String>,
    /// The sample consumer on these queues.
    #[serde(default)]
    pub sample: Option<SampleSpec>,
    /// A queue some consumer must poll (receive from, even emptily) within
    /// `must_poll_within_seconds` of the method's start; if none does, the drill stops there:
    /// without a consumer nothing can change.
    #[serde(default)]
    pub must_poll: Option<Spanned<String>>,
    /// See `must_poll` (30 s by default).
    #[serde(
        default = "default_poll_within",
        deserialize_with = "bounded::<b::PollWithin, _>"
    )]
    pub must_poll_within_seconds: u64,
    /// Wall seconds the drill waits for the consumer it started to poll one of its queues
    /// before anything else happens: a consumer takes a moment to start, and a manual clock
    /// moved meanwhile spends budgets the consumer never had.
    #[serde(
        default = "default_first_poll",
        deserialize_with = "bounded::<b::FirstPoll, _>"
    )]
    pub first_poll_within_seconds: u64,
    /// What happens when `first_poll_within_seconds` passes with no poll: `stop` (the
    /// default: the drill cannot run, exit 2, nothing sent) or `start` (the method starts
    /// anyway, and the verdict shows what a consumer that is not there does).
    #[serde(default)]
    pub if_no_first_poll: Option<Spanned<String>>,
}

impl ConsumerSpec {
    /// Whether the drill starts its method when the consumer has not polled in time.
    pub fn start_without_first_poll(&self) -> bool {
        self.if_no_first_poll
            .as_ref()
            .is_some_and(|k| k.get_ref() == "start")
    }
}

/// 30 wall seconds: a JVM or a Python consumer with its imports starts well within it.
pub fn default_first_poll() -> u64 {
    30
}

/// 30 server seconds.
fn default_poll_within() -> u64 {
    30
}

/// The sample consumer's settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleSpec {
    /// The queues it reads.
    pub queues: Vec<Spanned<String>>,
    /// Its rule: `json` (deletes JSON bodies, fails on others), `all`, `none` (fails every
    /// message: a downstream outage) or `never-delete` (receives, never deletes: a stall).
    #[serde(default = "default_rule")]
    pub rule: Spanned<String>,
    /// On a failure, re-send the message here with `retry_delay_seconds` and delete it
    /// (a retry queue with backoff) instead of leaving it to come back.
    #[serde(default)]
    pub retry_queue: Option<Spanned<String>>,
    /// The DelaySeconds of a re-sent message.
    #[serde(default, deserialize_with = "bounded::<b::RetryDelay, _>")]
    pub retry_delay_seconds: u64,
}

/// The sample consumer's default rule.
fn default_rule() -> Spanned<String> {
    Spanned::new(0..0, "json".to_owned())
}

/// A steady-state probe (`[[steady_state]]`: a measure and its tolerance) or an expectation
/// (`[[expect]]`: a probe, or a message-level subject, with a budget): one shape, so that a
/// probe is written the same way in both.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// Its name in the verdict (an expectation needs one; a steady-state probe is named
    /// for what it reads if not).
    #[serde(default)]
    pub name: Option<String>,
    /// What is measured (`probe`): `depth`, `visible`, `in_flight`, `oldest_age`, `deletes`,
    /// `alarm`, `fault_hits`, `processed_more_than_once` (`check::PROBES`).
    #[serde(default, rename = "probe")]
    pub measure: Option<Spanned<String>>,
    /// The queue it is measured on, or where `dead_lettered` messages must arrive.
    #[serde(default)]
    pub queue: Option<Spanned<String>>,
    /// `depth` of this run's messages of this kind only (`*`: any of this run's).
    #[serde(default)]
    pub kind: Option<String>,
    /// `depth` of one FIFO message group only.
    #[serde(default)]
    pub group: Option<String>,
    /// `alarm`: its kind (`dlq_depth`, `stall`, `oldest_message_age`, `receive_count`).
    #[serde(default)]
    pub alarm: Option<String>,
    /// `alarm`: `ALARM` or `OK`.
    #[serde(default)]
    pub state: Option<String>,
    /// `deletes`: over how many server seconds.
    #[serde(default, deserialize_with = "bounded_opt::<b::Interval, _>")]
    pub interval_seconds: Option<u64>,
    /// The least the value may be.
    #[serde(default, deserialize_with = "finite_opt")]
    pub min: Option<f64>,
    /// The most the value may be.
    #[serde(default, deserialize_with = "finite_opt")]
    pub max: Option<f64>,
    /// Exactly this.
    #[serde(default, deserialize_with = "finite_opt")]
    pub equals: Option<f64>,
    /// Every message of this kind reached `queue` (a dead-letter queue).
    #[serde(default)]
    pub dead_lettered: Option<String>,
    /// With `dead_lettered`: after exactly this many receives.
    #[serde(default, deserialize_with = "bounded_opt::<b::Receives, _>")]
    pub receives: Option<u64>,
    /// Every message of this kind was deleted: gone from every queue of the drill, and the
    /// queues' delete counts grew by at least as many.
    #[serde(default)]
    pub deleted: Option<String>,
    /// Holds at some look within this many server seconds (a steady-state probe after the
    /// method: may take this long to hold again).
    #[serde(default, deserialize_with = "bounded_opt::<b::Within, _>")]
    pub within_seconds: Option<u64>,
    /// Holds at every look for this many server seconds.
    #[serde(default, deserialize_with = "bounded_opt::<b::For, _>")]
    pub for_seconds: Option<u64>,
    /// Holds at every look until the drill ends.
    #[serde(default)]
    pub always: bool,
    /// The budget runs from this step (by name), not from the method's start.
    #[serde(default)]
    pub after: Option<Spanned<String>>,
}

impl Check {
    /// The measure's name, `""` for none.
    pub fn measure(&self) -> &str {
        self.measure.as_ref().map_or("", |m| m.get_ref().as_str())
    }
}

/// A steady-state probe.
pub type Probe = Check;
/// An expectation.
pub type Expectation = Check;

/// `[rollback]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rollback {
    /// Remove the fault rules the drill added (the default).
    #[serde(default = "yes")]
    pub faults: bool,
    /// Remove the drill's messages from its queues (the default).
    #[serde(default = "yes")]
    pub messages: bool,
}

impl Default for Rollback {
    fn default() -> Self {
        Rollback {
            faults: true,
            messages: true,
        }
    }
}

/// `true`, for serde defaults.
fn yes() -> bool {
    true
}
