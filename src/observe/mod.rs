//! The observers: they read the services through narrow views and change nothing in them.
//! `metrics` writes the Prometheus exposition, `alarms` watches dead-letter depth, stalls
//! and message age, `advisor` reads a running server's queues and topics and says what it
//! would change.

pub mod advisor;
pub mod alarms;
pub mod metrics;
