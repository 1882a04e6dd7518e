//! Where all time comes from: the system clock in production, a manual one in tests and drills.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// Milliseconds since the Unix epoch; the engine's only unit of time.
pub type Millis = u64;

/// The latest instant a manual clock may reach: 9999-12-31T23:59:59.999Z. Far enough for any
/// drill, yet every deadline the engine adds to it (14 days of retention at most) stays
/// a valid timestamp that SDKs can parse, and far from `u64::MAX`.
pub const LATEST: Millis = 253_402_300_799_999;

/// Why a manual clock refused to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfRange {
    /// The furthest the clock could still be advanced, in milliseconds.
    pub room_ms: Millis,
}

/// What [`Clock::sleep_until`] returns.
pub type SleepFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A source of "now" that can also wait until a given instant of its own time.
pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since the Unix epoch.
    fn now(&self) -> Millis;
    /// Resolves once `now() >= deadline`; for a manual clock, only when it is advanced.
    fn sleep_until(&self, deadline: Millis) -> SleepFuture;
    /// The manual clock behind this one, if it is one (the admin API advances it).
    fn as_manual(&self) -> Option<&ManualClock> {
        None
    }
}

/// The clock a server runs on, shared by all its parts.
pub type SharedClock = Arc<dyn Clock>;

/// Wall-clock time.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as Millis)
    }

    fn sleep_until(&self, deadline: Millis) -> SleepFuture {
        let wait = deadline.saturating_sub(self.now());
        Box::pin(tokio::time::sleep(Duration::from_millis(wait)))
    }
}

/// Wall time since `start`, for request-latency metrics only: a client waits in real time
/// whatever the server's clock says, so this never feeds SQS semantics.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch(std::time::Instant);

impl Stopwatch {
    pub fn start() -> Self {
        Stopwatch(std::time::Instant::now())
    }

    pub fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }
}

/// A clock that stands still until told to move; waiters wake when it passes their deadline.
#[derive(Debug, Clone)]
pub struct ManualClock {
    now: Arc<watch::Sender<Millis>>,
}

impl ManualClock {
    /// A clock standing at `start` (milliseconds since the Unix epoch).
    pub fn new(start: Millis) -> Self {
        ManualClock {
            now: Arc::new(watch::Sender::new(start)),
        }
    }

    /// Starts at the current wall-clock time, so timestamps look plausible.
    pub fn starting_now() -> Self {
        ManualClock::new(SystemClock.now())
    }

    /// Moves time forward; saturates at [`LATEST`] rather than wrapping round to 1970.
    pub fn advance(&self, by: Duration) {
        let by = Millis::try_from(by.as_millis()).unwrap_or(Millis::MAX);
        self.now
            .send_modify(|t| *t = t.saturating_add(by).min(LATEST.max(*t)));
    }

    /// Moves time forward by `by` ms, or refuses (and stays put) if that passes [`LATEST`].
    pub fn try_advance(&self, by: Millis) -> Result<Millis, OutOfRange> {
        let mut outcome = Err(OutOfRange { room_ms: 0 });
        self.now.send_if_modified(|t| {
            let room_ms = LATEST.saturating_sub(*t);
            if by > room_ms {
                outcome = Err(OutOfRange { room_ms });
                return false;
            }
            *t += by;
            outcome = Ok(*t);
            by > 0
        });
        outcome
    }

    /// Moves time forward to `to`; never backwards.
    pub fn set(&self, to: Millis) {
        self.now.send_modify(|t| *t = (*t).max(to));
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Millis {
        *self.now.borrow()
    }

    fn sleep_until(&self, deadline: Millis) -> SleepFuture {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            // An error means the clock is gone; nothing will ever wake us, so park forever.
            if rx.wait_for(|now| *now >= deadline).await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }

    fn as_manual(&self) -> Option<&ManualClock> {
        Some(self)
    }
}

/// The wire formats of time: SigV4's `X-Amz-Date`, HTTP's `Date`.
/// `20240101T000000Z` as milliseconds since the epoch.
pub fn parse_amz_date(text: &str) -> Option<Millis> {
    let b = text.as_bytes();
    if b.len() != 16 || b[8] != b'T' || b[15] != b'Z' {
        return None;
    }
    let num = |range: std::ops::Range<usize>| -> Option<u32> {
        let s = text.get(range)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let month = time::Month::try_from(u8::try_from(num(4..6)?).ok()?).ok()?;
    let date = time::Date::from_calendar_date(
        i32::try_from(num(0..4)?).ok()?,
        month,
        u8::try_from(num(6..8)?).ok()?,
    )
    .ok()?;
    let clock = time::Time::from_hms(
        u8::try_from(num(9..11)?).ok()?,
        u8::try_from(num(11..13)?).ok()?,
        u8::try_from(num(13..15)?).ok()?,
    )
    .ok()?;
    let seconds = time::PrimitiveDateTime::new(date, clock)
        .assume_utc()
        .unix_timestamp();
    Millis::try_from(seconds).ok().map(|s| s * 1000)
}

pub fn format_amz_date(millis: Millis) -> String {
    let at = i64::try_from(millis / 1000)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}{:02}{:02}T{:02}{:02}{:02}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

/// An HTTP `Date` header value (`Mon, 30 Nov 2026 23:17:28 GMT`).
pub fn http_date(millis: Millis) -> String {
    let at = i64::try_from(millis / 1000)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let weekday = at.weekday().to_string();
    let month = at.month().to_string();
    format!(
        "{}, {:02} {} {} {:02}:{:02}:{:02} GMT",
        &weekday[..3],
        at.day(),
        &month[..3],
        at.year(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn manual_sleep_wakes_only_when_advanced_past_deadline() {
        let clock = ManualClock::new(1_000);
        let sleeper = tokio::spawn(clock.sleep_until(31_000));
        clock.advance(Duration::from_secs(29));
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        clock.advance(Duration::from_secs(1));
        sleeper.await.unwrap();
        assert_eq!(clock.now(), 31_000);
    }

    #[test]
    fn advance_saturates_instead_of_wrapping() {
        let clock = ManualClock::new(LATEST - 5);
        clock.advance(Duration::MAX);
        assert_eq!(clock.now(), LATEST);
        let beyond = ManualClock::new(u64::MAX - 1);
        beyond.advance(Duration::from_secs(10));
        assert_eq!(
            beyond.now(),
            u64::MAX - 1,
            "a clock past LATEST never moves back"
        );
    }

    #[test]
    fn try_advance_refuses_past_the_latest_instant_and_stays_put() {
        let clock = ManualClock::new(LATEST - 1_000);
        assert_eq!(clock.try_advance(1_001), Err(OutOfRange { room_ms: 1_000 }));
        assert_eq!(
            clock.try_advance(u64::MAX),
            Err(OutOfRange { room_ms: 1_000 })
        );
        assert_eq!(clock.now(), LATEST - 1_000);
        assert_eq!(clock.try_advance(1_000), Ok(LATEST));
    }
}

#[cfg(test)]
mod wire_format_tests {
    use super::*;

    #[test]
    fn amz_dates_round_trip() {
        let t = parse_amz_date("20231114T221320Z").unwrap();
        assert_eq!(t, 1_700_000_000_000);
        assert_eq!(format_amz_date(t), "20231114T221320Z");
        assert_eq!(http_date(t), "Tue, 14 Nov 2023 22:13:20 GMT");
        for bad in [
            "",
            "20231114T221320",
            "20231314T221320Z",
            "2023-11-14T22:13Z",
            "+0231114T221320Z",
        ] {
            assert_eq!(parse_amz_date(bad), None, "{bad}");
        }
    }
}
