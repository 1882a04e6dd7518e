//! An expectation being watched: armed when its step has run, decided at the look that
//! settles it (held within its budget, broken during its `for_seconds`, or at the end).

use super::explain::{About, Whereabouts};
use super::look::{self, Look};
use super::spec::{Expectation, Probe};

/// How an expectation is timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// Holds at some look within this many server ms.
    Within(u64),
    /// Holds at every look for this many server ms.
    For(u64),
    /// Holds at every look until the end.
    Always,
    /// Holds at the last look.
    AtEnd,
}

/// What an expectation is about.
#[derive(Debug, Clone)]
pub enum Subject {
    /// A probe and its tolerance.
    Probe(Box<Probe>),
    /// Every message of a kind reached a queue, after exactly so many receives if given.
    DeadLettered {
        /// The kind.
        kind: String,
        /// The queue it must reach.
        queue: String,
        /// Receives before it got there.
        receives: Option<u64>,
    },
    /// Every message of a kind was deleted.
    Deleted(String),
}

/// One expectation and how far it got.
#[derive(Debug, Clone)]
pub struct Tracker {
    /// Its name.
    pub name: String,
    /// What it checks.
    pub subject: Subject,
    /// How it is timed.
    pub timing: Timing,
    /// The step it counts from; `None`: the method's start.
    pub after: Option<String>,
    /// When its budget started, once armed.
    pub armed_at: Option<u64>,
    /// The last reading, for the verdict.
    pub last: String,
    /// Decided: whether it held and what was measured.
    pub decided: Option<(bool, String)>,
    /// Where the drill's messages were at the look that failed it.
    pub seen: Option<Whereabouts>,
}

/// What the drill counts reads against: this run, how many of each kind it sent, and each
/// queue's deletes when the method began.
pub struct Context<'a> {
    /// The run id the messages carry.
    pub run: &'a str,
    /// Messages sent, by kind.
    pub sent: &'a std::collections::BTreeMap<String, u64>,
    /// The first look, before the method.
    pub first: &'a Look,
    /// Every look so far.
    pub history: &'a [Look],
    /// The drill's queues.
    pub queues: &'a [String],
}

impl Tracker {
    /// The tracker of one expectation.
    pub fn new(e: &Expectation) -> Tracker {
        let secs = |s: u64| s.saturating_mul(1000);
        let timing = match (e.within_seconds, e.for_seconds, e.always) {
            (Some(s), _, _) => Timing::Within(secs(s)),
            (_, Some(s), _) => Timing::For(secs(s)),
            (_, _, true) => Timing::Always,
            _ => Timing::AtEnd,
        };
        let subject = if e.measure.is_some() {
            Subject::Probe(Box::new(e.clone()))
        } else if let Some(kind) = &e.dead_lettered {
            Subject::DeadLettered {
                kind: kind.clone(),
                queue: e
                    .queue
                    .as_ref()
                    .map(|q| q.get_ref().clone())
                    .unwrap_or_default(),
                receives: e.receives,
            }
        } else {
            Subject::Deleted(e.deleted.clone().unwrap_or_default())
        };
        Tracker {
            name: e.name.clone().unwrap_or_default(),
            subject,
            timing,
            after: e.after.as_ref().map(|a| a.get_ref().clone()),
            armed_at: None,
            last: "not measured yet".into(),
            decided: None,
            seen: None,
        }
    }

    /// What the expectation is about, for the words of its failure.
    pub fn about(&self) -> About {
        match &self.subject {
            Subject::Probe(p) => About {
                kind: p.kind.clone(),
                queue: p.queue.as_ref().map(|q| q.get_ref().clone()),
            },
            Subject::DeadLettered { kind, queue, .. } => About {
                kind: Some(kind.clone()),
                queue: Some(queue.clone()),
            },
            Subject::Deleted(kind) => About {
                kind: Some(kind.clone()),
                queue: None,
            },
        }
    }

    /// Whether the subject holds at `look`, and the reading in words.
    fn reading(&self, look: &Look, cx: &Context<'_>, since: u64) -> (bool, String) {
        match &self.subject {
            Subject::Probe(p) => self.probe_reading(p, look, cx, since),
            Subject::DeadLettered {
                kind,
                queue,
                receives,
            } => dead_lettered(look, cx, kind, queue, *receives),
            Subject::Deleted(kind) => deleted(look, cx, kind),
        }
    }

    /// A probe's reading.
    fn probe_reading(
        &self,
        p: &Probe,
        look: &Look,
        cx: &Context<'_>,
        since: u64,
    ) -> (bool, String) {
        let on = p.queue.as_ref().map_or("", |q| q.get_ref().as_str());
        if p.measure() == "alarm" {
            let held = look::alarm_holds(p, look, since);
            let words = if held { "is" } else { "is not" };
            let alarm = p.alarm.as_deref().unwrap_or("");
            return (
                held,
                format!(
                    "alarm {alarm} on {on} {words} {}",
                    p.state.as_deref().unwrap_or("")
                ),
            );
        }
        // A probe of messages of a kind the drill has not sent yet reads nothing worth
        // passing on: it cannot have drained what does not exist. It breaks nothing either.
        if let Some(kind) = p.kind.as_deref().filter(|k| *k != "*") {
            if cx.sent.get(kind).copied().unwrap_or(0) == 0 {
                let unbroken = matches!(self.timing, Timing::Always | Timing::For(_));
                return (unbroken, format!("no `{kind}` message sent yet"));
            }
        }
        let v = look::value(p, look, cx.history, cx.run).unwrap_or(f64::NAN);
        (
            look::within(p, v),
            format!("{} of {on} was {v}", p.measure()),
        )
    }

    /// Looks at one look: decides the expectation when the look settles it.
    pub fn watch(&mut self, look: &Look, cx: &Context<'_>, since: u64) {
        let Some(start) = self.armed_at else { return };
        if self.decided.is_some() {
            return;
        }
        let (held, words) = self.reading(look, cx, since);
        let elapsed = look.t.saturating_sub(start) as f64 / 1000.0;
        self.last.clone_from(&words);
        match self.timing {
            Timing::Within(budget) if held && look.t <= start.saturating_add(budget) => {
                self.decided = Some((
                    true,
                    format!("{words} after {elapsed:.1} s (budget {} s)", budget / 1000),
                ));
            }
            Timing::Within(budget) if look.t > start.saturating_add(budget) => {
                self.decided = Some((
                    false,
                    format!(
                        "not within the budget of {} s: {words} at {elapsed:.1} s",
                        budget / 1000
                    ),
                ));
            }
            Timing::For(budget) if !held => {
                self.decided = Some((
                    false,
                    format!(
                        "broke after {elapsed:.1} s of the {} s budget it must hold for: {words}",
                        budget / 1000
                    ),
                ));
            }
            Timing::For(budget) if look.t >= start.saturating_add(budget) => {
                self.decided = Some((true, format!("held for {} s: {words}", budget / 1000)));
            }
            Timing::Always if !held => {
                self.decided = Some((
                    false,
                    format!("broke after {elapsed:.1} s (budget: to hold at every look): {words}"),
                ));
            }
            _ => {}
        }
    }

    /// The server time by which a timed expectation is settled, once armed.
    pub fn deadline(&self) -> Option<u64> {
        match self.timing {
            Timing::Within(b) | Timing::For(b) => self.armed_at.map(|a| a.saturating_add(b)),
            Timing::Always | Timing::AtEnd => None,
        }
    }

    /// At the drill's end: an `always` that never broke held; an at-end one is read from the
    /// last look; a timed one still open did not settle in the drill's time.
    pub fn finish(&mut self, look: &Look, cx: &Context<'_>, since: u64) {
        if self.decided.is_some() {
            return;
        }
        if self.armed_at.is_none() {
            self.decided = Some((
                false,
                format!(
                    "its step `{}` never ran, so its budget never started",
                    self.after.as_deref().unwrap_or("?")
                ),
            ));
            return;
        }
        let (held, words) = self.reading(look, cx, since);
        self.decided = Some(match self.timing {
            Timing::Always => (
                held,
                format!("held at every look (budget: every look): {words}"),
            ),
            Timing::AtEnd => (held, format!("at the end (budget: the last look): {words}")),
            Timing::Within(_) | Timing::For(_) => (
                false,
                format!(
                    "undecided when the drill ended, its budget not yet spent: {}",
                    self.last
                ),
            ),
        });
    }
}

/// Whether every message of `kind` is in `queue`, each after `receives` receives if given.
fn dead_lettered(
    look: &Look,
    cx: &Context<'_>,
    kind: &str,
    queue: &str,
    receives: Option<u64>,
) -> (bool, String) {
    let sent = cx.sent.get(kind).copied().unwrap_or(0);
    let there: Vec<_> = look
        .queues
        .get(queue)
        .map(|q| look::ours(q, cx.run, kind).collect())
        .unwrap_or_default();
    let counts: Vec<u64> = there
        .iter()
        .map(|m| m["receive_count"].as_u64().unwrap_or(0))
        .collect();
    let right = receives.is_none_or(|r| counts.iter().all(|c| *c == r));
    let held = sent > 0 && there.len() as u64 == sent && right;
    let taken = if counts.is_empty() {
        String::new()
    } else {
        let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
        format!(", received {} time(s)", counts.join(", "))
    };
    (
        held,
        format!(
            "{} of {sent} `{kind}` message(s) in {queue}{taken}",
            there.len()
        ),
    )
}

/// Whether every message of `kind` is gone from the drill's queues, deleted.
fn deleted(look: &Look, cx: &Context<'_>, kind: &str) -> (bool, String) {
    let sent = cx.sent.get(kind).copied().unwrap_or(0);
    let left: usize = look
        .queues
        .values()
        .map(|q| look::ours(q, cx.run, kind).count())
        .sum();
    let deletes: u64 = cx
        .queues
        .iter()
        .map(|name| {
            let now = look.queues.get(name).map_or(0, |q| q.deleted);
            let before = cx.first.queues.get(name).map_or(0, |q| q.deleted);
            now.saturating_sub(before)
        })
        .sum();
    let held = sent > 0 && left == 0 && deletes >= sent;
    (
        held,
        format!(
            "{left} of {sent} `{kind}` message(s) left in the drill's queues; {deletes} delete(s)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::{Look, Timing, Tracker};
    use crate::drill::file::spec::Expectation;

    /// A budget the check would refuse still neither wraps nor panics here: the engine does
    /// not lean on the check for its arithmetic.
    #[test]
    fn a_budget_near_the_largest_number_saturates() {
        let e = Expectation {
            name: Some("e".into()),
            deleted: Some("valid".into()),
            within_seconds: Some(u64::MAX - 1),
            ..Expectation::default()
        };
        let mut t = Tracker::new(&e);
        assert_eq!(t.timing, Timing::Within(u64::MAX));
        t.armed_at = Some(1_000);
        assert_eq!(t.deadline(), Some(u64::MAX));
        let sent = std::collections::BTreeMap::new();
        let look = Look {
            t: 2_000,
            ..Look::default()
        };
        let cx = super::Context {
            run: "r",
            sent: &sent,
            first: &look,
            history: std::slice::from_ref(&look),
            queues: &[],
        };
        t.watch(&look, &cx, 0);
        assert!(t.decided.is_none(), "{:?}", t.decided);
    }
}
