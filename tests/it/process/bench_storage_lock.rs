//! bench/storage (the storage comparison, BENCHMARKS.md) is a crate of its own whose committed
//! Cargo.lock also lists sqslite's dependencies: one added to sqslite must reach that lock too,
//! or `.ci/run`'s `cargo build --locked` of the benchmark fails long after `cargo test` passed.
//! This test fails first, and says what to run.

#[test]
fn the_storage_benchmarks_lock_file_is_current() {
    let out = crate::common::cargo::locked_metadata("bench/storage/Cargo.toml");
    assert!(
        out.status.success(),
        "bench/storage/Cargo.lock is out of date with sqslite's dependencies; run \
         `cd bench/storage && cargo update -p sqslite` and commit the lock.\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
