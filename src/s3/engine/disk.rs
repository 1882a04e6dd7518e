//! Objects' bytes on disk (`--data-dir`): a body is written to `s3/tmp/<name>` as it
//! arrives, synced when `--fsync always` asks, then renamed into `s3/objects/<name>`, so a
//! file there is always whole; only then is the object's record appended to the log. A file
//! is shared by every object and part made of it (a copy, a completion) and released when
//! the last is gone; the log removes it once the records before are stored, so a restart
//! never replays a record whose file was removed. Files sqslite makes are mode 0600.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

use super::data::{Budget, Held};
use super::journal::S3Journal;

/// The folders of the object files, under the data directory.
pub const TMP: &str = "s3/tmp";
/// Where whole files are.
pub const OBJECTS: &str = "s3/objects";
/// Where a repair sets damaged and orphaned files aside.
pub const DAMAGED: &str = "s3/damaged";

/// The object files of one data directory.
#[derive(Debug)]
pub struct Disk {
    /// The data directory.
    root: PathBuf,
    /// Sync each file and its directory entry before its record (`--fsync always`).
    sync: bool,
    journal: Arc<dyn S3Journal>,
    /// What the files may hold in all (`--s3-max-bytes`).
    pub budget: Arc<Budget>,
    /// While the log is replayed: the files already named, so objects sharing one share it.
    restoring: Mutex<HashMap<String, Weak<StoredFile>>>,
}

/// A whole file in `s3/objects`, removed (by the log) when the last holder lets it go.
#[derive(Debug)]
pub struct StoredFile {
    name: String,
    len: u64,
    disk: Arc<Disk>,
    /// Its bytes, counted against the budget until it is removed.
    _held: Held,
}

/// A body being written to `s3/tmp`; removed if it is dropped before [`TempFile::keep`].
#[derive(Debug)]
pub struct TempFile {
    file: Option<File>,
    name: String,
    len: u64,
    disk: Arc<Disk>,
    /// The bytes it may write, taken from the budget before they are written.
    held: Held,
}

pub use crate::owner_only::create_dir;
use crate::owner_only::options as private;

impl Disk {
    /// The object files under `root`, its folders made; `sync` as `--fsync always`; at most
    /// `max_bytes` of them.
    pub fn open(
        root: &Path,
        sync: bool,
        journal: Arc<dyn S3Journal>,
        max_bytes: u64,
    ) -> io::Result<Arc<Disk>> {
        for dir in [TMP, OBJECTS] {
            create_dir(&root.join(dir))?;
        }
        Ok(Arc::new(Disk {
            root: root.to_path_buf(),
            sync,
            journal,
            budget: Budget::new(max_bytes),
            restoring: Mutex::default(),
        }))
    }

    /// The data directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the whole file `name` is.
    pub fn path(&self, name: &str) -> PathBuf {
        self.root.join(OBJECTS).join(name)
    }

    /// A new file to write a body into.
    pub fn temp(self: &Arc<Self>) -> io::Result<TempFile> {
        let name = uuid::Uuid::new_v4().simple().to_string();
        let file = private()
            .write(true)
            .create_new(true)
            .open(self.root.join(TMP).join(&name))?;
        Ok(TempFile {
            file: Some(file),
            name,
            len: 0,
            disk: self.clone(),
            held: self.budget.hold(),
        })
    }

    /// The file `name` a replayed record names, `len` bytes long by the record; shared with
    /// the records that named it before. Whether it is there is checked once replay is done.
    pub fn named(self: &Arc<Self>, name: &str, len: u64) -> Arc<StoredFile> {
        let mut restoring = self
            .restoring
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(file) = restoring.get(name).and_then(Weak::upgrade) {
            return file;
        }
        let mut held = self.budget.hold();
        held.count(len);
        let file = Arc::new(StoredFile {
            name: name.to_owned(),
            len,
            disk: self.clone(),
            _held: held,
        });
        restoring.insert(name.to_owned(), Arc::downgrade(&file));
        file
    }

    /// Replay is over: files are no longer looked up by name.
    pub fn restored(&self) {
        self.restoring
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }

    fn sync_dir(&self, dir: &str) -> io::Result<()> {
        File::open(self.root.join(dir))?.sync_all()
    }
}

impl TempFile {
    /// Takes room for `n` more bytes from the budget, before they are written.
    pub fn reserve(&mut self, n: u64) -> super::error::Result<()> {
        self.held.take(n)
    }

    /// Appends `bytes`.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| io::Error::other("closed"))?;
        file.write_all(bytes)?;
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Makes the body a whole file in `s3/objects` (synced first under `--fsync always`).
    pub fn keep(mut self) -> io::Result<Arc<StoredFile>> {
        let file = self.file.take().ok_or_else(|| io::Error::other("closed"))?;
        let disk = self.disk.clone();
        if disk.sync {
            file.sync_all()?;
        }
        drop(file);
        fs::rename(
            disk.root.join(TMP).join(&self.name),
            disk.root.join(OBJECTS).join(&self.name),
        )?;
        if disk.sync {
            disk.sync_dir(OBJECTS)?;
        }
        let held = std::mem::replace(&mut self.held, disk.budget.hold());
        Ok(Arc::new(StoredFile {
            name: std::mem::take(&mut self.name),
            len: self.len,
            disk,
            _held: held,
        }))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(self.disk.root.join(TMP).join(&self.name));
        }
    }
}

impl StoredFile {
    /// Its name in `s3/objects`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its length.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Reads `len` bytes from `offset`, a chunk of at most `chunk` bytes at a time, into
    /// `each` until it says stop.
    pub fn read(
        &self,
        (offset, len): (u64, u64),
        chunk: usize,
        each: &mut dyn FnMut(bytes::Bytes) -> bool,
    ) -> io::Result<bool> {
        let mut file = File::open(self.disk.path(&self.name))?;
        file.seek(SeekFrom::Start(offset))?;
        let mut left = len;
        while left > 0 {
            let n = left.min(chunk as u64) as usize;
            let mut buf = vec![0; n];
            file.read_exact(&mut buf)?;
            left -= n as u64;
            if !each(buf.into()) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl Drop for StoredFile {
    fn drop(&mut self) {
        let path = self.disk.path(&self.name);
        self.disk.journal.release(&path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::s3::engine::data::Data;
    use crate::s3::engine::journal::S3Record;

    /// Keeps the files it is told were released.
    #[derive(Debug, Default)]
    struct Released(Mutex<Vec<PathBuf>>);

    impl S3Journal for Released {
        fn record(&self, _: &S3Record) {}
        fn release(&self, path: &Path) {
            self.0.lock().unwrap().push(path.to_path_buf());
        }
    }

    #[test]
    fn a_body_becomes_a_whole_file_read_in_stretches_and_released_by_its_last_holder() {
        let root = std::env::temp_dir().join(format!("sqslite-disk-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let journal = Arc::new(Released::default());
        let disk = Disk::open(&root, true, journal.clone(), u64::MAX).unwrap();
        let dropped = disk.temp().unwrap();
        drop(dropped);
        assert_eq!(
            fs::read_dir(root.join(TMP)).unwrap().count(),
            0,
            "an unkept body goes"
        );
        let mut temp = disk.temp().unwrap();
        let bytes: Vec<u8> = (0..=255u8).cycle().take(READ + 10).collect();
        temp.write(&bytes[..7]).unwrap();
        temp.write(&bytes[7..]).unwrap();
        let file = temp.keep().unwrap();
        let path = disk.path(file.name());
        assert_eq!(fs::metadata(&path).unwrap().len(), bytes.len() as u64);
        let data = Data::from_file(file);
        let mut chunks = Vec::new();
        data.read(3, data.len(), &mut |c| {
            chunks.push(c.len());
            true
        })
        .unwrap();
        assert_eq!(chunks, [READ, 7], "a chunk at a time");
        let tail = data.slice(5, 20);
        let expected: [u8; 16] = md5::Digest::finalize(md5::Digest::chain_update(
            <md5::Md5 as md5::Digest>::new(),
            &bytes[5..20],
        ))
        .into();
        assert_eq!(tail.md5(0, tail.len()).unwrap(), expected);
        drop(data);
        assert!(
            journal.0.lock().unwrap().is_empty(),
            "the slice still holds it"
        );
        drop(tail);
        assert_eq!(*journal.0.lock().unwrap(), [path]);
        let _ = fs::remove_dir_all(&root);
    }

    const READ: usize = crate::s3::engine::data::READ_CHUNK;
}
