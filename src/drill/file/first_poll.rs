//! The wait for the consumer's first poll. A consumer the drill starts takes a moment to
//! come up (a second for Python and its imports, more for a JVM); a drill that looked, sent
//! and moved its manual clock meanwhile spent the consumer's budget before it ran. So the
//! steady state, the method and the clock wait, on wall time and within a bound the file
//! sets, until a ReceiveMessage reaches one of the drill's queues (a long poll parked on an
//! empty queue counts: on a standing manual clock it would not come back).

use std::io::Write;
use std::time::Duration;

use super::consumer::Consumer;
use super::spec::{default_first_poll, ConsumerSpec};
use super::CannotRun;
use crate::clock::Stopwatch;
use crate::drill::Endpoint;

/// The ReceiveMessage calls the drill's queues have answered, and the long polls parked on
/// them now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Polls {
    /// Answered so far, empty ones included.
    pub answered: u64,
    /// Waiting now.
    pub parked: u64,
}

impl Polls {
    /// Whether some consumer polled since `before` was read.
    fn since(self, before: Polls) -> bool {
        self.answered > before.answered || self.parked > 0
    }
}

/// Reads the polls of `names` now.
pub async fn read(ep: &Endpoint, names: &[String]) -> Result<Polls, String> {
    let mut polls = Polls::default();
    for name in names {
        let info = ep.get(&format!("/_sqslite/queues/{name}")).await?;
        let n = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
        let answered =
            n(&info["stats"]["received"]).saturating_add(n(&info["stats"]["empty_receives"]));
        polls.answered = polls.answered.saturating_add(answered);
    }
    let waiters = ep.get("/_sqslite/waiters").await?;
    for q in waiters["queues"].as_array().into_iter().flatten() {
        if names.iter().any(|n| q["name"] == n.as_str()) {
            polls.parked = polls
                .parked
                .saturating_add(q["parked"].as_u64().unwrap_or(0));
        }
    }
    Ok(polls)
}

/// What the wait needs: the server, the queues, when to look, the file's bound and what
/// happens at it.
pub struct Wait<'a> {
    /// The server.
    pub ep: &'a Endpoint,
    /// The drill's queues.
    pub names: &'a [String],
    /// The polls before the consumer started.
    pub before: Polls,
    /// Wall ms between looks.
    pub look_ms: u64,
    /// `[consumer]`, if the file has one.
    pub spec: Option<&'a ConsumerSpec>,
}

/// Waits for a consumer the drill started to poll. A command that exits first (not found,
/// crashed on start) means the drill cannot run (exit 2), as does the bound passing unless
/// the file says `if_no_first_poll = "start"`. A consumer the drill did not start is not
/// waited for: it is already running, or the drill watches queues nobody consumes.
pub async fn wait(
    w: &Wait<'_>,
    consumer: &mut Consumer,
    out: &mut dyn Write,
) -> Result<(), CannotRun> {
    if matches!(consumer, Consumer::Outside) {
        return Ok(());
    }
    let bound = w
        .spec
        .map_or_else(default_first_poll, |s| s.first_poll_within_seconds);
    let start_anyway = w.spec.is_some_and(ConsumerSpec::start_without_first_poll);
    let waited = Stopwatch::start();
    loop {
        if let Some(why) = died(consumer) {
            return Err(CannotRun(why));
        }
        if read(w.ep, w.names).await?.since(w.before) {
            let _ = writeln!(
                out,
                "the consumer polled after {:.1} s of wall time; the drill starts",
                waited.elapsed().as_secs_f64()
            );
            return Ok(());
        }
        if waited.elapsed() >= Duration::from_secs(bound) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(w.look_ms)).await;
    }
    let words = format!(
        "the consumer did not poll any of the drill's queues ({}) within first_poll_within_seconds ({bound} s of wall time)",
        w.names.join(", ")
    );
    if start_anyway {
        let _ = writeln!(
            out,
            "{words}; if_no_first_poll = \"start\": the drill starts"
        );
        return Ok(());
    }
    Err(CannotRun(format!(
        "{words}: nothing was sent (if_no_first_poll = \"start\" runs the method anyway)"
    )))
}

/// Why a command consumer is gone before its first poll, if it is.
fn died(consumer: &mut Consumer) -> Option<String> {
    let (line, status) = consumer.ended()?;
    let at = match consumer {
        Consumer::Command { dir: Some(d), .. } => d.display().to_string(),
        _ => "the current directory".to_owned(),
    };
    Some(format!(
        "the consumer `{line}` exited before its first poll ({status}; it ran in {at}): nothing was sent"
    ))
}
