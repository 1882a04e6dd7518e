//! `cargo metadata --locked` of a manifest of this repository, for the tests that read a lock.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `cargo metadata --locked --format-version=1` on `manifest` (relative to the root).
pub fn locked_metadata(manifest: &str) -> Output {
    Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--locked",
            "--format-version=1",
            "--manifest-path",
        ])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(manifest))
        .output()
        .expect("run cargo metadata")
}
