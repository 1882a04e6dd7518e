//! A consistent copy of a running server's data directory: the snapshot just written, the
//! log that follows it up to the last whole record written, and the receipt-handle secret.
//! Starting sqslite on the copy recovers the state as of the copy.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::Path;

use super::files::DirFiles;
use super::SECRET_FILE;

/// Copies generation `generation` (its snapshot and the first `log_len` bytes of its log)
/// into `target`, which must not exist or be empty; returns the bytes copied.
pub fn copy(files: &DirFiles, generation: u64, log_len: u64, target: &Path) -> io::Result<u64> {
    super::private::create_dir(target)?;
    if fs::read_dir(target)?.next().is_some() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} is not empty; a backup goes into a new or empty directory",
                target.display()
            ),
        ));
    }
    let to = DirFiles::new(target);
    let mut bytes = copy_prefix(
        &files.dir().join(SECRET_FILE),
        &target.join(SECRET_FILE),
        None,
    )?;
    bytes += copy_prefix(
        &files.snapshot_path(generation),
        &to.snapshot_path(generation),
        None,
    )?;
    bytes += copy_prefix(
        &files.log_path(generation),
        &to.log_path(generation),
        Some(log_len),
    )?;
    File::open(target)?.sync_all()?;
    Ok(bytes)
}

/// Copies `from` (its first `len` bytes when given) to a new file `to`, synced.
fn copy_prefix(from: &Path, to: &Path, len: Option<u64>) -> io::Result<u64> {
    let source = File::open(from)?;
    let mut out = super::private::options()
        .write(true)
        .create_new(true)
        .open(to)?;
    let copied = match len {
        Some(len) => io::copy(&mut source.take(len), &mut out)?,
        None => io::copy(&mut &source, &mut out)?,
    };
    out.flush()?;
    out.sync_all()?;
    Ok(copied)
}
