//! Game-day settings from the config: whether the admin API is served, fault rules that
//! apply from startup, and alarm thresholds with an optional webhook. The aggregate groups
//! them; the fault rule and alarm types are their own modules'.

use crate::faults::FaultSpec;
use crate::observe::alarms::AlarmConfig;

/// `[admin]`, `[[faults]]` and `[alarms]`: the game-day settings.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminConfig {
    /// `--no-admin` turns this off: `/_sqslite/...` and `/_aws/sqs/...` then answer 404.
    pub enabled: bool,
    /// Rules armed at startup and again after every reset (`[[faults]]` in sqslite.toml).
    pub faults: Vec<FaultSpec>,
    /// `[alarms]`: the thresholds and the webhook of the built-in alarms.
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

/// Reads `[alarms]` or one `[[faults]]` table from its JSON form; the error names the problem.
pub fn from_json<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| e.to_string())
}
