//! Where all time comes from: the system clock in production, a manual one in tests and drills.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// Milliseconds since the Unix epoch; the engine's only unit of time.
pub type Millis = u64;

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

    pub fn advance(&self, by: Duration) {
        self.now.send_modify(|t| *t += by.as_millis() as Millis);
    }

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
}
