//! Durable mode for a server: lock and recover the data directory into a registry, SNS
//! engine, event source mappings and S3 store whose every change goes to the log (S3's
//! objects' bytes as files beside it, checked against the records at start), and compact
//! the log in the background as it grows.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::journal::LogJournal;
use super::{
    codec, mapping_codec, s3_codec, sns_codec, DataDir, DurableError, FsyncPolicy, Mode, Recovery,
};
use crate::clock::{Millis, Stopwatch};
use crate::s3::engine::disk::{Disk, OBJECTS};
use crate::s3::engine::{FileCheck, Store};
use crate::sns::engine::Sns;
use crate::sqs::engine::receipt::ReceiptKey;
use crate::sqs::engine::replay::Replayer;
use crate::sqs::engine::Registry;
use crate::triggers::Mappings;

/// What durable mode stores: the queues, the SNS topics, the event source mappings and the
/// S3 buckets.
pub type Stores<'a> = (&'a Registry, &'a Sns, &'a Mappings, &'a Store);

/// What a data directory was recovered into.
pub struct Opened {
    pub registry: Registry,
    pub sns: Sns,
    pub mappings: Mappings,
    pub s3: Arc<Store>,
    pub durable: Durable,
}

/// The log is compacted once it is past this size and twice the last snapshot's: disk use
/// stays within about three times what is stored, and compaction cost is amortised.
const MIN_COMPACT_BYTES: u64 = 64 << 20;

/// What a snapshot taken on request wrote.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Snapshot {
    pub generation: u64,
    /// Bytes the snapshot file holds.
    #[serde(rename = "snapshot_bytes")]
    pub bytes: u64,
    /// Bytes copied into the backup directory, when one was asked for.
    pub backup_bytes: Option<u64>,
    pub millis: u64,
}

/// The open data directory of a running server.
#[derive(Debug)]
pub struct Durable {
    data: DataDir,
    compacting: AtomicBool,
    threshold: AtomicU64,
}

/// Locks `dir`, rebuilds the registry, the SNS topics, the event source mappings and the
/// S3 buckets from it and starts logging every change of each. Under
/// [`Mode::Repair`] a damaged file is read around; a snapshot of what was recovered is then
/// written at once, and the damaged files are set aside. The S3 object files may hold
/// `s3_max_bytes` in all (those already stored count, even past it).
pub fn open(
    dir: &Path,
    policy: FsyncPolicy,
    strict: bool,
    mode: Mode,
    now: Millis,
    s3_max_bytes: u64,
) -> Result<Opened, DurableError> {
    let started = Stopwatch::start();
    let locked = DataDir::lock(dir)?;
    let receipts = ReceiptKey::from_secret(&locked.secret()?);
    let journal = Arc::new(LogJournal::default());
    let registry = Registry::with_journal(strict, receipts, journal.clone());
    let sns = Sns::with_journal(journal.clone());
    let mappings = Mappings::with_journal(journal.clone());
    let sync = policy == FsyncPolicy::Always;
    let disk =
        Disk::open(dir, sync, journal.clone(), s3_max_bytes).map_err(|error| DurableError::Io {
            path: dir.join(OBJECTS),
            error,
        })?;
    let s3 = Arc::new(Store::on_disk(disk, journal.clone()));
    let mut replayer = Replayer::new(&registry, now);
    let (data, recovery) = locked.recover(policy, mode, |bytes| {
        if mapping_codec::is_mapping(bytes) {
            mappings.restore(mapping_codec::decode(bytes)?);
            Ok(())
        } else if s3_codec::is_s3(bytes) {
            s3.restore(s3_codec::decode(bytes)?)
        } else if sns_codec::is_sns(bytes) {
            sns.restore(sns_codec::decode(bytes)?, now)
        } else {
            replayer.apply(codec::decode(bytes)?)
        }
    })?;
    let files = check_files(dir, &s3, mode)?;
    journal.start(data.appender());
    tracing::info!(
        dir = %dir.display(),
        fsync = %policy,
        queues = registry.all().len(),
        topics = sns.topic_count(),
        mappings = mappings.len(),
        buckets = s3.all().len(),
        snapshot_records = recovery.snapshot_records,
        log_records = recovery.log_records,
        millis = started.elapsed().as_millis() as u64,
        "data directory recovered"
    );
    let durable = Durable {
        threshold: AtomicU64::new(MIN_COMPACT_BYTES.max(2 * data.appender().log_bytes())),
        data,
        compacting: AtomicBool::new(false),
    };
    if mode == Mode::Repair {
        let stores = (&registry, &sns, &mappings, &*s3);
        finish_repair(dir, &durable, stores, (&recovery, &files), now)?;
    }
    Ok(Opened {
        registry,
        sns,
        mappings,
        s3,
        durable,
    })
}

/// Checks S3's files against the replayed records: damage stops a strict start, naming
/// what it hit; orphans a crash left are removed (set aside by a repair) and counted.
fn check_files(dir: &Path, s3: &Store, mode: Mode) -> Result<FileCheck, DurableError> {
    let files = s3
        .check_files(mode == Mode::Repair)
        .map_err(|error| DurableError::Io {
            path: dir.join(OBJECTS),
            error,
        })?;
    if mode == Mode::Strict {
        if let Some(first) = files.damaged.first() {
            let others = match files.damaged.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            return Err(DurableError::Damaged {
                path: dir.join(OBJECTS),
                detail: format!(
                    "S3 {first}{others}. A repair (--repair) would drop what is damaged and set \
                     its files aside in s3/damaged"
                ),
            });
        }
    }
    if !files.orphans.is_empty() && mode == Mode::Strict {
        tracing::warn!(
            files = files.orphans.len(),
            "removed S3 object files no record names: bodies whose record a crash cut off \
             before the request was answered"
        );
    }
    Ok(files)
}

/// Writes what a repair recovered into a snapshot, sets the damaged files aside and reports
/// each: what it gave back and what it could not.
fn finish_repair(
    dir: &Path,
    durable: &Durable,
    state: Stores<'_>,
    (recovery, files): (&Recovery, &FileCheck),
    now: Millis,
) -> Result<(), DurableError> {
    for damaged in &files.damaged {
        tracing::warn!(dropped = %damaged, "repair: an S3 object or part whose file is damaged was dropped; its file, if any, is in s3/damaged");
    }
    if !files.orphans.is_empty() {
        tracing::warn!(
            files = files.orphans.len(),
            "repair: S3 object files no record names were set aside in s3/damaged"
        );
    }
    if recovery.repaired.is_empty() && files.damaged.is_empty() {
        tracing::info!(dir = %dir.display(), "repair: no damaged file, nothing to repair");
        return Ok(());
    }
    durable
        .compact(state, now)
        .map_err(|error| DurableError::Io {
            path: dir.to_path_buf(),
            error,
        })?;
    for r in &recovery.repaired {
        tracing::warn!(
            file = %r.path.display(),
            moved_to = %r.moved_to.display(),
            recovered = r.recovered,
            could_not_recover = r.lost_records,
            lost_bytes = r.lost_bytes,
            "repair: the damaged file was set aside and a snapshot holds what could be read \
             from it (could_not_recover counts one record per damaged stretch, more where a \
             stretch's framing was damaged); start without --repair from now on"
        );
    }
    let orphans = state.1.orphaned_subscriptions();
    if orphans > 0 {
        tracing::warn!(
            subscriptions = orphans,
            "repair: subscriptions whose topic's record was lost could not be kept either"
        );
    }
    Ok(())
}

impl Durable {
    /// Claims the next compaction when the log has outgrown its threshold and none runs:
    /// `true` means the caller runs [`Durable::compact_claimed`] (on a blocking thread).
    pub fn claim_compaction(&self) -> bool {
        self.data.appender().log_bytes() >= self.threshold.load(Ordering::Relaxed)
            && !self.compacting.swap(true, Ordering::AcqRel)
    }

    /// The compaction [`Durable::claim_compaction`] claimed: the stores' state as of `now`.
    pub fn compact_claimed(&self, state: Stores<'_>, now: Millis) {
        if let Err(e) = self.compact(state, now) {
            tracing::error!(error = %e, "compacting the data directory failed; the log keeps growing");
        }
        self.compacting.store(false, Ordering::Release);
    }

    /// Compacts now (waiting for a compaction already running), then copies the snapshot
    /// and its log into `backup` when given: `POST /_sqslite/snapshot`.
    pub fn snapshot_now(
        &self,
        state: Stores<'_>,
        now: Millis,
        backup: Option<&Path>,
    ) -> io::Result<Snapshot> {
        while self.compacting.swap(true, Ordering::AcqRel) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let started = Stopwatch::start();
        let result = self.compact(state, now).and_then(|(generation, bytes)| {
            let backup_bytes = backup
                .map(|target| self.data.backup(generation, target))
                .transpose()?;
            Ok(Snapshot {
                generation,
                bytes,
                backup_bytes,
                millis: started.elapsed().as_millis() as u64,
            })
        });
        self.compacting.store(false, Ordering::Release);
        result
    }

    /// Writes a snapshot of the queues, the SNS topics and the event source mappings and
    /// drops the log it covers; returns its generation and size.
    pub fn compact(&self, state: Stores<'_>, now: Millis) -> io::Result<(u64, u64)> {
        let (registry, sns, mappings, s3) = state;
        let started = Stopwatch::start();
        let mut buf = Vec::with_capacity(4096);
        let (generation, bytes) = self.data.compact(|w| {
            registry.snapshot(now, &mut |m| {
                buf.clear();
                codec::encode(m, &mut buf);
                w.record(&buf)
            })?;
            sns.snapshot(now, &mut |r| {
                buf.clear();
                sns_codec::encode(r, &mut buf);
                w.record(&buf)
            })?;
            mappings.snapshot(&mut |r| {
                buf.clear();
                mapping_codec::encode(r, &mut buf);
                w.record(&buf)
            })?;
            s3.snapshot(&mut |r| {
                buf.clear();
                s3_codec::encode(r, &mut buf);
                w.record(&buf)
            })
        })?;
        self.threshold
            .store(MIN_COMPACT_BYTES.max(2 * bytes), Ordering::Relaxed);
        tracing::info!(
            snapshot_bytes = bytes,
            millis = started.elapsed().as_millis() as u64,
            "data directory compacted"
        );
        Ok((generation, bytes))
    }
}
