//! The workload every store runs, modelled on what sqslite persists per message: a send (the
//! whole message, 1 KiB body plus ~130 B of metadata), a receive (receive count and visibility
//! deadline) and a delete. Records are encoded and read back with sqslite's own codec, so every
//! store holds the same bytes and recovery ends in the same in-memory form.

use std::collections::HashMap;
use std::path::Path;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqslite::durable::codec;
use sqslite::engine::message::Message;
use sqslite::engine::mutation::{Delivery, Mutation, Record};
use uuid::Uuid;

/// The one queue of the workload.
pub const QUEUE: u64 = 7;
pub const BODY_BYTES: usize = 1024;
/// Concurrent producers, as 16 client connections would be.
pub const PRODUCERS: u64 = 16;
/// A fixed "now", so that every run writes the same bytes.
const NOW: u64 = 1_764_547_200_000;

/// The key of message `seq`: the queue's uid in the high bits, the message's slot below (one
/// integer key that sorts by queue, then slot, in every store).
pub fn key(seq: u64) -> u64 {
    (QUEUE << 40) | seq
}

/// A distinct, incompressible-ish body per message (62 letters and digits from a PRNG): a
/// repeated body would let a compressing store (fjall) look better than it is.
fn body(seq: u64) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut state = seq.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = String::with_capacity(BODY_BYTES);
    while out.len() < BODY_BYTES {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        for b in state.to_le_bytes() {
            if out.len() < BODY_BYTES {
                out.push(ALPHABET[usize::from(b) % ALPHABET.len()] as char);
            }
        }
    }
    out
}

fn message(seq: u64) -> Message {
    Message {
        id: Uuid::from_u64_pair(QUEUE, seq),
        body: body(seq).into_boxed_str(),
        md5_of_body: (u128::from(seq) * 0x0123_4567_89AB_CDEF).to_le_bytes(),
        extra: None,
        group_id: None,
        sender_id: Arc::from("AIDAIENQZJOLO23YVJ4VO"),
        sent_at: NOW + seq,
        enqueued_at: NOW + seq,
        first_received_at: None,
        visible_at: NOW + seq,
        receive_count: 0,
        last_receive_offset: 0,
        sequence: 0,
    }
}

/// What a store is handed for one step of a message's life: the codec's bytes of the
/// mutation, and which message it is about (the key-value stores key their tables by it).
pub struct Rec {
    pub kind: Kind,
    pub seq: u64,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Send,
    Receive,
    Delete,
}

impl Rec {
    pub fn send(seq: u64) -> Rec {
        let message = message(seq);
        Rec::encode(
            Kind::Send,
            seq,
            &Mutation::Put {
                queue: QUEUE,
                seq,
                fifo_counter: 0,
                message: &message,
            },
        )
    }

    pub fn receive(seq: u64) -> Rec {
        let delivery = Delivery {
            queue: QUEUE,
            seq,
            receive_count: 1,
            first_received_at: Some(NOW + seq + 5),
            last_receive_offset: 0,
            visible_at: NOW + seq + 30_005,
        };
        Rec::encode(Kind::Receive, seq, &Mutation::Delivery(delivery))
    }

    pub fn delete(seq: u64) -> Rec {
        Rec::encode(Kind::Delete, seq, &Mutation::Removed { queue: QUEUE, seq })
    }

    fn encode(kind: Kind, seq: u64, m: &Mutation<'_>) -> Rec {
        let mut bytes = Vec::with_capacity(1200);
        codec::encode(m, &mut bytes);
        Rec { kind, seq, bytes }
    }
}

/// The state recovery must rebuild: every queued message, whole, in memory.
#[derive(Default)]
pub struct Loaded {
    pub messages: HashMap<u64, Message>,
}

impl Loaded {
    pub fn with_capacity(n: usize) -> Loaded {
        Loaded {
            messages: HashMap::with_capacity(n),
        }
    }

    /// Applies one stored record (a log record, or a table's value).
    pub fn apply(&mut self, bytes: &[u8]) -> Result<(), String> {
        match codec::decode(bytes)? {
            Record::Put { seq, message, .. } => {
                self.messages.insert(seq, message);
            }
            Record::Delivery(d) => {
                if let Some(m) = self.messages.get_mut(&d.seq) {
                    m.receive_count = d.receive_count;
                    m.first_received_at = d.first_received_at;
                    m.last_receive_offset = d.last_receive_offset;
                    m.visible_at = d.visible_at;
                }
            }
            Record::Removed { seq, .. } => {
                self.messages.remove(&seq);
            }
            other => return Err(format!("unexpected record {other:?}")),
        }
        Ok(())
    }

    /// Panics unless exactly messages `first..first + n` are here, bodies intact.
    pub fn check(&self, first: u64, n: u64) {
        assert_eq!(self.messages.len() as u64, n, "messages recovered");
        for seq in [first, first + n / 2, first + n - 1] {
            let m = &self.messages[&seq];
            assert_eq!(&*m.body, body(seq), "body of message {seq}");
            assert_eq!(m.id, Uuid::from_u64_pair(QUEUE, seq));
        }
    }

    /// The Put record of every message, as a snapshot holds them.
    pub fn put_records(&self) -> impl Iterator<Item = Vec<u8>> + '_ {
        self.messages.iter().map(|(seq, message)| {
            let mut bytes = Vec::with_capacity(1200);
            codec::encode(
                &Mutation::Put {
                    queue: QUEUE,
                    seq: *seq,
                    fifo_counter: 0,
                    message,
                },
                &mut bytes,
            );
            bytes
        })
    }
}

/// A producer's way to wait for its write's acknowledgement (reused for every write).
pub struct Ack {
    pub tx: SyncSender<()>,
    pub rx: Receiver<()>,
}

impl Ack {
    pub fn new() -> Ack {
        let (tx, rx) = mpsc::sync_channel(1);
        Ack { tx, rx }
    }
}

/// Runs `n` messages through send, receive and delete on [`PRODUCERS`] threads, each step
/// acknowledged by `write` (which returns once the store made it durable under its policy)
/// before the next; returns messages per second.
pub fn pipeline(n: u64, write: &(dyn Fn(Rec, &Ack) + Sync)) -> f64 {
    let started = Instant::now();
    std::thread::scope(|s| {
        for p in 0..PRODUCERS {
            s.spawn(move || {
                let ack = Ack::new();
                for seq in (p..n).step_by(PRODUCERS as usize) {
                    write(Rec::send(seq), &ack);
                    write(Rec::receive(seq), &ack);
                    write(Rec::delete(seq), &ack);
                }
            });
        }
    });
    n as f64 / started.elapsed().as_secs_f64()
}

/// Bytes the files under `dir` occupy on disk (allocated blocks, as `du` counts them).
pub fn disk_use(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut total = 0;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        total += if meta.is_dir() {
            disk_use(&entry.path())
        } else {
            meta.blocks() * 512
        };
    }
    total
}

/// How long recovery took.
#[derive(Debug, Default, Clone, Copy)]
pub struct Timing {
    /// The best run with the files in the page cache (a process restart).
    pub warm: Duration,
    /// The best run after the files were evicted from the page cache (closer to a reboot).
    pub cold: Duration,
}

/// What the durability scenario measured for one store.
#[derive(Debug, Default, Clone)]
pub struct Durability {
    pub recovery: Timing,
    /// Our log only: recovery from a snapshot of the same messages.
    pub recovery_snapshot: Option<Timing>,
    pub after_sends: u64,
    pub after_deletes: u64,
    pub after_compaction: u64,
}

/// Sizes of the durability scenario.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    pub queued: u64,
    pub deleted: u64,
    /// Recoveries timed each way, warm and cold (the best is reported).
    pub runs: u32,
}

/// Times `f`.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let out = f();
    (out, started.elapsed())
}

/// Runs `recover` (which returns how long its recovery took) `runs` times with the files in
/// the page cache, then `runs` times after evicting them; keeps the best of each. The best,
/// because what else runs on the shared machine only ever adds time to a run.
pub fn recoveries(dir: &Path, runs: u32, mut recover: impl FnMut() -> Duration) -> Timing {
    let runs = runs.max(1);
    let warm = (0..runs).map(|_| recover()).min().unwrap_or_default();
    let cold = (0..runs)
        .map(|_| {
            evict(dir);
            recover()
        })
        .min()
        .unwrap_or_default();
    Timing { warm, cold }
}

/// Drops the files under `dir` from the page cache (written back first: dirty pages stay),
/// without touching the rest of the machine's cache.
fn evict(dir: &Path) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            evict(&path);
        } else if let Ok(file) = std::fs::File::open(&path) {
            let _ = file.sync_all();
            let _ = rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed);
        }
    }
}
