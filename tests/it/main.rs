//! The integration tests, one crate: each module is one capability, driven through a real
//! server on an ephemeral port (the harness is `common`). One crate links once, where one binary
//! per file linked the SDK 40 times. `tests/decode_memory.rs` stays apart: it installs its own
//! global allocator to count bytes.

mod common;

mod advisor;
mod alarm_logs;
mod alarms;
mod auth;
mod bad_input;
mod batches;
mod bench_storage_lock;
mod chart;
mod cli;
mod compat_regressions;
mod config;
mod connections;
mod dashboard;
mod dead_letters;
mod drills;
mod durable;
mod durable_integrity;
mod durable_soak;
mod fault_targets;
mod fifo;
mod fifo_groups;
mod foreign_services;
mod game_day;
mod hostile_inputs;
mod list_queues;
mod localstack;
mod long_poll;
mod manual_clock;
mod mappings_admin;
mod messages;
mod move_tasks;
mod policies;
mod process;
mod query_protocol;
mod queue_urls;
mod queues;
mod receipt_handles;
mod security;
mod signatures;
mod sns;
mod sns_api;
mod sns_declare;
mod sns_durable;
mod sns_faults;
mod sns_fifo_standard;
mod sns_http;
mod sns_observe;
mod sns_policies;
mod sns_recorded;
mod sns_topics_api;
mod strict;
mod trigger_faults;
mod triggers;
mod triggers_api;
mod triggers_api_errors;
mod triggers_api_live;
mod triggers_durable;
mod triggers_kinds;
mod validation_fidelity;
