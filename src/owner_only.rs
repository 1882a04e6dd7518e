//! Files and directories only the server's user may read: the data directory's rule (its
//! secret lets whoever reads it forge receipt handles; its logs and object files hold what
//! callers stored), whatever the umask. Shared by the log (`durable`) and S3's object files.

use std::fs::{self, OpenOptions};
use std::io;
use std::path::Path;

/// Options that create a file readable and writable by its owner only.
pub fn options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// Creates `dir` (and missing parents) mode 0700; an existing one is checked, not changed.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}
