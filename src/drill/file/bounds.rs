//! The bounds of a drill file's numbers, checked while serde reads them so that the error
//! names the value's file, line and column. A number past these cannot drill anything better
//! and could take the runner down: a wait of `i64::MAX` seconds overflows the clock, a step of
//! a billion sends asks for gigabytes, a look every 0 ms is a busy loop. The guide's Game days
//! page lists them beside the keys.

use std::fmt::Display;
use std::ops::RangeInclusive;

use serde::{de::Error as _, Deserialize, Deserializer};

/// The longest span of time a drill may name, in seconds: 30 days, enough to outlast SQS's
/// longest retention period (14 days).
pub const MAX_SECONDS: u64 = 30 * 24 * 3600;
/// The most messages one `send` or `publish` step sends.
pub const MAX_COUNT: u64 = 100_000;
/// The least and most wall milliseconds between looks at the server.
pub const LOOK_MS: RangeInclusive<u64> = 10..=60_000;
/// SQS's range of DelaySeconds.
pub const DELAY_SECONDS: RangeInclusive<u64> = 0..=900;
/// SQS's range of maxReceiveCount, so of the receives before a message is dead-lettered.
pub const RECEIVES: RangeInclusive<u64> = 1..=1000;

/// One bounded key: its name, its range and, for the error, why the range is what it is.
pub trait Bound {
    /// The key as written in the file.
    const KEY: &'static str;
    /// The values it takes.
    const RANGE: RangeInclusive<u64>;
    /// Why, in a few words.
    const WHY: &'static str;
}

macro_rules! bounds {
    ($($(#[$doc:meta])* $name:ident: $key:literal, $range:expr, $why:literal;)*) => {$(
        $(#[$doc])*
        pub struct $name;
        impl Bound for $name {
            const KEY: &'static str = $key;
            const RANGE: RangeInclusive<u64> = $range;
            const WHY: &'static str = $why;
        }
    )*};
}

bounds! {
    /// `[drill] timeout_seconds`.
    Timeout: "timeout_seconds", 1..=MAX_SECONDS, "wall seconds, at most 30 days";
    /// `[drill] look_ms`.
    LookMs: "look_ms", LOOK_MS, "looks closer than 10 ms apart are a busy loop";
    /// `[drill] step_seconds`.
    StepSeconds: "step_seconds", 1..=MAX_SECONDS, "a manual clock must move while the drill waits";
    /// `[consumer] must_poll_within_seconds`.
    PollWithin: "must_poll_within_seconds", 0..=MAX_SECONDS, "at most 30 days";
    /// `[consumer] first_poll_within_seconds`.
    FirstPoll: "first_poll_within_seconds", 1..=3600, "wall seconds, at most an hour";
    /// A step's `seconds` (`advance`, `wait`, `fault`).
    StepTime: "seconds", 0..=MAX_SECONDS, "at most 30 days";
    /// A probe's `interval_seconds`.
    Interval: "interval_seconds", 1..=MAX_SECONDS, "at most 30 days";
    /// A budget, `within_seconds`.
    Within: "within_seconds", 0..=MAX_SECONDS, "at most 30 days";
    /// A budget, `for_seconds`.
    For: "for_seconds", 0..=MAX_SECONDS, "at most 30 days";
    /// A step's `count`.
    Count: "count", 1..=MAX_COUNT, "one step sends at most 100000 messages";
    /// A step's `delay_seconds`.
    Delay: "delay_seconds", DELAY_SECONDS, "SQS's DelaySeconds";
    /// The sample consumer's `retry_delay_seconds`.
    RetryDelay: "retry_delay_seconds", DELAY_SECONDS, "SQS's DelaySeconds";
    /// An expectation's `receives`.
    Receives: "receives", RECEIVES, "SQS's maxReceiveCount";
}

/// The message of a value out of its key's bound.
fn refusal<B: Bound>(got: impl Display) -> String {
    format!(
        "`{}` must be from {} to {} ({}); got {got}",
        B::KEY,
        B::RANGE.start(),
        B::RANGE.end(),
        B::WHY
    )
}

/// A key bounded by `B`, read as a signed TOML integer so a negative one is refused in words.
pub fn bounded<'de, B: Bound, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let raw = i64::deserialize(d)?;
    u64::try_from(raw)
        .ok()
        .filter(|v| B::RANGE.contains(v))
        .ok_or_else(|| D::Error::custom(refusal::<B>(raw)))
}

/// An optional key bounded by `B` (with `#[serde(default)]`).
pub fn bounded_opt<'de, B: Bound, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    bounded::<B, D>(d).map(Some)
}

/// An optional tolerance: a finite number, since `nan` never compares and `inf` never holds.
pub fn finite_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let v = f64::deserialize(d)?;
    if v.is_finite() {
        Ok(Some(v))
    } else {
        Err(D::Error::custom(format!(
            "a tolerance must be a finite number; got {v}"
        )))
    }
}
