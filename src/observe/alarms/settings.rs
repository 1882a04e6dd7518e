//! `[alarms]`: the thresholds the alarms evaluate and the webhook they call; the
//! configuration loads it, the alarms and the advisor read it.

use serde::{Deserialize, Serialize};

/// `[alarms]` in sqslite.toml.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct AlarmConfig {
    /// A queue with work and no successful DeleteMessage for this long is stalled.
    pub stall_seconds: u64,
    /// The oldest message may be this old before its queue alarms; 0 turns the alarm off.
    pub max_age_seconds: u64,
    /// A message received this many times alarms its queue; unset, each queue's
    /// maxReceiveCount - 1 (5 on a queue without a RedrivePolicy).
    pub receive_count: Option<u32>,
    /// Every state change is POSTed here as JSON (plain `http://` only).
    pub webhook: Option<String>,
    /// How long one webhook POST may take, in milliseconds (2,000 by default).
    pub webhook_timeout_ms: u64,
    /// Further attempts after a failed webhook POST (3 by default).
    pub webhook_retries: u32,
    /// Whether the config has an `[alarms]` table: only then are transitions logged at
    /// `info`. Without one they log at `debug`, since ordinary test runs trip the built-in
    /// alarms on purpose (a DLQ filled by a redrive test, a message received once).
    #[serde(skip)]
    pub configured: bool,
}

impl Default for AlarmConfig {
    fn default() -> Self {
        AlarmConfig {
            stall_seconds: 120,
            max_age_seconds: 600,
            receive_count: None,
            webhook: None,
            webhook_timeout_ms: 2_000,
            webhook_retries: 3,
            configured: false,
        }
    }
}
