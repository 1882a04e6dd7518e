//! The observers: they read the services through narrow views and change nothing in them.
//! `metrics` writes the Prometheus exposition, `alarms` watches dead-letter depth, stalls
//! and message age, `advisor` reads a running server's queues and topics and says what it
//! would change, `series` records the dashboard chart's samples and marks (the fault rules
//! and the trigger pollers reach it only through the narrow traits they define,
//! `faults::inject::Marks` and `triggers::Tally`).

pub mod advisor;
pub mod alarms;
pub mod metrics;
pub mod series;
