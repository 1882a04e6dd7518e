//! The data directory's exclusive lock: one sqslite process per directory. The lock file
//! holds the holder's pid so a second process can name it; the OS drops the lock when the
//! holder exits, however it exits (kill -9 included), so there is never a stale lock to clear.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

use fs4::{FileExt, TryLockError};

pub const LOCK_FILE: &str = "LOCK";

/// Held for the life of the server; dropping it releases the directory.
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

/// Why the directory could not be locked.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds it; its pid as written in the lock file, if readable.
    Held(Option<u32>),
    Io(io::Error),
}

impl DirLock {
    pub fn acquire(dir: &Path) -> Result<DirLock, LockError> {
        let mut file = super::private::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.join(LOCK_FILE))
            .map_err(LockError::Io)?;
        // fs4's flock, named in full: std's inherent File::try_lock needs a newer MSRV.
        match FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(LockError::Held(read_pid(&mut file))),
            Err(TryLockError::Error(e)) => return Err(LockError::Io(e)),
        }
        let write_pid = |f: &mut File| -> io::Result<()> {
            f.set_len(0)?;
            f.seek(SeekFrom::Start(0))?;
            writeln!(f, "{}", std::process::id())?;
            f.sync_data()
        };
        write_pid(&mut file).map_err(LockError::Io)?;
        Ok(DirLock { _file: file })
    }
}

fn read_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_and_told_the_first_ones_pid() {
        let dir = crate::durable::test_dir("lock");
        let first = DirLock::acquire(&dir).unwrap();
        match DirLock::acquire(&dir) {
            Err(LockError::Held(pid)) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("expected Held, got {other:?}"),
        }
        drop(first);
        assert!(DirLock::acquire(&dir).is_ok());
    }
}
