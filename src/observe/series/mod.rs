//! The time-series recorder behind the dashboard's chart: each queue's visible, in-flight and
//! delayed counts and oldest-message age, sampled on the server's clock into a bounded ring
//! per queue; alarm changes and injected faults to mark on it; and named counter series that
//! other parts of the server feed (a trigger mapping's invocations and errors).
//!
//! It costs nothing while nobody watches: the dashboard's reads (the queue list and the chart,
//! [`Recorder::watch`]) mark the server watched for [`WATCH_MS`] of server time, so a queue's
//! chart has history from when the dashboard was opened; only then does the ticker take a round
//! of samples, one per [`INTERVAL_MS`] slot (waking at the next slot, never polling faster).
//! A round reads each queue through [`Queue::depth`] (one short lock per queue, as the alarms
//! and `/metrics` take) with the recorder's own lock not held. Slots are aligned on the server
//! clock, so on a manual clock each advance into a new slot gives a sample at that instant,
//! and a chart read within a slot refreshes its queues' point to the newest state.
//! Marks (alarm changes, fault hits) and named series are kept whether watched or not: they
//! are rare and bounded, and a chart opened after a drill still shows them.
//!
//! Memory: at most [`CAPACITY`] points of 32 bytes each per queue, for at most
//! [`MAX_QUEUES`] queues (beyond that, only the queues charted lately): about 10 MB at worst.

pub mod events;
mod ring;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

pub use events::{Event, What};
use ring::{slot, Ring};

use crate::clock::Millis;
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;

/// One sample per this many ms of server time at most.
pub const INTERVAL_MS: Millis = 2_000;
/// How much history a series keeps: the last 10 minutes of server time.
pub const WINDOW_MS: Millis = 10 * 60 * 1_000;
/// Samples per series at most: the window's slots.
pub const CAPACITY: usize = (WINDOW_MS / INTERVAL_MS) as usize + 1;
/// How long after the last chart read the ticker keeps sampling.
pub const WATCH_MS: Millis = 5 * 60 * 1_000;
/// With more queues than this, a round samples only the queues charted lately.
pub const MAX_QUEUES: usize = 1_000;
/// Named series kept at most; a new one beyond is dropped until an old one goes stale.
const MAX_NAMED: usize = 1_000;

/// One queue's numbers at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Sample {
    pub visible: u32,
    pub in_flight: u32,
    pub delayed: u32,
    /// `None` when the queue holds no message.
    pub oldest_message_age_seconds: Option<u32>,
}

impl Sample {
    fn read(q: &Queue, now: Millis) -> Sample {
        let d = q.depth(now);
        let small = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Sample {
            visible: small(d.visible),
            in_flight: small(d.in_flight),
            delayed: small(d.delayed),
            oldest_message_age_seconds: d
                .oldest_enqueued_at
                .map(|t| u32::try_from(now.saturating_sub(t) / 1_000).unwrap_or(u32::MAX)),
        }
    }
}

/// A named series' counters in one slot, by field (`invocations`, `errors`, ...).
pub type Counts = BTreeMap<&'static str, u64>;

/// A point of a series: its instant and its values, flattened into one JSON object.
#[derive(Debug, Clone, Serialize)]
pub struct Point<T> {
    pub t: Millis,
    #[serde(flatten)]
    pub value: T,
}

/// A named series as read: its name, the ARN it is about and its points.
#[derive(Debug, Clone, Serialize)]
pub struct Named {
    pub name: String,
    pub subject: String,
    pub points: Vec<Point<Counts>>,
}

/// What a chart shows: each asked queue's samples (in the order asked), the named series
/// about the asked subjects, and the marks about the asked queues.
#[derive(Debug, Clone)]
pub struct Chart {
    pub queues: Vec<Vec<Point<Sample>>>,
    pub named: Vec<Named>,
    pub events: Vec<Event>,
}

/// The recorder; one per server.
#[derive(Debug, Default)]
pub struct Recorder {
    /// The server-clock instant until which someone watches; 0 when nobody has.
    watched_until: AtomicU64,
    book: Mutex<Book>,
}

#[derive(Debug, Default)]
struct Book {
    queues: FxHashMap<u64, Ring<Sample>>,
    /// Queues a chart asked for, by uid, with when: sampled even beyond [`MAX_QUEUES`].
    charted: FxHashMap<u64, Millis>,
    /// By (subject, name).
    named: BTreeMap<(String, String), Ring<Counts>>,
    events: events::Events,
    /// The slot of the last round, so a round runs once per slot.
    last_slot: Option<Millis>,
}

impl Recorder {
    fn book(&self) -> MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a chart was read within the last [`WATCH_MS`] of server time.
    pub fn watching(&self, now: Millis) -> bool {
        let until = self.watched_until.load(Ordering::Relaxed);
        until != 0 && now <= until
    }

    /// Marks the server watched for [`WATCH_MS`] from `now`; `true` when nobody watched
    /// before, and the ticker should re-plan to wake for the next sample.
    pub fn watch(&self, now: Millis) -> bool {
        let was = self.watching(now);
        self.watched_until
            .fetch_max(now.saturating_add(WATCH_MS), Ordering::Relaxed);
        !was
    }

    /// For the ticker: while watched, takes the round of `now`'s slot if not yet taken, and
    /// returns the start of the next slot; `None` (no wake-up) while nobody watches.
    pub fn tick(&self, registry: &Registry, now: Millis) -> Option<Millis> {
        if !self.watching(now) {
            return None;
        }
        if self.book().last_slot != Some(slot(now)) {
            self.round(registry, now);
        }
        Some((slot(now) + 1).saturating_mul(INTERVAL_MS))
    }

    /// Samples every queue (or, beyond [`MAX_QUEUES`], the charted ones) at `now`.
    fn round(&self, registry: &Registry, now: Millis) {
        let queues = registry.all();
        let charted: FxHashSet<u64> = if queues.len() > MAX_QUEUES {
            self.book().charted.keys().copied().collect()
        } else {
            FxHashSet::default()
        };
        let readings: Vec<(u64, Sample)> = queues
            .iter()
            .filter(|q| queues.len() <= MAX_QUEUES || charted.contains(&q.uid))
            .map(|q| (q.uid, Sample::read(q, now)))
            .collect();
        let present: FxHashSet<u64> = queues.iter().map(|q| q.uid).collect();
        let mut book = self.book();
        for (uid, sample) in readings {
            book.queues.entry(uid).or_default().put(now, sample);
        }
        book.queues
            .retain(|uid, ring| present.contains(uid) && !ring.stale(now));
        book.charted
            .retain(|uid, t| present.contains(uid) && t.saturating_add(WATCH_MS) >= now);
        book.last_slot = Some(slot(now));
    }

    /// The chart of `queues` and of the named series about `subjects`, with the marks about
    /// those queues. Marks the server watched and samples these queues at `now` first, so
    /// the newest point is the state as of this read.
    pub fn chart(&self, queues: &[&Queue], subjects: &[String], now: Millis) -> Chart {
        self.watch(now);
        let readings: Vec<(u64, Sample)> = queues
            .iter()
            .map(|q| (q.uid, Sample::read(q, now)))
            .collect();
        let mut book = self.book();
        for &(uid, sample) in &readings {
            book.charted.insert(uid, now);
            let ring = book.queues.entry(uid).or_default();
            ring.put(now, sample);
            ring.trim(now);
        }
        let book = &*book;
        let points = |ring: &Ring<Sample>| {
            ring.iter()
                .map(|&(t, value)| Point { t, value })
                .collect::<Vec<_>>()
        };
        let series = readings
            .iter()
            .map(|(uid, _)| book.queues.get(uid).map(points).unwrap_or_default())
            .collect();
        Chart {
            queues: series,
            named: named_about(book, subjects, now),
            events: events_about(book, queues, now),
        }
    }

    /// Marks an alarm of `queue` entering ALARM (`firing`) or OK.
    pub fn alarm(&self, now: Millis, queue: &Queue, alarm: &'static str, firing: bool) {
        self.book().events.push(Event {
            t: now,
            queue: Some(queue.key.name.clone()),
            uid: Some(queue.uid),
            what: What::Alarm {
                alarm,
                state: if firing { "ALARM" } else { "OK" },
            },
        });
    }

    /// Marks a fault rule's hit on a call of `action` naming `queue` (as the call named it).
    fn mark_fault(
        &self,
        now: Millis,
        rule: u64,
        action: &str,
        queue: Option<&str>,
        effect: String,
    ) {
        self.book().events.push(Event {
            t: now,
            queue: queue.map(str::to_owned),
            uid: None,
            what: What::Fault {
                rule,
                action: action.to_owned(),
                effect,
                hits: 1,
            },
        });
    }

    /// Adds `n` to `field` of the series `name` about `subject` (an ARN: a mapping's series
    /// are about its queue, so the queue's chart shows them), in `now`'s slot. The trigger
    /// poller counts `invocations` and `errors` as `mapping <uuid>` about its queue.
    pub fn count(&self, subject: &str, name: &str, field: &'static str, now: Millis, n: u64) {
        let mut book = self.book();
        let key = (subject.to_owned(), name.to_owned());
        if !book.named.contains_key(&key) && book.named.len() >= MAX_NAMED {
            book.named.retain(|_, ring| !ring.stale(now));
            if book.named.len() >= MAX_NAMED {
                return;
            }
        }
        let ring = book.named.entry(key).or_default();
        ring.update(now, |counts| *counts.entry(field).or_default() += n);
    }

    /// Forgets every series and mark (the server's reset).
    pub fn clear(&self) {
        let mut book = self.book();
        *book = Book::default();
    }
}

fn named_about(book: &Book, subjects: &[String], now: Millis) -> Vec<Named> {
    let from = now.saturating_sub(WINDOW_MS);
    book.named
        .iter()
        .filter(|((subject, _), _)| subjects.contains(subject))
        .map(|((subject, name), ring)| Named {
            name: name.clone(),
            subject: subject.clone(),
            points: ring
                .iter()
                .filter(|(t, _)| *t >= from)
                .map(|(t, value)| Point {
                    t: *t,
                    value: value.clone(),
                })
                .collect(),
        })
        .collect()
}

/// Alarm marks of these queues (by uid), and fault marks naming one of them or no queue,
/// within the window ending at `now`.
fn events_about(book: &Book, queues: &[&Queue], now: Millis) -> Vec<Event> {
    let from = now.saturating_sub(WINDOW_MS);
    book.events
        .iter()
        .filter(|e| e.t >= from)
        .filter(|e| match (e.uid, e.queue.as_deref()) {
            (Some(uid), _) => queues.iter().any(|q| q.uid == uid),
            (None, Some(name)) => queues.iter().any(|q| q.key.name == name),
            (None, None) => true,
        })
        .cloned()
        .collect()
}

/// The fault rules mark their hits here.
impl crate::faults::inject::Marks for Recorder {
    fn fault(&self, now: Millis, rule: u64, action: &str, queue: Option<&str>, effect: String) {
        self.mark_fault(now, rule, action, queue, effect);
    }
}

/// The trigger pollers count their invocations and errors here.
impl crate::triggers::Tally for Recorder {
    fn count(&self, subject: &str, name: &str, field: &'static str, now: Millis, n: u64) {
        Recorder::count(self, subject, name, field, now, n);
    }
}
