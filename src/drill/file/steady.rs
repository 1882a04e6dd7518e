//! The steady state: each probe read before the method (it must hold at once, or nothing is
//! sent) and after it (each may take its `within_seconds` to hold again).

use std::io::Write;

use super::engine::Drill;
use super::explain::About;
use super::look::{self, Look};
use super::spec::Probe;

impl Drill<'_> {
    /// Checks the steady state; `within` true lets each probe take its `within_seconds`.
    pub async fn steady_state(
        &mut self,
        out: &mut dyn Write,
        when: &str,
        within: bool,
    ) -> Result<bool, String> {
        let probes: Vec<Probe> = self
            .c
            .file
            .steady_state
            .iter()
            .map(|p| p.get_ref().clone())
            .collect();
        let start = self.now();
        let mut all = true;
        for (p, name) in probes.iter().zip(names(&probes)) {
            let budget = if within {
                p.within_seconds.unwrap_or(0).saturating_mul(1000)
            } else {
                0
            };
            let held = loop {
                let (held, words) = self.probe_holds(p, start);
                if held
                    || self.now() >= start.saturating_add(budget)
                    || self.out_of_time()
                    || !self.manual && budget == 0
                {
                    break (held, words);
                }
                self.tick().await?;
            };
            let name = format!("steady state {when}: {name}");
            let detail = format!("{} (tolerance {})", held.1, look::tolerance(p));
            all &= held.0;
            let detail = if held.0 {
                detail
            } else {
                self.why(detail, &about(p), None).await
            };
            self.decide(out, name, held.0, detail);
        }
        Ok(all)
    }

    /// Whether a probe holds at the last look, and the reading.
    fn probe_holds(&self, p: &Probe, since: u64) -> (bool, String) {
        let empty = Look::default();
        let last = self.history.last().unwrap_or(&empty);
        let on = p.queue.as_ref().map_or("", |q| q.get_ref().as_str());
        if p.measure() == "alarm" {
            let held = look::alarm_holds(p, last, since);
            return (
                held,
                format!(
                    "alarm {} on {on}: {}",
                    p.alarm.as_deref().unwrap_or(""),
                    if held { "held" } else { "did not hold" }
                ),
            );
        }
        let v = look::value(p, last, &self.history, &self.run).unwrap_or(f64::NAN);
        (
            look::within(p, v),
            format!("{} of {on} was {v}", p.measure()),
        )
    }
}

/// Each probe's name in the verdict: its own, or what it reads (`depth of payments, kind
/// `valid``); two that read alike get their place too (`#2`), so that every probe is a case of
/// its own: JUnit readers merge cases of one name.
fn names(probes: &[Probe]) -> Vec<String> {
    let read: Vec<String> = probes.iter().map(reads).collect();
    probes
        .iter()
        .zip(&read)
        .enumerate()
        .map(|(i, (p, r))| match &p.name {
            Some(name) => name.clone(),
            None if read.iter().filter(|o| *o == r).count() > 1 => format!("{r} #{}", i + 1),
            None => r.clone(),
        })
        .collect()
}

/// What a probe reads, in words.
fn reads(p: &Probe) -> String {
    let on = p.queue.as_ref().map(|q| q.get_ref().as_str());
    let mut words = match (p.measure(), on) {
        ("alarm", Some(q)) => format!(
            "alarm {} {} on {q}",
            p.alarm.as_deref().unwrap_or_default(),
            p.state.as_deref().unwrap_or_default()
        ),
        (measure, Some(q)) => format!("{measure} of {q}"),
        (measure, None) => measure.to_owned(),
    };
    for (key, value) in [("kind", &p.kind), ("group", &p.group)] {
        if let Some(value) = value {
            words = format!("{words}, {key} `{value}`");
        }
    }
    words
}

/// What a probe is about, for the words of its failure.
fn about(p: &Probe) -> About {
    About {
        kind: p.kind.clone(),
        queue: p.queue.as_ref().map(|q| q.get_ref().clone()),
    }
}
