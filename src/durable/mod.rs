//! Durable storage for `--data-dir`: an append-only, checksummed log of opaque records plus
//! snapshots that compact it, an exclusive directory lock, and recovery that replays
//! snapshot + log and cuts off a torn or corrupt tail. It knows nothing of queues: the
//! engine's mutations arrive as bytes.
//!
//! Layout of a directory: `LOCK` (holder's pid), `snapshot-<g>.sqsl` (state as of the start
//! of generation `g`) and `log-<g>.sqsl`, `log-<g+1>.sqsl`… (records since). Compaction
//! rotates the log to a new generation, writes the snapshot of that generation, then removes
//! what it covers. The snapshot is taken while writes go on, so it may already contain
//! effects of records at the start of its log: records must therefore be idempotent
//! (absolute assignments, not increments) so that replaying them over a later state converges.

mod backup;
pub mod codec;
mod files;
pub mod frame;
pub mod journal;
mod lock;
pub mod mode;
mod writer;

#[cfg(test)]
mod tests;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

pub use files::SnapshotWriter;
pub use frame::BadTail;
pub use writer::{Appender, Pending};

use files::DirFiles;
use frame::{FileKind, HeaderError, HEADER_LEN};
use lock::{DirLock, LockError};
use writer::WriterThread;

/// The default `--fsync`: safe from a process crash at once, from a power loss within
/// 200 ms, at a fraction of `always`'s cost (BENCHMARKS.md, "Durable mode").
pub const DEFAULT_FSYNC: FsyncPolicy = FsyncPolicy::Interval(Duration::from_millis(200));

/// When the log is flushed to stable storage (`--fsync`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FsyncPolicy {
    /// Acknowledge after `fdatasync`; concurrent requests share one sync (group commit).
    Always,
    /// Acknowledge after `write` (safe from a process crash); sync at most this often, so a
    /// power loss can take the last interval.
    Interval(Duration),
    /// Acknowledge after `write`; leave syncing to the OS.
    Never,
}

impl FromStr for FsyncPolicy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "always" => Ok(FsyncPolicy::Always),
            "never" => Ok(FsyncPolicy::Never),
            _ => s
                .strip_prefix("interval=")
                .and_then(|ms| ms.trim_end_matches("ms").parse::<u64>().ok())
                .filter(|ms| *ms > 0)
                .map(|ms| FsyncPolicy::Interval(Duration::from_millis(ms)))
                .ok_or_else(|| {
                    format!("invalid fsync policy {s:?}: use always, never or interval=<ms>")
                }),
        }
    }
}

impl fmt::Display for FsyncPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FsyncPolicy::Always => f.write_str("always"),
            FsyncPolicy::Never => f.write_str("never"),
            FsyncPolicy::Interval(d) => write!(f, "interval={}", d.as_millis()),
        }
    }
}

/// A record that could not be made durable: the request that wrote it must fail.
#[derive(Debug, Clone)]
pub struct WriteError {
    pub operation: &'static str,
    pub kind: io::ErrorKind,
    pub message: String,
}

impl WriteError {
    fn new(operation: &'static str, e: &io::Error) -> Self {
        WriteError {
            operation,
            kind: e.kind(),
            message: e.to_string(),
        }
    }

    fn stopped() -> Self {
        WriteError {
            operation: "append",
            kind: io::ErrorKind::BrokenPipe,
            message: "the log writer has stopped".into(),
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "data directory {} failed: {}",
            self.operation, self.message
        )
    }
}

/// Why a data directory could not be opened. Never answered by starting empty.
#[derive(Debug)]
pub enum DurableError {
    Locked { dir: PathBuf, pid: Option<u32> },
    Format { path: PathBuf, error: HeaderError },
    Corrupt { path: PathBuf, detail: String },
    Io { path: PathBuf, error: io::Error },
}

impl fmt::Display for DurableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurableError::Locked { dir, pid } => {
                let holder = pid.map_or_else(|| "another process".into(), |p| format!("process {p}"));
                write!(f, "data directory {} is in use by {holder}; one sqslite per directory", dir.display())
            }
            DurableError::Format { path, error } => write!(f, "{}: {error}", path.display()),
            DurableError::Corrupt { path, detail } => write!(
                f,
                "{}: {detail}; refusing to start rather than lose data (restore a backup or move the directory aside)",
                path.display()
            ),
            DurableError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for DurableError {}

/// What recovery found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recovery {
    pub snapshot_records: usize,
    pub log_records: usize,
    /// The torn or corrupt tail cut off the last log, if there was one.
    pub dropped: Option<Dropped>,
}

/// A tail cut off the last log at recovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    pub path: PathBuf,
    /// Where the cut was made (bytes from the start of the file).
    pub offset: u64,
    pub bytes: u64,
    pub why: BadTail,
}

/// An open, locked data directory with its log writer running.
#[derive(Debug)]
pub struct DataDir {
    files: DirFiles,
    appender: Appender,
    writer: WriterThread,
    _lock: DirLock,
}

/// A data directory locked for this process, not yet recovered.
#[derive(Debug)]
pub struct Locked {
    dir: PathBuf,
    lock: DirLock,
}

/// The directory's secret (receipt handles are sealed with it, so they outlive a restart).
const SECRET_FILE: &str = "secret";

impl Locked {
    /// The directory's 32-byte secret, made on first use.
    pub fn secret(&self) -> Result<[u8; 32], DurableError> {
        let path = self.dir.join(SECRET_FILE);
        let io_err = |error| DurableError::Io {
            path: path.clone(),
            error,
        };
        match std::fs::read(&path) {
            Ok(bytes) => bytes.try_into().map_err(|_| DurableError::Corrupt {
                path: path.clone(),
                detail: "the secret is not 32 bytes".into(),
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let mut secret = [0u8; 32];
                getrandom::fill(&mut secret).map_err(|e| io_err(io::Error::other(e)))?;
                let temp = self.dir.join("secret.tmp");
                std::fs::write(&temp, secret).map_err(io_err)?;
                std::fs::File::open(&temp)
                    .and_then(|f| f.sync_all())
                    .map_err(io_err)?;
                std::fs::rename(&temp, &path).map_err(io_err)?;
                std::fs::File::open(&self.dir)
                    .and_then(|d| d.sync_all())
                    .map_err(io_err)?;
                Ok(secret)
            }
            Err(e) => Err(io_err(e)),
        }
    }

    /// Feeds every stored record to `replay` in order (snapshot first, then the logs) and
    /// starts the log writer. A replay error, a foreign format version or corruption before
    /// the last log's tail is an error, never a reset.
    pub fn recover(
        self,
        policy: FsyncPolicy,
        replay: impl FnMut(&[u8]) -> Result<(), String>,
    ) -> Result<(DataDir, Recovery), DurableError> {
        DataDir::recover(self, policy, replay)
    }
}

impl DataDir {
    /// Locks `dir`, creating it if needed; a second process is refused, naming the holder.
    pub fn lock(dir: &Path) -> Result<Locked, DurableError> {
        let io_err = |error| DurableError::Io {
            path: dir.to_path_buf(),
            error,
        };
        std::fs::create_dir_all(dir).map_err(io_err)?;
        let lock = DirLock::acquire(dir).map_err(|e| match e {
            LockError::Held(pid) => DurableError::Locked {
                dir: dir.to_path_buf(),
                pid,
            },
            LockError::Io(e) => io_err(e),
        })?;
        Ok(Locked {
            dir: dir.to_path_buf(),
            lock,
        })
    }

    /// [`DataDir::lock`], then [`Locked::recover`].
    pub fn open(
        dir: &Path,
        policy: FsyncPolicy,
        replay: impl FnMut(&[u8]) -> Result<(), String>,
    ) -> Result<(DataDir, Recovery), DurableError> {
        DataDir::lock(dir)?.recover(policy, replay)
    }

    fn recover(
        locked: Locked,
        policy: FsyncPolicy,
        mut replay: impl FnMut(&[u8]) -> Result<(), String>,
    ) -> Result<(DataDir, Recovery), DurableError> {
        let Locked { dir, lock } = locked;
        let dir = dir.as_path();
        let io_err = |error| DurableError::Io {
            path: dir.to_path_buf(),
            error,
        };
        let files = DirFiles::new(dir);
        let listing = files.list().map_err(io_err)?;
        let mut recovery = Recovery::default();
        let base = listing.snapshots.last().copied();
        if let Some(g) = base {
            recovery.snapshot_records = read_snapshot(&files, g, &mut replay)?;
        }
        let logs: Vec<u64> = listing
            .logs
            .into_iter()
            .filter(|g| *g >= base.unwrap_or(0))
            .collect();
        let (file, generation, len) = match logs.split_last() {
            None => {
                let g = base.unwrap_or(1);
                (files.create_log(g).map_err(io_err)?, g, HEADER_LEN as u64)
            }
            Some((&last, earlier)) => {
                check_consecutive(&files, base, &logs)?;
                for &g in earlier {
                    recovery.log_records += read_log(&files, g, false, &mut replay)?.0;
                }
                let (records, len, dropped) = read_log(&files, last, true, &mut replay)?;
                recovery.log_records += records;
                recovery.dropped = dropped;
                (files.reopen_log(last, len).map_err(io_err)?, last, len)
            }
        };
        let (appender, writer) =
            writer::spawn(files.clone(), file, generation, len, policy).map_err(io_err)?;
        let data = DataDir {
            files,
            appender,
            writer,
            _lock: lock,
        };
        Ok((data, recovery))
    }

    pub fn path(&self) -> &Path {
        self.files.dir()
    }

    pub fn appender(&self) -> Appender {
        self.appender.clone()
    }

    /// Replaces the log with a snapshot: rotates to a new generation, then has `fill` write
    /// the current state as records (taken after the rotation, so nothing is missed), then
    /// removes the files the snapshot covers. Returns the snapshot's generation and size.
    pub fn compact(
        &self,
        fill: impl FnOnce(&mut SnapshotWriter) -> io::Result<()>,
    ) -> io::Result<(u64, u64)> {
        let generation = self.appender.rotate()?;
        let bytes = self.files.write_snapshot(generation, fill)?;
        self.files.remove_before(generation)?;
        Ok((generation, bytes))
    }

    /// Copies the snapshot of `generation` and the log written since (as far as it is
    /// written now) into `target`, a new or empty directory: a consistent copy to start
    /// from. Only while no compaction runs, or the files may be gone.
    pub fn backup(&self, generation: u64, target: &Path) -> io::Result<u64> {
        backup::copy(&self.files, generation, self.appender.log_bytes(), target)
    }

    /// Writes what is queued, syncs it and stops the writer; later appends fail.
    pub fn close(mut self) {
        self.writer.stop();
    }
}

fn check_consecutive(
    files: &DirFiles,
    base: Option<u64>,
    logs: &[u64],
) -> Result<(), DurableError> {
    let expected_first = base.unwrap_or(logs[0]);
    for (i, g) in logs.iter().enumerate() {
        if *g != expected_first + i as u64 {
            return Err(DurableError::Corrupt {
                path: files.log_path(expected_first + i as u64),
                detail: "this log file is missing".into(),
            });
        }
    }
    Ok(())
}

/// A snapshot or log replayed from disk: where its valid records end, and its length.
struct Replayed {
    scan: frame::Scan,
    file_len: u64,
}

/// Opens `path`, checks its header and replays its records a chunk at a time. `None`: the
/// file is shorter than a header and a prefix of the expected one (a crash while it was
/// being created).
fn replay_file(
    path: &Path,
    kind: FileKind,
    generation: u64,
    replay: &mut impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<Option<Replayed>, DurableError> {
    let io_err = |error| DurableError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut file = std::fs::File::open(path).map_err(io_err)?;
    let file_len = file.metadata().map_err(io_err)?.len();
    let mut header = Vec::with_capacity(HEADER_LEN);
    io::Read::read_to_end(
        &mut io::Read::take(&mut file, HEADER_LEN as u64),
        &mut header,
    )
    .map_err(io_err)?;
    if header.len() < HEADER_LEN && frame::header(kind, generation).starts_with(&header) {
        return Ok(None);
    }
    frame::check_header(&header, kind, generation).map_err(|error| DurableError::Format {
        path: path.to_path_buf(),
        error,
    })?;
    let scan = frame::scan_reader(file, &mut *replay)
        .map_err(io_err)?
        .map_err(|e| DurableError::Corrupt {
            path: path.to_path_buf(),
            detail: format!("a record cannot be applied: {e}"),
        })?;
    Ok(Some(Replayed { scan, file_len }))
}

fn read_snapshot(
    files: &DirFiles,
    generation: u64,
    replay: &mut impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<usize, DurableError> {
    let path = files.snapshot_path(generation);
    let Some(Replayed { scan, .. }) = replay_file(&path, FileKind::Snapshot, generation, replay)?
    else {
        return Err(DurableError::Format {
            path,
            error: frame::HeaderError::NotOurs,
        });
    };
    if let Some(why) = scan.bad_tail {
        return Err(DurableError::Corrupt {
            path,
            detail: format!(
                "{why:?} record at byte {} of a snapshot",
                HEADER_LEN + scan.valid_len
            ),
        });
    }
    Ok(scan.records)
}

/// Replays one log; returns its records, the length of its valid prefix and, for the last
/// log only, the tail that was cut off.
fn read_log(
    files: &DirFiles,
    generation: u64,
    last: bool,
    replay: &mut impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<(usize, u64, Option<Dropped>), DurableError> {
    let path = files.log_path(generation);
    let Some(Replayed { scan, file_len }) = replay_file(&path, FileKind::Log, generation, replay)?
    else {
        if !last {
            return Err(DurableError::Format {
                path,
                error: frame::HeaderError::NotOurs,
            });
        }
        // A crash while the log was being created: it holds no record yet.
        let _ = files.create_log(generation);
        return Ok((0, HEADER_LEN as u64, None));
    };
    let valid = (HEADER_LEN + scan.valid_len) as u64;
    let Some(why) = scan.bad_tail else {
        return Ok((scan.records, valid, None));
    };
    let dropped = Dropped {
        path: path.clone(),
        offset: valid,
        bytes: file_len - valid,
        why,
    };
    if !last {
        return Err(DurableError::Corrupt {
            path,
            detail: format!("{why:?} record at byte {valid} of a log that is not the last"),
        });
    }
    tracing::warn!(
        file = %path.display(),
        offset = valid,
        dropped_bytes = dropped.bytes,
        reason = ?why,
        records_kept = scan.records,
        "recovery cut the log's tail: from this offset on it was not whole, checksummed records (Torn: a write cut short by a crash; Corrupt: a checksum or length mismatch)"
    );
    Ok((scan.records, valid, Some(dropped)))
}

/// A fresh, empty directory under the system temp dir for one test.
#[cfg(test)]
pub(crate) fn test_dir(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "sqslite-test-{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
