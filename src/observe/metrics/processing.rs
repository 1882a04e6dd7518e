//! The processing series of `/metrics`: for each queue that has seen a delete or an
//! extension, its receive-to-delete and receive-to-extension histograms and its
//! redelivered-then-deleted counter, written straight as text, byte for byte as the
//! Prometheus encoder wrote them from protobuf messages (which, with 5,000 busy queues, was
//! most of an 18 MB scrape's time).

use std::fmt;
use std::sync::Arc;

use crate::clock::Millis;
use crate::observe::metrics::escape;
use crate::sqs::engine::processing::{Latencies, BUCKETS_MS};
use crate::sqs::engine::queue::Queue;

/// What a scrape copies out of a queue's [`crate::sqs::engine::processing::Processing`].
struct Observed {
    deleted: Latencies,
    extended: Latencies,
    redelivered_then_deleted: u64,
}

/// A histogram family: name, help, and which latencies it shows.
type Histogram = (&'static str, &'static str, fn(&Observed) -> &Latencies);

/// The three families, after the request series; nothing while no queue has a sample.
pub(super) fn write(all: &[Arc<Queue>], now: Millis, out: &mut impl fmt::Write) -> fmt::Result {
    let observed = observe(all, now);
    if observed.is_empty() {
        return Ok(());
    }
    // `{queue="…",region="…",account="…"`, left open for a bucket's `le`.
    let labels: Vec<String> = observed
        .iter()
        .map(|(q, _)| {
            let k = &q.key;
            format!(
                "{{queue=\"{}\",region=\"{}\",account=\"{}\"",
                escape(&k.name),
                escape(&k.region),
                escape(&k.account)
            )
        })
        .collect();
    let histograms: [Histogram; 2] = [
        (
            "sqslite_processing_seconds",
            "Latest receive to DeleteMessage, per message",
            |o| &o.deleted,
        ),
        (
            "sqslite_visibility_extension_seconds",
            "Latest receive to a ChangeMessageVisibility extending it",
            |o| &o.extended,
        ),
    ];
    for histogram in histograms {
        write_histogram(histogram, &observed, &labels, out)?;
    }
    let name = "sqslite_redelivered_then_deleted_total";
    write!(
        out,
        "# HELP {name} Messages deleted after two or more receives\n# TYPE {name} counter\n"
    )?;
    let mut digits = itoa::Buffer::new();
    for ((_, o), labels) in observed.iter().zip(&labels) {
        let n = digits.format(o.redelivered_then_deleted);
        writeln!(out, "{name}{labels}}} {n}")?;
    }
    Ok(())
}

/// Copies out the numbers of every queue that has seen a delete or an extension: with
/// 10,000 idle queues, empty histograms were 45 MB of a 50 MB scrape. The window of recent
/// samples is not copied (2 KiB a queue).
fn observe(all: &[Arc<Queue>], now: Millis) -> Vec<(&Queue, Observed)> {
    all.iter()
        .filter_map(|q| {
            let copy = q.read_processing(now, |p| {
                (p.deleted.count() > 0 || p.extended.count() > 0).then(|| Observed {
                    deleted: p.deleted.without_window(),
                    extended: p.extended.without_window(),
                    redelivered_then_deleted: p.redelivered_then_deleted,
                })
            })?;
            Some((&**q, copy))
        })
        .collect()
}

fn write_histogram(
    (name, help, pick): Histogram,
    observed: &[(&Queue, Observed)],
    labels: &[String],
    out: &mut impl fmt::Write,
) -> fmt::Result {
    // The encoder wrote bounds and sums as f64 `Display`, counts as whole f64s.
    let bounds: Vec<String> = BUCKETS_MS
        .iter()
        .map(|ms| (*ms as f64 / 1000.0).to_string())
        .collect();
    let mut digits = itoa::Buffer::new();
    write!(out, "# HELP {name} {help}\n# TYPE {name} histogram\n")?;
    for ((_, o), labels) in observed.iter().zip(labels) {
        let l = pick(o);
        for ((_, n), le) in l.cumulative().zip(&bounds) {
            for part in [
                name,
                "_bucket",
                labels,
                ",le=\"",
                le,
                "\"} ",
                digits.format(n),
            ] {
                out.write_str(part)?;
            }
            out.write_char('\n')?;
        }
        let count = digits.format(l.count());
        writeln!(out, "{name}_bucket{labels},le=\"+Inf\"}} {count}")?;
        let sum = l.sum_ms() as f64 / 1000.0;
        writeln!(out, "{name}_sum{labels}}} {sum}")?;
        writeln!(out, "{name}_count{labels}}} {count}")?;
    }
    Ok(())
}
