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

pub type SleepFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A source of "now" that can also wait until a given instant of its own time.
pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> Millis;
    /// Resolves once `now() >= deadline`; for a manual clock, only when it is advanced.
    fn sleep_until(&self, deadline: Millis) -> SleepFuture;
    /// The manual clock behind this one, if it is one (the admin API advances it).
    fn as_manual(&self) -> Option<&ManualClock> {
        None
    }
}

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
