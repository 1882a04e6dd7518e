//! The integration tests, one crate: each test drives a real server on an ephemeral port (the
//! harness is `common`). One crate links once, where one binary per file linked the SDK 40
//! times. `tests/decode_memory.rs` stays apart: it installs its own global allocator to count
//! bytes.
//!
//! The folders mirror the code (src/lib.rs's Layout): one per service (`sqs`, `sns`, `s3`,
//! `triggers`; STS's few tests are `sts`), one per floor a user meets (`auth`, `http`,
//! `durable`), the observers (`observe`), game days (`drills`), the settings (`config`) and
//! the package around the library (`process`). A test goes where the code it proves lives;
//! each folder's `mod.rs` says what it holds. `sqs::scenarios` runs the SQS semantics users
//! rely on over both wire protocols (`common::wire`).

mod common;

mod auth;
mod config;
mod drills;
mod durable;
mod http;
mod observe;
mod process;
mod s3;
mod sns;
mod sqs;
mod sts;
mod triggers;
