//! The package around the library: the real binary (its command line, signals and limits)
//! and the checks that keep the Docker context, the stated Rust version and the storage
//! bench's lock in step with the code.

mod bench_storage_lock;
mod cli;
mod docker_context;
mod rust_version;
mod signals;
