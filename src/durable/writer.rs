//! The one log writer: a dedicated thread owns the open log file, takes records from a
//! channel, writes each batch with one `write` and, under `--fsync always`, one `fdatasync`
//! for the whole batch (group commit: requests that arrive while a sync runs share the next
//! one). A request's acknowledgement waits for its batch.

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::oneshot;

use super::files::{self, DirFiles};
use super::frame;
use super::{FsyncPolicy, WriteError};
use crate::clock::Stopwatch;

/// At most this many bytes go into one write; the rest wait for the next batch.
const MAX_BATCH_BYTES: usize = 8 << 20;

/// Resolves once the record is durable under the policy, or with the write's error.
pub type Pending = oneshot::Receiver<Result<(), WriteError>>;

enum Command {
    Append(Vec<u8>, Option<oneshot::Sender<Result<(), WriteError>>>),
    /// Close the current log and start the next generation; answers with its number.
    Rotate(mpsc::Sender<io::Result<u64>>),
    /// Remove this file once the records before are stored (S3's released object files).
    Unlink(PathBuf),
    Stop,
}

/// A handle to the writer thread; cheap to clone, one per component that writes.
#[derive(Clone, Debug)]
pub struct Appender {
    tx: Sender<Command>,
    log_bytes: Arc<AtomicU64>,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Command::Append(..) => "Append",
            Command::Rotate(_) => "Rotate",
            Command::Unlink(_) => "Unlink",
            Command::Stop => "Stop",
        })
    }
}

impl Appender {
    /// Queues one record; the returned future resolves when it is durable under the policy.
    pub fn append(&self, payload: Vec<u8>) -> Pending {
        let (ack, pending) = oneshot::channel();
        if let Err(mpsc::SendError(Command::Append(_, Some(ack)))) =
            self.tx.send(Command::Append(payload, Some(ack)))
        {
            let _ = ack.send(Err(WriteError::stopped()));
        }
        pending
    }

    /// Removes `path` once every record queued before is stored under the policy (written;
    /// synced under `always` and `interval`), so a restart never replays a record whose
    /// file is gone.
    pub fn unlink(&self, path: PathBuf) {
        let _ = self.tx.send(Command::Unlink(path));
    }

    /// Bytes in the current log generation (what compaction would reclaim).
    pub fn log_bytes(&self) -> u64 {
        self.log_bytes.load(Ordering::Relaxed)
    }

    /// Starts a new log generation once every record queued before this call is written;
    /// returns its number. Blocks the calling thread briefly.
    pub fn rotate(&self) -> io::Result<u64> {
        let (tx, rx) = mpsc::channel();
        self.tx
            .send(Command::Rotate(tx))
            .map_err(|_| io::Error::other("the log writer has stopped"))?;
        rx.recv()
            .map_err(|_| io::Error::other("the log writer has stopped"))?
    }
}

/// The thread's state: the open log of generation `generation`, `len` good bytes long.
struct Writer {
    files: DirFiles,
    file: File,
    generation: u64,
    len: u64,
    policy: FsyncPolicy,
    /// Set when a sync failed: what reached the disk is unknown, so nothing more is written.
    broken: Option<WriteError>,
    dirty: bool,
    since_sync: Stopwatch,
    log_bytes: Arc<AtomicU64>,
    /// Files to remove once what is written now is stored.
    unlinks: Vec<PathBuf>,
}

/// Starts the writer on the open log `file` of `generation`, already `len` bytes long.
pub fn spawn(
    files: DirFiles,
    file: File,
    generation: u64,
    len: u64,
    policy: FsyncPolicy,
) -> io::Result<(Appender, WriterThread)> {
    let (tx, rx) = mpsc::channel();
    let log_bytes = Arc::new(AtomicU64::new(len));
    let writer = Writer {
        files,
        file,
        generation,
        len,
        policy,
        broken: None,
        dirty: false,
        since_sync: Stopwatch::start(),
        log_bytes: log_bytes.clone(),
        unlinks: Vec::new(),
    };
    let handle = std::thread::Builder::new()
        .name("sqslite-log".into())
        .spawn(move || writer.run(&rx))?;
    let appender = Appender { tx, log_bytes };
    Ok((
        appender.clone(),
        WriterThread {
            appender,
            handle: Some(handle),
        },
    ))
}

/// Owns the writer thread: stopping it syncs what was written and joins it.
#[derive(Debug)]
pub struct WriterThread {
    appender: Appender,
    handle: Option<JoinHandle<()>>,
}

impl WriterThread {
    pub fn stop(&mut self) {
        let _ = self.appender.tx.send(Command::Stop);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for WriterThread {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Writer {
    fn run(mut self, rx: &Receiver<Command>) {
        let mut buf = Vec::with_capacity(64 << 10);
        let mut acks = Vec::new();
        loop {
            let first = match self.next_wait() {
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(wait) => rx.recv_timeout(wait),
            };
            let cmd = match first {
                Ok(cmd) => cmd,
                Err(RecvTimeoutError::Timeout) => {
                    self.sync();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            let mut pending = Some(cmd);
            while let Some(cmd) = pending.take() {
                match cmd {
                    Command::Append(payload, ack) => {
                        frame::encode(&payload, &mut buf);
                        acks.extend(ack);
                        if buf.len() < MAX_BATCH_BYTES {
                            pending = rx.try_recv().ok();
                        }
                    }
                    Command::Unlink(path) => {
                        self.unlinks.push(path);
                        pending = rx.try_recv().ok();
                    }
                    Command::Rotate(reply) => {
                        self.commit(&mut buf, &mut acks);
                        let _ = reply.send(self.rotate());
                    }
                    Command::Stop => {
                        self.commit(&mut buf, &mut acks);
                        self.sync();
                        return;
                    }
                }
            }
            self.commit(&mut buf, &mut acks);
            self.reap_unless_pending();
        }
        self.sync();
    }

    /// Removes the released files when nothing written waits for a sync (or none comes).
    fn reap_unless_pending(&mut self) {
        if !self.dirty || self.policy == FsyncPolicy::Never {
            self.reap();
        }
    }

    /// Removes the released files: every record before them is stored. Not once the log
    /// is broken: what reached the disk is unknown, and a restart clears them instead.
    fn reap(&mut self) {
        if self.broken.is_some() {
            return;
        }
        for path in self.unlinks.drain(..) {
            if let Err(e) = std::fs::remove_file(&path) {
                tracing::warn!(file = %path.display(), error = %e, "removing a released object file failed; the next start clears it");
            }
        }
    }

    /// How long to wait for a record before an interval sync is due; `None`: no deadline.
    fn next_wait(&self) -> Option<Duration> {
        match self.policy {
            FsyncPolicy::Interval(every) if self.dirty => {
                Some(every.saturating_sub(self.since_sync.elapsed()))
            }
            _ => None,
        }
    }

    /// Writes the batch, syncs it as the policy says, and answers every request in it.
    fn commit(
        &mut self,
        buf: &mut Vec<u8>,
        acks: &mut Vec<oneshot::Sender<Result<(), WriteError>>>,
    ) {
        if buf.is_empty() {
            return;
        }
        let result = self.write_batch(buf);
        buf.clear();
        for ack in acks.drain(..) {
            let _ = ack.send(result.clone());
        }
        // An interval sync promises nothing to the requests just answered: run it after
        // answering them, so a slow fdatasync delays only the records that arrive meanwhile.
        if let FsyncPolicy::Interval(every) = self.policy {
            if self.since_sync.elapsed() >= every {
                self.sync();
            }
        }
    }

    fn write_batch(&mut self, buf: &[u8]) -> Result<(), WriteError> {
        if let Some(err) = &self.broken {
            return Err(err.clone());
        }
        if let Err(e) = self.file.write_all(buf) {
            let err = WriteError::new("write", &e);
            tracing::error!(error = %e, generation = self.generation, "writing the log failed; the requests are refused and the log is cut back to its last whole record");
            if let Err(e) = files::truncate_to(&mut self.file, self.len) {
                self.break_with("truncate", &e);
            }
            // Their records (a deletion's) are not stored: the files stay for a restart to
            // find, or to clear as orphans.
            self.unlinks.clear();
            return Err(err);
        }
        self.len += buf.len() as u64;
        self.log_bytes.store(self.len, Ordering::Relaxed);
        self.dirty = true;
        if self.policy == FsyncPolicy::Always {
            self.sync();
        }
        match &self.broken {
            Some(err) => Err(err.clone()),
            None => Ok(()),
        }
    }

    fn sync(&mut self) {
        if self.broken.is_some() {
            return;
        }
        if self.dirty {
            if let Err(e) = self.file.sync_data() {
                self.break_with("fsync", &e);
            }
            self.dirty = false;
            self.since_sync = Stopwatch::start();
        }
        self.reap();
    }

    /// After a failed sync the kernel may have dropped the dirty pages: what is on disk is
    /// unknown, so every later write is refused until a restart recovers from the disk.
    fn break_with(&mut self, what: &'static str, e: &io::Error) {
        tracing::error!(error = %e, "log {what} failed; writes are refused until sqslite restarts");
        self.broken = Some(WriteError::new(what, e));
    }

    fn rotate(&mut self) -> io::Result<u64> {
        self.sync();
        if let Some(err) = &self.broken {
            return Err(io::Error::other(err.to_string()));
        }
        let next = self.generation + 1;
        let file = self.files.create_log(next)?;
        self.file = file;
        self.generation = next;
        self.len = frame::HEADER_LEN as u64;
        self.log_bytes.store(self.len, Ordering::Relaxed);
        Ok(next)
    }
}
