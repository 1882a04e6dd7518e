//! The files of a data directory: `log-<generation>.sqsl` (records appended since that
//! generation began) and `snapshot-<generation>.sqsl` (the whole state as of that
//! generation's start), how they are named, created durably and listed.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::frame::{self, FileKind};

/// The directory's files, by generation.
#[derive(Debug, Clone)]
pub struct DirFiles {
    dir: PathBuf,
}

/// What a directory holds, each list in ascending generation.
#[derive(Debug, Default)]
pub struct Listing {
    pub snapshots: Vec<u64>,
    pub logs: Vec<u64>,
}

impl DirFiles {
    pub fn new(dir: &Path) -> Self {
        DirFiles {
            dir: dir.to_path_buf(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn log_path(&self, generation: u64) -> PathBuf {
        self.dir.join(format!("log-{generation:016}.sqsl"))
    }

    pub fn snapshot_path(&self, generation: u64) -> PathBuf {
        self.dir.join(format!("snapshot-{generation:016}.sqsl"))
    }

    fn temp_path(&self, generation: u64) -> PathBuf {
        self.dir.join(format!("snapshot-{generation:016}.tmp"))
    }

    /// Lists the generations present; removes snapshot files a crash left half-written.
    pub fn list(&self) -> io::Result<Listing> {
        let mut listing = Listing::default();
        for entry in fs::read_dir(&self.dir)? {
            let name = entry?.file_name();
            let Some(name) = name.to_str() else { continue };
            let generation = |prefix: &str, suffix: &str| {
                name.strip_prefix(prefix)?
                    .strip_suffix(suffix)?
                    .parse::<u64>()
                    .ok()
            };
            if let Some(g) = generation("log-", ".sqsl") {
                listing.logs.push(g);
            } else if let Some(g) = generation("snapshot-", ".sqsl") {
                listing.snapshots.push(g);
            } else if let Some(g) = generation("snapshot-", ".tmp") {
                fs::remove_file(self.temp_path(g))?;
            }
        }
        listing.logs.sort_unstable();
        listing.snapshots.sort_unstable();
        Ok(listing)
    }

    /// Creates the empty log of `generation` (header only), durably: the file and its
    /// directory entry are synced before any record goes into it.
    pub fn create_log(&self, generation: u64) -> io::Result<File> {
        let mut file = super::private::options()
            .create(true)
            .truncate(true)
            .write(true)
            .open(self.log_path(generation))?;
        file.write_all(&frame::header(FileKind::Log, generation))?;
        file.sync_all()?;
        self.sync_dir()?;
        Ok(file)
    }

    /// Opens an existing log for appending after its first `len` bytes (the rest, a torn
    /// or corrupt tail, is cut off).
    pub fn reopen_log(&self, generation: u64, len: u64) -> io::Result<File> {
        let mut file = OpenOptions::new()
            .write(true)
            .open(self.log_path(generation))?;
        truncate_to(&mut file, len)?;
        file.sync_all()?;
        Ok(file)
    }

    /// Writes the snapshot of `generation` through `fill`, then makes it appear whole:
    /// written to a temporary name, synced, renamed, directory synced.
    pub fn write_snapshot(
        &self,
        generation: u64,
        write_records: impl FnOnce(&mut SnapshotWriter) -> io::Result<()>,
    ) -> io::Result<u64> {
        let temp = self.temp_path(generation);
        let file = super::private::options()
            .create(true)
            .truncate(true)
            .write(true)
            .open(&temp)?;
        let mut writer = SnapshotWriter {
            out: io::BufWriter::with_capacity(1 << 20, file),
            buf: Vec::new(),
            bytes: frame::HEADER_LEN as u64,
        };
        writer
            .out
            .write_all(&frame::header(FileKind::Snapshot, generation))?;
        write_records(&mut writer)?;
        let bytes = writer.bytes;
        let file = writer
            .out
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?;
        file.sync_all()?;
        fs::rename(&temp, self.snapshot_path(generation))?;
        self.sync_dir()?;
        Ok(bytes)
    }

    /// Renames the damaged file `from` to `to`, where it is kept and no longer read.
    pub fn set_aside(&self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)?;
        self.sync_dir()
    }

    /// Removes the snapshots and logs older than `generation` (its snapshot covers them).
    pub fn remove_before(&self, generation: u64) -> io::Result<()> {
        let listing = self.list()?;
        for g in listing.snapshots.into_iter().filter(|g| *g < generation) {
            fs::remove_file(self.snapshot_path(g))?;
        }
        for g in listing.logs.into_iter().filter(|g| *g < generation) {
            fs::remove_file(self.log_path(g))?;
        }
        self.sync_dir()
    }

    fn sync_dir(&self) -> io::Result<()> {
        File::open(&self.dir)?.sync_all()
    }
}

/// Streams records into a snapshot being written.
#[derive(Debug)]
pub struct SnapshotWriter {
    out: io::BufWriter<File>,
    buf: Vec<u8>,
    bytes: u64,
}

impl SnapshotWriter {
    pub fn record(&mut self, payload: &[u8]) -> io::Result<()> {
        self.buf.clear();
        frame::encode(payload, &mut self.buf);
        self.bytes += self.buf.len() as u64;
        self.out.write_all(&self.buf)
    }
}

/// Cuts `file` back to `len` bytes and puts the write position there.
pub fn truncate_to(file: &mut File, len: u64) -> io::Result<()> {
    file.set_len(len)?;
    file.seek(SeekFrom::Start(len))?;
    Ok(())
}
