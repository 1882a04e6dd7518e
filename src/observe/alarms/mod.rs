//! Alarms, the seeds of on-call: a dead-letter queue holding messages, a queue with work
//! and no progress, a message waiting too long, and a message received too many times. Each
//! moves OK -> ALARM -> OK on the server's clock, evaluated by the ticker (at deadlines, and
//! after requests mark them stale) and whenever they are read. Changes are logged and sent to
//! the webhook on their own task.
//!
//! An evaluation with 10,000 queues must stay within a few milliseconds, since every scrape
//! and every `GET /_sqslite/alarms` runs one: between evaluations an alarm keeps only a
//! 32-byte `Memory` keyed by its queue's uid and kind, in a vector sorted by that key and
//! merged with the sorted readings; names and reasons are text only when someone reads them
//! ([`render`]).

mod announce;
mod read;
pub mod render;
mod settings;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::clock::Millis;
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;
use announce::announce;
pub use settings::AlarmConfig;

/// What an alarm watches. The order is the order a queue's alarms are read in, which keeps
/// readings and memories sorted by `(uid, kind)` alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    ReceiveCount,
    Stall,
    OldestMessageAge,
    DlqDepth,
}

impl Kind {
    /// Every alarm, for the lists that name them (a drill's `alarm` probe).
    pub const ALL: [Kind; 4] = [
        Kind::ReceiveCount,
        Kind::Stall,
        Kind::OldestMessageAge,
        Kind::DlqDepth,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::ReceiveCount => "receive_count",
            Kind::Stall => "stall",
            Kind::OldestMessageAge => "oldest_message_age",
            Kind::DlqDepth => "dlq_depth",
        }
    }
}

/// One queue's condition as of one evaluation: numbers only, its reason is written from
/// them when read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reading {
    kind: Kind,
    firing: bool,
    value: u64,
    threshold: u64,
    /// `stall`: the messages waiting (visible or in flight), which its reason names.
    work: u64,
}

/// What an alarm remembers between evaluations. `last_fired_at` means something only when
/// `times_fired > 0` (every firing sets both).
#[derive(Debug, Clone, Copy)]
struct Memory {
    uid: u64,
    since: Millis,
    last_fired_at: Millis,
    times_fired: u32,
    kind: Kind,
    firing: bool,
}

impl Memory {
    fn key(&self) -> (u64, Kind) {
        (self.uid, self.kind)
    }
}

/// One alarm as of one evaluation: its queue, what was read and its history. Serialized
/// (name, kind, queue, region, account, state, value, threshold, reason, since,
/// last_fired_at, times_fired) for the admin API and the webhook.
#[derive(Debug, Clone)]
pub struct Alarm {
    queue: Arc<Queue>,
    /// Where its queue is in the list evaluated (by name when evaluated for reading).
    rank: usize,
    reading: Reading,
    memory: Memory,
}

impl Alarm {
    pub fn kind(&self) -> Kind {
        self.reading.kind
    }

    pub fn queue(&self) -> &Queue {
        &self.queue
    }

    pub fn firing(&self) -> bool {
        self.memory.firing
    }

    /// `ALARM` or `OK`.
    pub fn state(&self) -> &'static str {
        if self.firing() {
            "ALARM"
        } else {
            "OK"
        }
    }

    pub fn value(&self) -> u64 {
        self.reading.value
    }

    pub fn threshold(&self) -> u64 {
        self.reading.threshold
    }

    /// When the alarm entered its current state (server clock, ms).
    pub fn since(&self) -> Millis {
        self.memory.since
    }

    pub fn last_fired_at(&self) -> Option<Millis> {
        (self.memory.times_fired > 0).then_some(self.memory.last_fired_at)
    }

    pub fn times_fired(&self) -> u64 {
        u64::from(self.memory.times_fired)
    }
}

/// Every queue's alarms, read from the SQS engine's queues against their own settings.
#[derive(Debug, Default)]
pub struct Alarms {
    /// `[alarms]`: the thresholds and the webhook.
    cfg: AlarmConfig,
    /// Where a change of state is marked for the dashboard's chart.
    series: Arc<crate::observe::series::Recorder>,
    /// Where the webhook may be called (the server's outbound rule).
    pub outbound: Arc<crate::http::outbound::Outbound>,
    stale: AtomicBool,
    next_due: AtomicU64,
    /// Every alarm's memory and the buffers an evaluation reuses.
    book: Mutex<Book>,
}

/// The memories, sorted by `(uid, kind)`, and what an evaluation would otherwise allocate
/// anew each round: with 10,000 queues, megabytes per round that an idle allocator keeps
/// resident (the ticker evaluates after every burst of requests).
#[derive(Debug, Default)]
struct Book {
    states: Vec<Memory>,
    /// The next round's memories are written here, then swapped with `states`.
    spare: Vec<Memory>,
    /// The ticker's list of queues (emptied after each round: it must not keep a deleted
    /// queue alive).
    queues: Vec<Arc<Queue>>,
    by_uid: Vec<u32>,
    targets: rustc_hash::FxHashSet<u64>,
}

impl Alarms {
    /// The alarms of a server configured with `cfg`, marking their changes in `series`.
    pub fn new(cfg: AlarmConfig, series: Arc<crate::observe::series::Recorder>) -> Self {
        Alarms {
            cfg,
            series,
            ..Alarms::default()
        }
    }

    /// Called after each SQS request: the next ticker round re-evaluates. One load when
    /// already stale, so a burst of requests costs one evaluation.
    pub fn touch(&self, ticker: &tokio::sync::Notify) {
        if !self.stale.load(Ordering::Relaxed) && !self.stale.swap(true, Ordering::Relaxed) {
            ticker.notify_one();
        }
    }

    pub fn clear(&self) {
        self.book
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .states
            .clear();
        self.stale.store(true, Ordering::Relaxed);
    }

    /// For the ticker: evaluates when stale or due; returns the next instant to look again.
    pub fn tick(&self, registry: &Registry, now: Millis) -> Option<Millis> {
        let due = self.next_due.load(Ordering::Relaxed);
        if self.stale.swap(false, Ordering::Relaxed) || (due != 0 && now >= due) {
            let mut book = self.book.lock().unwrap_or_else(PoisonError::into_inner);
            let mut queues = std::mem::take(&mut book.queues);
            registry.all_into(&mut queues);
            self.update(registry, &mut book, &queues, now, false);
            queues.clear();
            book.queues = queues;
        }
        match self.next_due.load(Ordering::Relaxed) {
            0 => None,
            t => Some(t),
        }
    }

    /// Brings every alarm up to `now` and returns them all, by name.
    pub fn evaluate(&self, registry: &Registry, now: Millis) -> Vec<Alarm> {
        let mut queues = registry.sorted();
        render::order_by_name(&mut queues);
        self.evaluate_ordered(registry, &queues, now)
    }

    /// [`Alarms::evaluate`] over every queue, given in [`render::order_by_name`]'s order
    /// (a scrape lists its other series in the same order).
    pub fn evaluate_ordered(
        &self,
        registry: &Registry,
        queues: &[Arc<Queue>],
        now: Millis,
    ) -> Vec<Alarm> {
        let mut book = self.book.lock().unwrap_or_else(PoisonError::into_inner);
        let mut alarms = self.update(registry, &mut book, queues, now, true);
        drop(book);
        alarms.sort_unstable_by_key(|a| (render::kind_rank(a.kind()), a.rank));
        alarms
    }

    /// Brings every alarm up to `now` and announces the changes; with `collect`, returns
    /// them all (by uid). The ticker's rounds collect nothing: a list of 15,000 alarms per
    /// round was megabytes an idle allocator keeps resident.
    fn update(
        &self,
        registry: &Registry,
        book: &mut Book,
        queues: &[Arc<Queue>],
        now: Millis,
        collect: bool,
    ) -> Vec<Alarm> {
        let Book {
            states,
            spare,
            by_uid,
            targets,
            ..
        } = book;
        let mut reader = read::Reader::new(registry, &self.cfg, queues, now, targets);
        by_uid.clear();
        by_uid.extend(0..queues.len() as u32);
        by_uid.sort_unstable_by_key(|&i| queues[i as usize].uid);
        spare.clear();
        let kept = spare;
        let mut old = states.iter().copied().peekable();
        let (mut alarms, mut changed) = (Vec::new(), Vec::new());
        for &rank in by_uid.iter() {
            let rank = rank as usize;
            let queue = &queues[rank];
            reader.read(queue, |reading| {
                let (memory, change) = remember(&mut old, queue.uid, reading, now);
                kept.push(memory);
                if collect || change {
                    let alarm = Alarm {
                        queue: queue.clone(),
                        rank,
                        reading,
                        memory,
                    };
                    if change {
                        changed.push(alarm.clone());
                    }
                    if collect {
                        alarms.push(alarm);
                    }
                }
            });
        }
        drop(old);
        std::mem::swap(states, kept);
        self.next_due
            .store(reader.next_due().unwrap_or(0), Ordering::Relaxed);
        for alarm in &changed {
            announce(&self.cfg, (&self.series, &self.outbound), alarm);
        }
        alarms
    }
}

/// The memory of the alarm `reading` is about, brought to `now`, and whether its state
/// changed. `old` yields the previous memories sorted by `(uid, kind)`, as readings come:
/// memories of alarms that are gone are skipped on the way.
fn remember(
    old: &mut std::iter::Peekable<impl Iterator<Item = Memory>>,
    uid: u64,
    reading: Reading,
    now: Millis,
) -> (Memory, bool) {
    let key = (uid, reading.kind);
    while old.next_if(|m| m.key() < key).is_some() {}
    let mut memory = old.next_if(|m| m.key() == key).unwrap_or(Memory {
        uid,
        since: now,
        last_fired_at: 0,
        times_fired: 0,
        kind: reading.kind,
        firing: false,
    });
    let change = memory.firing != reading.firing;
    if change {
        memory.firing = reading.firing;
        memory.since = now;
        if reading.firing {
            memory.last_fired_at = now;
            memory.times_fired = memory.times_fired.saturating_add(1);
        }
    }
    (memory, change)
}
