//! The trigger series of `/metrics`: each event source mapping's counters, labelled by
//! mapping UUID, function and queue, read through [`crate::triggers::Triggers::observe`].

use std::fmt;

use crate::observe::metrics::escape;
use crate::triggers::stats::Snapshot;
use crate::triggers::Mapping;

/// A counter family: name, help, and which counter it shows.
type Family = (&'static str, &'static str, fn(&Snapshot) -> u64);

const FAMILIES: [Family; 5] = [
    (
        "sqslite_trigger_invocations_total",
        "Function invocations by event source mapping",
        |s| s.invocations,
    ),
    (
        "sqslite_trigger_errors_total",
        "Invocations that failed the whole batch (function error, timeout, invalid response)",
        |s| s.errors,
    ),
    (
        "sqslite_trigger_records_total",
        "Records sent to the function (the sum of batch sizes)",
        |s| s.records,
    ),
    (
        "sqslite_trigger_partial_failures_total",
        "Invocations whose partial batch response named failed records",
        |s| s.partial_failures,
    ),
    (
        "sqslite_trigger_filtered_total",
        "Messages deleted without an invocation because no filter matched",
        |s| s.filtered,
    ),
];

/// Writes every family; nothing while there is no mapping.
pub(super) fn write(observed: &[(Mapping, Snapshot)], out: &mut impl fmt::Write) -> fmt::Result {
    if observed.is_empty() {
        return Ok(());
    }
    for (name, help, value) in FAMILIES {
        writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter")?;
        for (m, s) in observed {
            let queue = m.event_source_arn.rsplit(':').next().unwrap_or_default();
            writeln!(
                out,
                "{name}{{mapping=\"{}\",function=\"{}\",queue=\"{}\"}} {}",
                escape(&m.uuid),
                escape(m.function_name()),
                escape(queue),
                value(s)
            )?;
        }
    }
    Ok(())
}
