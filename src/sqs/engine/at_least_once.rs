//! At-least-once delivery on request (`[delivery]`, `--delivery at-least-once`): what a
//! standard queue on AWS does and an exact emulator hides, so a team can rehearse the consumer
//! bugs it causes. Four effects, each at its own rate:
//!
//! - **duplicate**: a DeleteMessage is acknowledged but the message comes back once more, at
//!   once, with a new receipt handle on its next receive (a copy on another host survived);
//! - **early visibility end**: a receive hides the message for only part of its visibility
//!   timeout, so it may be delivered again while its first receiver still works on it;
//! - **reorder**: a receive passes over a visible message, so a later one comes first;
//! - **approximate counts**: GetQueueAttributes' `ApproximateNumberOf*` are off by a little.
//!
//! The decisions come from a seeded generator per queue (the server's seed mixed with the
//! queue's name), so the same seed and the same requests give the same run whatever other
//! queues do. Exact is the default: a queue without the mode pays one branch per receive,
//! delete and attribute read. FIFO queues never take it: exactly-once processing and order
//! are what FIFO is for, on AWS too. The mode is a setting of the running server, not state
//! of record: it is not journaled, and a restart takes it from the configuration again.

use std::sync::PoisonError;

use crate::clock::Millis;
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;
use crate::sqs::error::SqsResult;

/// How a standard queue delivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// In order, never twice, exact counts: sqslite's default.
    #[default]
    Exact,
    /// As AWS's standard queues: duplicates, best-effort order, approximate counts.
    AtLeastOnce,
}

impl Mode {
    /// The words a file, a flag or the admin API writes.
    pub const WORDS: &'static [&'static str] = &["exact", "at-least-once"];

    /// Its word.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Exact => "exact",
            Mode::AtLeastOnce => "at-least-once",
        }
    }

    /// The mode a word names.
    pub fn parse(word: &str) -> Result<Mode, String> {
        match word {
            "exact" => Ok(Mode::Exact),
            "at-least-once" => Ok(Mode::AtLeastOnce),
            _ => Err(format!(
                "must be \"exact\" or \"at-least-once\", not `{word}`"
            )),
        }
    }
}

/// How often each effect happens in at-least-once mode, each a probability from 0 to 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    /// A deleted message comes back once more.
    pub duplicate: f64,
    /// A receive passes over a visible message.
    pub reorder: f64,
    /// A receive hides its message for only part of the visibility timeout.
    pub early_visibility: f64,
    /// An approximate count read is off by a little.
    pub approximate_counts: f64,
}

impl Default for Rates {
    /// Often enough that a drill of a few dozen messages meets each effect, rarely enough
    /// that a consumer still makes progress.
    fn default() -> Self {
        Rates {
            duplicate: 0.1,
            reorder: 0.1,
            early_visibility: 0.05,
            approximate_counts: 0.5,
        }
    }
}

impl Rates {
    /// The rates' names, as `[delivery]` keys (flags take them with dashes).
    pub const NAMES: [&'static str; 4] = [
        "duplicate",
        "reorder",
        "early_visibility",
        "approximate_counts",
    ];

    /// Every effect at rate `p` (0: none, to turn on one at a time; 1: every time).
    pub fn all(p: f64) -> Rates {
        Rates {
            duplicate: p,
            reorder: p,
            early_visibility: p,
            approximate_counts: p,
        }
    }

    /// The rate called `name`, to change.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut f64> {
        match name {
            "duplicate" => Some(&mut self.duplicate),
            "reorder" => Some(&mut self.reorder),
            "early_visibility" => Some(&mut self.early_visibility),
            "approximate_counts" => Some(&mut self.approximate_counts),
            _ => None,
        }
    }

    /// The rate called `name`.
    pub fn get(&self, name: &str) -> Option<f64> {
        let mut copy = *self;
        copy.get_mut(name).map(|r| *r)
    }
}

/// A rate as given: a number from 0 to 1.
pub fn rate(value: f64) -> Result<f64, String> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("must be a probability from 0 to 1, got {value}"))
    }
}

/// `[delivery]`: the server-wide mode, its seed and its rates.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DeliverySettings {
    /// The mode of every standard queue that does not set its own.
    pub mode: Mode,
    /// Seeds every queue's generator (mixed with the queue's name).
    pub seed: u64,
    /// How often each effect happens.
    pub rates: Rates,
}

/// One queue's dice: its rates and its generator (splitmix64: tiny, and good enough to
/// decide a coin toss; not for secrets).
#[derive(Debug, Clone)]
pub struct Dice {
    /// The rates in force.
    rates: Rates,
    /// The generator's state.
    state: u64,
}

impl Dice {
    /// The dice of the queue `name` under `settings`.
    pub fn new(settings: &DeliverySettings, name: &str) -> Self {
        Dice {
            rates: settings.rates,
            state: settings.seed ^ fnv1a(name),
        }
    }

    /// The next 64 random bits.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// True with probability `p`; a rate of 0 draws nothing, so it changes no later toss.
    fn chance(&mut self, p: f64) -> bool {
        // 53 bits: as many as an f64 holds exactly.
        p > 0.0 && ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }

    /// Whether this delete leaves the message to come back once more.
    pub fn duplicate(&mut self) -> bool {
        self.chance(self.rates.duplicate)
    }

    /// Whether a receive passes over this visible message.
    pub fn pass_over(&mut self) -> bool {
        self.chance(self.rates.reorder)
    }

    /// When the visibility just given ends early, how long it lasts instead (less than
    /// `visibility_ms`); `None` when it lasts in full.
    pub fn early_end(&mut self, visibility_ms: Millis) -> Option<Millis> {
        (visibility_ms > 0 && self.chance(self.rates.early_visibility))
            .then(|| self.below(visibility_ms))
    }

    /// A count as an approximate read gives it: now and then off by up to a tenth (at
    /// least one) either way, never below zero.
    pub fn approximate(&mut self, n: usize) -> usize {
        if !self.chance(self.rates.approximate_counts) {
            return n;
        }
        let spread = (n / 10).max(1) as u64;
        let off = self.below(spread) as usize + 1;
        if self.next() & 1 == 0 {
            n.saturating_add(off)
        } else {
            n.saturating_sub(off)
        }
    }
}

impl Registry {
    /// The server-wide delivery settings.
    pub fn delivery(&self) -> DeliverySettings {
        *self.delivery.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// New server-wide settings: every queue throws fresh dice from the seed, and those
    /// without a mode of their own take the new mode.
    pub fn set_delivery(&self, settings: DeliverySettings) {
        *self
            .delivery
            .write()
            .unwrap_or_else(PoisonError::into_inner) = settings;
        for queue in self.all() {
            queue.follow_server(&settings);
        }
    }

    /// A queue's own mode (`None`: the server's); a FIFO queue refuses at-least-once.
    pub fn set_queue_delivery(&self, queue: &Queue, own: Option<Mode>) -> SqsResult<()> {
        queue.set_delivery(&self.delivery(), own)
    }

    /// A new queue takes the server's mode; exact, the default, costs nothing here.
    pub(super) fn deal(&self, queue: &Queue) {
        let settings = self.delivery();
        if settings.mode == Mode::AtLeastOnce {
            queue.follow_server(&settings);
        }
    }
}

/// FNV-1a of a name: stable across runs and platforms, unlike std's hasher.
fn fnv1a(name: &str) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

#[cfg(test)]
#[path = "at_least_once_tests.rs"]
mod tests;
