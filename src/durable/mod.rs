//! Durable storage for `--data-dir`: an append-only, checksummed log of opaque records plus
//! snapshots that compact it, an exclusive directory lock, and recovery that replays
//! snapshot + log, cuts off a torn tail and stops at any other damage (or, asked to repair,
//! reads around it and sets the damaged file aside). It knows nothing of queues: the
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
pub mod mapping_codec;
pub mod mode;
mod private;
mod recover;
pub mod s3_codec;
pub mod scan;
pub mod sns_codec;
mod wire;
mod writer;

#[cfg(test)]
mod repair_tests;
#[cfg(test)]
mod task_tests;
#[cfg(test)]
mod tests;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;

pub use files::SnapshotWriter;
pub use scan::Mode;
pub use writer::Appender;

use files::DirFiles;
use frame::HeaderError;
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
    pub message: String,
}

impl WriteError {
    fn new(operation: &'static str, e: &io::Error) -> Self {
        WriteError {
            operation,
            message: e.to_string(),
        }
    }

    fn stopped() -> Self {
        WriteError {
            operation: "append",
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
    Locked {
        dir: PathBuf,
        pid: Option<u32>,
    },
    Format {
        path: PathBuf,
        error: HeaderError,
    },
    Corrupt {
        path: PathBuf,
        detail: String,
    },
    /// Damage other than a torn tail, found without `--repair`.
    Damaged {
        path: PathBuf,
        detail: String,
    },
    Io {
        path: PathBuf,
        error: io::Error,
    },
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
            DurableError::Damaged { path, detail } => write!(
                f,
                "{}: {detail}. Refusing to start rather than lose data: restore a backup, or start once with --repair",
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
    /// The torn tail cut off the last log, if there was one.
    pub dropped: Option<Dropped>,
    /// Damaged files a repair read around; each is set aside at the next compaction.
    pub repaired: Vec<Repaired>,
}

/// A torn tail cut off the last log at recovery: its last record, incomplete at the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    pub path: PathBuf,
    /// Where the cut was made (bytes from the start of the file).
    pub offset: u64,
    pub bytes: u64,
}

/// A damaged file a repair read around.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    pub path: PathBuf,
    /// Where the file is kept once a snapshot holds what it gave.
    pub moved_to: PathBuf,
    /// Records replayed from it, before and after its damage.
    pub recovered: usize,
    /// Records it could not give back: one per damaged stretch (more may have been in a
    /// stretch whose framing was damaged) and those that could not be applied.
    pub lost_records: usize,
    pub lost_bytes: u64,
}

/// An open, locked data directory with its log writer running.
#[derive(Debug)]
pub struct DataDir {
    files: DirFiles,
    /// Damaged files a repair read, with the names they go to once a snapshot covers them.
    aside: Mutex<Vec<(PathBuf, PathBuf)>>,
    appender: Appender,
    /// Held for its drop, which writes what is queued, syncs it and joins the thread.
    _writer: WriterThread,
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
                private::options()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(&temp)
                    .and_then(|mut f| {
                        io::Write::write_all(&mut f, &secret)?;
                        f.sync_all()
                    })
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
    /// starts the log writer. A replay error, a foreign format version or damage other than
    /// the last log's torn tail is an error, never a reset; under [`Mode::Repair`] damage is
    /// read around and reported in [`Recovery::repaired`] instead.
    pub fn recover(
        self,
        policy: FsyncPolicy,
        mode: Mode,
        mut replay: impl FnMut(&[u8]) -> Result<(), String>,
    ) -> Result<(DataDir, Recovery), DurableError> {
        let Locked { dir, lock } = self;
        let files = DirFiles::new(&dir);
        let (recovery, next) = recover::run(&files, mode, &mut replay)?;
        let (appender, writer) =
            writer::spawn(files.clone(), next.file, next.generation, next.len, policy).map_err(
                |error| DurableError::Io {
                    path: dir.clone(),
                    error,
                },
            )?;
        let aside = recovery
            .repaired
            .iter()
            .map(|r| (r.path.clone(), r.moved_to.clone()))
            .collect();
        let data = DataDir {
            files,
            aside: Mutex::new(aside),
            appender,
            _writer: writer,
            _lock: lock,
        };
        Ok((data, recovery))
    }
}

impl DataDir {
    /// Locks `dir`, creating it if needed; a second process is refused, naming the holder.
    pub fn lock(dir: &Path) -> Result<Locked, DurableError> {
        let io_err = |error| DurableError::Io {
            path: dir.to_path_buf(),
            error,
        };
        private::create_dir(dir).map_err(io_err)?;
        let lock = DirLock::acquire(dir).map_err(|e| match e {
            LockError::Held(pid) => DurableError::Locked {
                dir: dir.to_path_buf(),
                pid,
            },
            LockError::Io(e) => io_err(e),
        })?;
        private::check(dir).map_err(io_err)?;
        Ok(Locked {
            dir: dir.to_path_buf(),
            lock,
        })
    }

    /// [`DataDir::lock`], then [`Locked::recover`].
    #[cfg(test)]
    pub fn open(
        dir: &Path,
        policy: FsyncPolicy,
        mode: Mode,
        replay: impl FnMut(&[u8]) -> Result<(), String>,
    ) -> Result<(DataDir, Recovery), DurableError> {
        DataDir::lock(dir)?.recover(policy, mode, replay)
    }

    pub fn appender(&self) -> Appender {
        self.appender.clone()
    }

    /// Replaces the log with a snapshot: rotates to a new generation, then has `fill` write
    /// the current state as records (taken after the rotation, so nothing is missed), then
    /// sets aside the damaged files a repair read (the snapshot now holds what they gave)
    /// and removes the files the snapshot covers. Returns the snapshot's generation and size.
    pub fn compact(
        &self,
        fill: impl FnOnce(&mut SnapshotWriter) -> io::Result<()>,
    ) -> io::Result<(u64, u64)> {
        let generation = self.appender.rotate()?;
        let bytes = self.files.write_snapshot(generation, fill)?;
        let aside = std::mem::take(
            &mut *self
                .aside
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        for (from, to) in &aside {
            self.files.set_aside(from, to)?;
        }
        self.files.remove_before(generation)?;
        Ok((generation, bytes))
    }

    /// Copies the snapshot of `generation` and the log written since (as far as it is
    /// written now) into `target`, a new or empty directory: a consistent copy to start
    /// from. Only while no compaction runs, or the files may be gone.
    pub fn backup(&self, generation: u64, target: &Path) -> io::Result<u64> {
        backup::copy(&self.files, generation, self.appender.log_bytes(), target)
    }
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
