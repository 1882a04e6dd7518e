//! Game-day settings from the config: whether the admin API is served, fault rules that
//! apply from startup, and alarm thresholds with an optional webhook.

use serde::{Deserialize, Serialize};

use crate::faults::FaultSpec;

#[derive(Debug, Clone, PartialEq)]
pub struct AdminConfig {
    /// `--no-admin` turns this off: `/_sqslite/...` and `/_aws/sqs/...` then answer 404.
    pub enabled: bool,
    /// Rules armed at startup and again after every reset (`[[faults]]` in sqslite.toml).
    pub faults: Vec<FaultSpec>,
    pub alarms: AlarmConfig,
}

impl Default for AdminConfig {
    fn default() -> Self {
        AdminConfig {
            enabled: true,
            faults: Vec::new(),
            alarms: AlarmConfig::default(),
        }
    }
}

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
    pub webhook_timeout_ms: u64,
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

/// Reads `[alarms]` or one `[[faults]]` table from its JSON form; the error names the problem.
pub fn from_json<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| e.to_string())
}
