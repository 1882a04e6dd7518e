//! bench/storage (the storage comparison, BENCHMARKS.md) is a crate of its own whose committed
//! Cargo.lock also lists sqslite's dependencies: one added to sqslite must reach that lock too,
//! or `.ci/run`'s `cargo build --locked` of the benchmark fails long after `cargo test` passed.
//! This test fails first, and says what to run.

use std::path::Path;
use std::process::Command;

#[test]
fn the_storage_benchmarks_lock_file_is_current() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/storage/Cargo.toml");
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--locked",
            "--format-version=1",
            "--manifest-path",
        ])
        .arg(&manifest)
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "bench/storage/Cargo.lock is out of date with sqslite's dependencies; run \
         `cd bench/storage && cargo update -p sqslite` and commit the lock.\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
