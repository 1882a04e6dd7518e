//! The embedded stores behind one trait, and the group commit that feeds them: one writer
//! thread takes every producer's record, applies all that are waiting in one transaction and
//! acknowledges them together, as sqslite's log writer does for its own file. The scenarios
//! (pipeline, durability) are the same for each store.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::workload::{self, Durability, Loaded, Rec, Sizes};
use crate::Policy;

/// The interval policy's longest time between syncs, sqslite's default.
pub const INTERVAL: Duration = Duration::from_millis(200);
/// At most this many bytes go into one transaction, as in sqslite's writer.
const MAX_BATCH_BYTES: usize = 8 << 20;
/// Messages per transaction when filling or emptying a store in bulk.
const BULK: u64 = 1000;

/// One embedded store, opened on a directory.
pub trait Backend: Sized + Send + 'static {
    /// Creates or opens the store in `dir`, set up for `policy`.
    fn open(dir: &Path, policy: Policy) -> Self;
    /// Applies `recs` in one transaction; with `sync`, durable on return.
    fn commit(&mut self, recs: Vec<Rec>, sync: bool);
    /// Makes every earlier commit durable.
    fn sync(&mut self);
    /// The store's own compaction or checkpoint, if it has one.
    fn compact(&mut self);
    /// Opens the store and reads every message into memory: the recovery being timed.
    fn load(dir: &Path, expected: usize) -> Loaded;
}

struct Job {
    rec: Rec,
    ack: SyncSender<()>,
}

/// The writer thread in front of a store.
struct GroupCommit<B> {
    tx: Option<mpsc::Sender<Job>>,
    handle: Option<JoinHandle<B>>,
}

impl<B: Backend> GroupCommit<B> {
    fn start(backend: B, policy: Policy) -> Self {
        let (tx, rx) = mpsc::channel();
        let handle = std::thread::spawn(move || run(backend, policy, &rx));
        GroupCommit {
            tx: Some(tx),
            handle: Some(handle),
        }
    }

    fn write(&self, rec: Rec, ack: &workload::Ack) {
        let job = Job {
            rec,
            ack: ack.tx.clone(),
        };
        self.tx
            .as_ref()
            .expect("running")
            .send(job)
            .expect("writer alive");
        ack.rx.recv().expect("writer acknowledges");
    }

    /// Stops the thread after a last sync; returns the store.
    fn finish(mut self) -> B {
        drop(self.tx.take());
        self.handle
            .take()
            .expect("running")
            .join()
            .expect("writer thread")
    }
}

fn run<B: Backend>(mut backend: B, policy: Policy, rx: &Receiver<Job>) -> B {
    let mut since_sync = Instant::now();
    let mut dirty = false;
    let mut recs = Vec::new();
    let mut acks = Vec::new();
    loop {
        let first = if dirty && policy == Policy::Interval {
            rx.recv_timeout(INTERVAL.saturating_sub(since_sync.elapsed()))
        } else {
            rx.recv().map_err(|_| RecvTimeoutError::Disconnected)
        };
        let job = match first {
            Ok(job) => job,
            Err(RecvTimeoutError::Timeout) => {
                backend.sync();
                (dirty, since_sync) = (false, Instant::now());
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let mut bytes = job.rec.bytes.len();
        recs.push(job.rec);
        acks.push(job.ack);
        while bytes < MAX_BATCH_BYTES {
            let Ok(job) = rx.try_recv() else { break };
            bytes += job.rec.bytes.len();
            recs.push(job.rec);
            acks.push(job.ack);
        }
        let sync = policy == Policy::Always || since_sync.elapsed() >= INTERVAL;
        backend.commit(std::mem::take(&mut recs), sync);
        if sync {
            (dirty, since_sync) = (false, Instant::now());
        } else {
            dirty = true;
        }
        for ack in acks.drain(..) {
            let _ = ack.send(());
        }
    }
    backend.sync();
    backend
}

/// Send, receive and delete through the group commit; messages per second.
pub fn pipeline<B: Backend>(dir: &Path, policy: Policy, n: u64) -> f64 {
    let writer = GroupCommit::start(B::open(dir, policy), policy);
    let rate = workload::pipeline(n, &|rec, ack| writer.write(rec, ack));
    drop(writer.finish());
    rate
}

fn bulk<B: Backend>(backend: &mut B, seqs: std::ops::Range<u64>, rec: fn(u64) -> Rec) {
    let mut start = seqs.start;
    while start < seqs.end {
        let end = (start + BULK).min(seqs.end);
        backend.commit((start..end).map(rec).collect(), false);
        start = end;
    }
    backend.sync();
}

/// Fills the store, times its recovery, deletes most messages, compacts; measuring disk use
/// after each step (with the store closed, so that what is on disk is all there is).
pub fn durability<B: Backend>(dir: &Path, sizes: Sizes) -> Durability {
    let mut out = Durability::default();
    let mut backend = B::open(dir, Policy::Interval);
    bulk(&mut backend, 0..sizes.queued, Rec::send);
    drop(backend);
    out.after_sends = workload::disk_use(dir);

    out.recovery = workload::recoveries(dir, sizes.runs, || {
        let (loaded, took) = workload::timed(|| B::load(dir, sizes.queued as usize));
        loaded.check(0, sizes.queued);
        took
    });

    let mut backend = B::open(dir, Policy::Interval);
    bulk(&mut backend, 0..sizes.deleted, Rec::delete);
    drop(backend);
    out.after_deletes = workload::disk_use(dir);

    let mut backend = B::open(dir, Policy::Interval);
    backend.compact();
    drop(backend);
    out.after_compaction = workload::disk_use(dir);
    B::load(dir, 0).check(sizes.deleted, sizes.queued - sizes.deleted);
    out
}

/// `dir/name`, created.
pub fn file_in(dir: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(dir).expect("create the store's directory");
    dir.join(name)
}
