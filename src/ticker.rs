//! The one background task: sleeps until the next move-task, alarm, SNS HTTP/S delivery or
//! chart-sample deadline on the server's clock, or until poked (a task started or cancelled,
//! a request made alarms stale, a POST queued, the clock advanced), and runs what is due.
//!
//! Visibility, delays and retention need no timer at all (they settle lazily on access, and a
//! long-polling receive sleeps until its own queue's next visibility deadline).

use std::sync::Arc;

use tokio::sync::Notify;

use crate::clock::{Millis, SharedClock};

/// One periodic job: does what is due at `now` and tells when it is next due (`None`:
/// nothing scheduled). The composition root hands the ticker its jobs.
pub type Job = Box<dyn Fn(Millis) -> Option<Millis> + Send + Sync>;

/// Far enough to mean "nothing scheduled" without overflowing anyone's arithmetic.
const IDLE: u64 = u64::MAX / 4;

/// After a poke, gather the pokes of a burst of requests into one round: under load this
/// bounds alarm evaluations (which visit every queue) to a few per second.
const DEBOUNCE: std::time::Duration = std::time::Duration::from_millis(50);

/// Runs `jobs` on `clock`'s time, each round when the earliest is due or `poke` is notified.
pub async fn run(clock: SharedClock, poke: Arc<Notify>, jobs: Vec<Job>) {
    loop {
        let poked = poke.notified();
        tokio::pin!(poked);
        poked.as_mut().enable();
        let now = clock.now();
        // Every job runs each round (no short-circuit); the earliest next deadline wins.
        let next = jobs.iter().filter_map(|job| job(now)).min();
        let wake_at = next.unwrap_or(IDLE).max(now);
        if wake_at <= now {
            // Work remains that is already due (a large unthrottled move): yield, then go on.
            tokio::task::yield_now().await;
            continue;
        }
        tokio::select! {
            () = &mut poked => tokio::time::sleep(DEBOUNCE).await,
            () = clock.sleep_until(wake_at) => {}
        }
    }
}
