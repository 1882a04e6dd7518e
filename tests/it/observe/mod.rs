//! The observers (src/observe) and the dashboard they feed (src/admin): alarms and their log
//! lines, the advisor, the chart's series and the dashboard's server side.

pub(crate) mod advisor;
mod alarm_logs;
mod alarms;
mod chart;
mod dashboard;
