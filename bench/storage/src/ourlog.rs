//! sqslite's own log, driven through its real code: `DataDir` (lock, recovery, compaction),
//! its `Appender` and single writer thread (group commit), the CRC32 frames and the codec.
//! Nothing here re-implements them: this is what `--data-dir` runs per record.

use std::path::Path;
use std::time::Duration;

use sqslite::durable::{DataDir, FsyncPolicy, Pending};

use crate::workload::{self, Durability, Loaded, Rec, Sizes};
use crate::Policy;

fn fsync(policy: Policy) -> FsyncPolicy {
    match policy {
        Policy::Interval => FsyncPolicy::Interval(Duration::from_millis(200)),
        Policy::Always => FsyncPolicy::Always,
    }
}

fn open(dir: &Path, policy: Policy, loaded: &mut Loaded) -> DataDir {
    let (data, _) =
        DataDir::open(dir, fsync(policy), |bytes| loaded.apply(bytes)).expect("open the log");
    data
}

fn wait(pending: Pending) {
    pending
        .blocking_recv()
        .expect("the log writer answers")
        .expect("the record is written");
}

/// Each producer appends and waits for the acknowledgement, as a request does in
/// `durable::journal` before it answers.
pub fn pipeline(dir: &Path, policy: Policy, n: u64) -> f64 {
    let data = open(dir, policy, &mut Loaded::default());
    let appender = data.appender();
    let rate = workload::pipeline(n, &|rec: Rec, _| wait(appender.append(rec.bytes)));
    data.close();
    rate
}

/// Appends without waiting for each record (the writer batches them), then waits for the last.
fn append_all(data: &DataDir, recs: impl Iterator<Item = Vec<u8>>) {
    let appender = data.appender();
    let mut last = None;
    for bytes in recs {
        last = Some(appender.append(bytes));
    }
    if let Some(pending) = last {
        wait(pending);
    }
}

/// Opens the log, times the recovery, checks it found messages `first..first + n`.
fn recover(dir: &Path, first: u64, n: u64) -> (DataDir, Loaded, Duration) {
    let mut loaded = Loaded::with_capacity(n as usize);
    let (data, took) = workload::timed(|| open(dir, Policy::Interval, &mut loaded));
    loaded.check(first, n);
    (data, loaded, took)
}

/// Fills the log, recovers from it, snapshots, recovers from the snapshot, deletes most
/// messages, compacts; measuring time and disk as it goes.
pub fn durability(dir: &Path, sizes: Sizes) -> Durability {
    let n = sizes.queued;
    let mut out = Durability::default();
    let data = open(dir, Policy::Interval, &mut Loaded::default());
    append_all(&data, (0..n).map(|seq| Rec::send(seq).bytes));
    data.close();
    out.after_sends = workload::disk_use(dir);
    let timed_recovery = || {
        let (data, _, took) = recover(dir, 0, n);
        data.close();
        took
    };
    out.recovery = workload::recoveries(dir, sizes.runs, timed_recovery);

    let (data, loaded, _) = recover(dir, 0, n);
    compact(&data, &loaded);
    data.close();
    drop(loaded);
    out.recovery_snapshot = Some(workload::recoveries(dir, sizes.runs, timed_recovery));

    let data = open(dir, Policy::Interval, &mut Loaded::default());
    append_all(&data, (0..sizes.deleted).map(|seq| Rec::delete(seq).bytes));
    data.close();
    out.after_deletes = workload::disk_use(dir);

    let (data, loaded, _) = recover(dir, sizes.deleted, n - sizes.deleted);
    compact(&data, &loaded);
    data.close();
    out.after_compaction = workload::disk_use(dir);
    out
}

/// What sqslite's compaction does: a snapshot of every stored message, then the log it covers
/// goes.
fn compact(data: &DataDir, loaded: &Loaded) {
    data.compact(|w| {
        for bytes in loaded.put_records() {
            w.record(&bytes)?;
        }
        Ok(())
    })
    .expect("compact the log");
}
