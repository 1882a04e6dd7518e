//! The S3 series of `/metrics` beside its request counters: what became of the buckets'
//! events, read through [`crate::s3::notify::deliveries::Deliveries`].

use std::fmt;

use crate::s3::notify::deliveries::Deliveries;

/// Writes the notification counter; nothing until a bucket sent an event.
pub(super) fn write(deliveries: &Deliveries, out: &mut impl fmt::Write) -> fmt::Result {
    let (delivered, failed) = deliveries.counts();
    if delivered + failed == 0 {
        return Ok(());
    }
    let name = "sqslite_s3_notifications_total";
    writeln!(
        out,
        "# HELP {name} Bucket events (test events included) handed to their queue, topic or \
         function, by outcome\n# TYPE {name} counter"
    )?;
    writeln!(out, "{name}{{outcome=\"delivered\"}} {delivered}")?;
    writeln!(out, "{name}{{outcome=\"failed\"}} {failed}")
}
