//! The one background task: sleeps until the next move-task, alarm, SNS HTTP/S delivery or
//! chart-sample deadline on the server's clock, or until poked (a task started or cancelled,
//! a request made alarms stale, a POST queued, the clock advanced), and runs what is due.
//!
//! Visibility, delays and retention need no timer at all (they settle lazily on access, and a
//! long-polling receive sleeps until its own queue's next visibility deadline).

use std::sync::Arc;

use crate::app::App;
use crate::clock::Millis;

/// Far enough to mean "nothing scheduled" without overflowing anyone's arithmetic.
const IDLE: u64 = u64::MAX / 4;

/// After a poke, gather the pokes of a burst of requests into one round: under load this
/// bounds alarm evaluations (which visit every queue) to a few per second.
const DEBOUNCE: std::time::Duration = std::time::Duration::from_millis(50);

pub async fn run(app: Arc<App>) {
    loop {
        let poked = app.ticker.notified();
        tokio::pin!(poked);
        poked.as_mut().enable();
        let now = app.now();
        let next = app.registry.step_move_tasks(now);
        let alarm = app.alarms.tick(&app, now);
        let posts = crate::sns::actions::http::step(&app, now);
        let sample = app.series.tick(&app.registry, now);
        let wake_at = [next, alarm, posts, sample]
            .into_iter()
            .flatten()
            .fold(IDLE, Millis::min)
            .max(now);
        if wake_at <= now {
            // Work remains that is already due (a large unthrottled move): yield, then go on.
            tokio::task::yield_now().await;
            continue;
        }
        tokio::select! {
            () = &mut poked => tokio::time::sleep(DEBOUNCE).await,
            () = app.clock.sleep_until(wake_at) => {}
        }
    }
}
