//! The data directory is private to the server's user: the secret in it lets whoever reads
//! it forge receipt handles, and its logs hold message bodies. Directories sqslite creates
//! are mode 0700 and its files 0600, whatever the umask. A directory that already exists
//! with looser modes is left as it is (it may be a mount point, or shared on purpose) and
//! named in a warning; sqslite's own files in it are tightened to 0600, since they are
//! its own and an older release made them with the umask's modes.

use std::fs;
use std::io;
use std::path::Path;

pub use crate::owner_only::{create_dir, options};

/// Warns when others than the owner may enter `dir`; tightens sqslite's files in it.
pub fn check(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(dir)?.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            tracing::warn!(
                dir = %dir.display(),
                mode = format!("{mode:o}"),
                "the data directory is open to other users; its files are kept 0600, but to \
                 keep even their names private run `chmod 700 {}`",
                dir.display()
            );
        }
        let mut tightened = 0;
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name();
            let ours = name.to_str().is_some_and(|n| {
                n == super::lock::LOCK_FILE
                    || n.starts_with(super::SECRET_FILE)
                    || n.starts_with("log-")
                    || n.starts_with("snapshot-")
            });
            let meta = entry.metadata()?;
            if ours && meta.is_file() && meta.permissions().mode() & 0o077 != 0 {
                fs::set_permissions(entry.path(), fs::Permissions::from_mode(0o600))?;
                tightened += 1;
            }
        }
        if tightened > 0 {
            tracing::warn!(
                dir = %dir.display(),
                files = tightened,
                "data files other users could read were made private (mode 600)"
            );
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}
