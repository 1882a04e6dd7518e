//! The drill engine: steady state, method, expectations, steady state again, rollback, on a
//! server the drill starts or one it is pointed at. Every few wall milliseconds it looks at
//! the server; on a manual clock it also moves time, so a drill of minutes runs in seconds.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use super::check::{step_name, Checked};
use super::consumer::Consumer;
use super::explain::{self, About, Whereabouts};
use super::look::{self, Look};
use super::spec::Step;
use super::track::{Context, Tracker};
use super::verdict::{Case, Verdict};
use crate::clock::Stopwatch;
use crate::drill::Endpoint;

/// What happened when, on the server's clock, for the report's marks.
#[derive(Debug, Clone)]
pub struct Mark {
    /// Server ms.
    pub t: u64,
    /// `step`, `fault`, `expectation`.
    pub kind: &'static str,
    /// What.
    pub label: String,
}

/// One drill under way.
pub struct Drill<'a> {
    /// The server.
    pub ep: Endpoint,
    /// The file.
    pub c: &'a Checked,
    /// This run's id, on every message it sends.
    pub run: String,
    /// Whether the drill moves the server's clock.
    pub manual: bool,
    /// Each queue's URL.
    pub urls: BTreeMap<String, String>,
    /// The queues' names, in order.
    pub names: Vec<String>,
    /// Topic ARNs by name.
    pub topics: BTreeMap<String, String>,
    /// Messages sent, by kind.
    pub sent: BTreeMap<String, u64>,
    /// When each step ran.
    pub step_at: BTreeMap<String, u64>,
    /// Fault rules added (removed by the rollback).
    pub faults: Vec<u64>,
    /// The delivery settings before the drill's first `delivery` step, and the queues whose
    /// own mode it set (put back by the rollback).
    pub delivery_before: Option<(serde_json::Value, Vec<String>)>,
    /// Every look.
    pub history: Vec<Look>,
    /// Steps, faults and decisions, for the report.
    pub marks: Vec<Mark>,
    /// The verdict so far.
    pub verdict: Verdict,
    /// The consumer under test.
    pub consumer: Consumer,
    /// The expectations, watched at every look from the method's start to the drill's last
    /// look: an `always` that stopped being watched when the timed ones settled would pass
    /// a drill whose later looks break it.
    pub trackers: Vec<Tracker>,
    /// Server ms when the method began.
    pub started: u64,
    /// Wall time since the drill began.
    pub wall: Stopwatch,
}

impl Drill<'_> {
    /// Looks at the server once, keeps the look and lets the armed expectations read it.
    pub async fn look(&mut self) -> Result<(), String> {
        let look = look::take(&self.ep, &self.names).await?;
        // Probes and expectations read the messages of the last look only; an older look keeps
        // its counts, so the history does not hold a drill's messages once per look.
        if let Some(previous) = self.history.last_mut() {
            for q in previous.queues.values_mut() {
                q.messages = Vec::new();
            }
        }
        self.history.push(look);
        self.watch_all();
        Ok(())
    }

    /// Moves on: a look interval of wall time, and on a manual clock a step of server time.
    pub(super) async fn tick(&mut self) -> Result<(), String> {
        tokio::time::sleep(Duration::from_millis(self.c.file.drill.look_ms)).await;
        if self.manual {
            self.ep.advance(self.c.file.drill.step_seconds).await?;
        }
        self.look().await
    }

    /// Whether the drill's wall-time budget is spent.
    pub(super) fn out_of_time(&self) -> bool {
        self.wall.elapsed().as_secs() >= self.c.file.drill.timeout_seconds
    }

    /// The server time of the last look.
    pub(super) fn now(&self) -> u64 {
        self.history.last().map_or(0, |l| l.t)
    }

    /// Records one decided case.
    pub(super) fn decide(
        &mut self,
        out: &mut dyn Write,
        name: String,
        passed: bool,
        detail: String,
    ) {
        let at = self.now();
        self.marks.push(Mark {
            t: at,
            kind: "expectation",
            label: format!("{} {name}", if passed { "PASS" } else { "FAIL" }),
        });
        self.verdict.decide(
            out,
            Case {
                name,
                passed,
                detail,
                at,
            },
        );
    }

    /// Runs the method, watching the expectations as it goes, then until each timed one is
    /// settled; the others are decided at the drill's last look (`finish`).
    pub async fn method(&mut self, out: &mut dyn Write) -> Result<(), String> {
        self.started = self.now();
        let started = self.started;
        self.trackers = self
            .c
            .file
            .expect
            .iter()
            .map(|e| Tracker::new(e.get_ref()))
            .collect();
        for t in self.trackers.iter_mut().filter(|t| t.after.is_none()) {
            t.armed_at = Some(started);
        }
        let steps: Vec<Step> = self
            .c
            .file
            .method
            .iter()
            .map(|s| s.get_ref().clone())
            .collect();
        for (i, step) in steps.iter().enumerate() {
            let name = step_name(step, i);
            let _ = writeln!(out, "step {name}");
            self.step_at.insert(name.clone(), self.now());
            self.marks.push(Mark {
                t: self.now(),
                kind: "step",
                label: name.clone(),
            });
            let now = self.now();
            for t in self
                .trackers
                .iter_mut()
                .filter(|t| t.after.as_deref() == Some(name.as_str()))
            {
                t.armed_at = Some(now);
            }
            self.step(step, i).await?;
            self.look().await?;
            if self.out_of_time() {
                self.cut_short(out, &name, steps.len() - i - 1).await;
                break;
            }
        }
        self.settle(out).await
    }

    /// At the drill's last look: every expectation not yet decided is read one last time
    /// (an `always` that never broke held), then all are recorded in the file's order, a
    /// failed one with where its messages were when it failed.
    pub async fn finish(&mut self, out: &mut dyn Write) {
        let mut trackers = std::mem::take(&mut self.trackers);
        let empty = Look::default();
        let last = self.history.last().unwrap_or(&empty);
        let cx = self.context();
        for t in &mut trackers {
            t.finish(last, &cx, self.started);
        }
        for t in trackers {
            let about = t.about();
            let Some((passed, detail)) = t.decided else {
                continue;
            };
            let detail = if passed {
                detail
            } else {
                self.why(detail, &about, t.seen).await
            };
            self.decide(out, t.name, passed, detail);
        }
    }

    /// Where the messages `about` concerns are at the last look.
    fn seen_now(&self, about: &About) -> Whereabouts {
        let empty = Look::default();
        let last = self.history.last().unwrap_or(&empty);
        explain::whereabouts(last, &self.run, about)
    }

    /// A failed check's detail with where its messages were (`seen`, else at the last look)
    /// and the advisor's findings on their queues.
    pub async fn why(&self, detail: String, about: &About, seen: Option<Whereabouts>) -> String {
        let seen = seen.unwrap_or_else(|| self.seen_now(about));
        explain::failure(&self.ep, &detail, &seen).await
    }

    /// The method stopped by `timeout_seconds` in or after step `name`: a failed case, since
    /// what the drill was to show did not all happen.
    async fn cut_short(&mut self, out: &mut dyn Write, name: &str, not_run: usize) {
        let timeout = self.c.file.drill.timeout_seconds;
        let detail = format!(
            "timeout_seconds ({timeout} s of wall time) ran out in step `{name}`; \
             {not_run} later step(s) did not run"
        );
        let detail = self.why(detail, &About::default(), None).await;
        self.decide(
            out,
            "the method ran within timeout_seconds".into(),
            false,
            detail,
        );
    }

    /// The queue `[consumer] must_poll` names, when its time is up and nobody polled it.
    fn unpolled(&self, started: u64) -> Option<String> {
        let consumer = self.c.file.consumer.as_ref()?;
        let queue = consumer.must_poll.as_ref()?.get_ref();
        let (first, last) = (self.history.first()?, self.history.last()?);
        let within = consumer.must_poll_within_seconds.saturating_mul(1000);
        if last.t < started.saturating_add(within) {
            return None;
        }
        let polls = |l: &Look| l.queues.get(queue).map_or(0, |q| q.polls);
        (polls(last) == polls(first)).then(|| queue.clone())
    }

    /// Looks (and on a manual clock moves time) until every timed expectation is settled, the
    /// consumer command exits, or `[consumer] must_poll` finds nobody polling.
    async fn settle(&mut self, out: &mut dyn Write) -> Result<(), String> {
        let started = self.started;
        while !self.settled() && !self.out_of_time() {
            if let Some(exit) = self.consumer.exited() {
                let _ = writeln!(out, "{exit}");
                break;
            }
            if let Some(queue) = self.unpolled(started) {
                let _ = writeln!(
                    out,
                    "no consumer polled {queue} during the drill: start yours on it first, or add \
                     --sample-consumer (a drill file: [consumer] sample) to run sqslite's sample consumer"
                );
                break;
            }
            self.tick().await?;
        }
        Ok(())
    }

    /// What the trackers read against.
    fn context(&self) -> Context<'_> {
        Context {
            run: &self.run,
            sent: &self.sent,
            first: self
                .history
                .first()
                .unwrap_or_else(|| self.history.last().expect("a look")),
            history: &self.history,
            queues: &self.names,
        }
    }

    /// Lets every armed tracker read the last look.
    fn watch_all(&mut self) {
        let mut trackers = std::mem::take(&mut self.trackers);
        if let Some(last) = self.history.last() {
            let cx = self.context();
            for t in &mut trackers {
                t.watch(last, &cx, self.started);
                if matches!(t.decided, Some((false, _))) && t.seen.is_none() {
                    t.seen = Some(explain::whereabouts(last, &self.run, &t.about()));
                }
            }
        }
        self.trackers = trackers;
    }

    /// Whether nothing more can change: every timed expectation decided or past its
    /// deadline (the others are read at the end).
    fn settled(&self) -> bool {
        let now = self.now();
        self.trackers
            .iter()
            .all(|t| t.decided.is_some() || t.deadline().is_none_or(|d| now > d))
    }
}
