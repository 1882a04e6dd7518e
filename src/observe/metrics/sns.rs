//! The SNS series of `/metrics`, named after CloudWatch's SNS metrics: per topic
//! (`NumberOfMessagesPublished`, `PublishSize`) and per subscription (the
//! `NumberOfNotifications…` family; CloudWatch's per-topic figure is their sum by `topic`).
//! Read through the SNS engine's view, never its state.

use std::fmt;

use crate::observe::metrics::escape;
use crate::sns::engine::counts::{SubscriptionCounts, Undeliverable};
use crate::sns::engine::view::{SubscriptionView, TopicView};

type Help = (&'static str, &'static str, &'static str);
/// How a series reads its figure from a subscription's counts.
type Read = fn(&SubscriptionCounts) -> u64;

/// Per-subscription counters: (name, help, type) and how each reads the counts.
const SUBSCRIPTION_SERIES: [(Help, Read); 8] = [
    (
        (
            "sns_number_of_notifications_delivered_total",
            "Notifications the endpoint accepted",
            "counter",
        ),
        |c| c.delivered,
    ),
    (
        (
            "sns_number_of_notifications_failed_total",
            "Notifications the endpoint refused or could not receive",
            "counter",
        ),
        |c| c.failed,
    ),
    (
        (
            "sns_number_of_notifications_filtered_out_total",
            "Messages the subscription's filter policy rejected",
            "counter",
        ),
        |c| c.filtered_out,
    ),
    (
        (
            "sns_number_of_notifications_filtered_out_no_message_attributes_total",
            "Messages an attribute filter policy rejected because they had no attributes",
            "counter",
        ),
        |c| c.filtered_out_no_message_attributes,
    ),
    (
        (
            "sns_number_of_notifications_filtered_out_invalid_attributes_total",
            "Messages rejected because their attributes are malformed",
            "counter",
        ),
        |c| c.filtered_out_invalid_attributes,
    ),
    (
        (
            "sns_number_of_notifications_filtered_out_invalid_message_body_total",
            "Messages a body filter policy rejected because the body is not JSON",
            "counter",
        ),
        |c| c.filtered_out_invalid_message_body,
    ),
    (
        (
            "sns_number_of_notifications_redriven_to_dlq_total",
            "Failed notifications moved to the subscription's dead-letter queue",
            "counter",
        ),
        |c| c.redriven_to_dlq,
    ),
    (
        (
            "sns_number_of_notifications_failed_to_redrive_to_dlq_total",
            "Failed notifications the dead-letter queue refused too",
            "counter",
        ),
        |c| c.failed_to_redrive_to_dlq,
    ),
];

fn header(out: &mut impl fmt::Write, (name, help, kind): Help) -> fmt::Result {
    writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}")
}

fn topic_labels(t: &TopicView) -> String {
    format!(
        "{{account=\"{}\",region=\"{}\",topic=\"{}\"}}",
        escape(&t.account),
        escape(&t.region),
        escape(&t.name)
    )
}

fn subscription_labels(t: &TopicView, s: &SubscriptionView) -> String {
    let id = s.arn.rsplit(':').next().unwrap_or_default();
    format!(
        "{{account=\"{}\",endpoint=\"{}\",protocol=\"{}\",region=\"{}\",subscription=\"{}\",topic=\"{}\"}}",
        escape(&t.account),
        escape(&s.endpoint),
        escape(&s.protocol),
        escape(&t.region),
        escape(id),
        escape(&t.name)
    )
}

/// Every topic's and subscription's series; nothing when there are no topics.
pub(super) fn write_series(topics: &[TopicView], out: &mut impl fmt::Write) -> fmt::Result {
    if topics.is_empty() {
        return Ok(());
    }
    let labels: Vec<String> = topics.iter().map(topic_labels).collect();
    header(
        out,
        (
            "sns_number_of_messages_published_total",
            "Messages published to the topic",
            "counter",
        ),
    )?;
    for (t, l) in topics.iter().zip(&labels) {
        writeln!(
            out,
            "sns_number_of_messages_published_total{l} {}",
            t.counts.published
        )?;
    }
    header(
        out,
        (
            "sns_publish_size_bytes",
            "Average size of the messages published (message and attributes)",
            "gauge",
        ),
    )?;
    for (t, l) in topics.iter().zip(&labels) {
        let c = t.counts;
        match c.published {
            0 => writeln!(out, "sns_publish_size_bytes{l} 0")?,
            n if c.published_bytes % n == 0 => {
                writeln!(out, "sns_publish_size_bytes{l} {}", c.published_bytes / n)?;
            }
            n => writeln!(
                out,
                "sns_publish_size_bytes{l} {}",
                c.published_bytes as f64 / n as f64
            )?,
        }
    }
    let subscriptions: Vec<(String, &SubscriptionCounts)> = topics
        .iter()
        .flat_map(|t| {
            t.subscriptions
                .iter()
                .map(move |s| (subscription_labels(t, s), &s.counts))
        })
        .collect();
    if subscriptions.is_empty() {
        return Ok(());
    }
    for (help, read) in SUBSCRIPTION_SERIES {
        header(out, help)?;
        for (l, c) in &subscriptions {
            writeln!(out, "{}{l} {}", help.0, read(c))?;
        }
    }
    write_undeliverable(&subscriptions, out)
}

/// sqslite's own series: notifications that could not be delivered, by why and by whether
/// they reached the dead-letter queue (`fate="dead_lettered"`) or were lost
/// (`fate="dropped"`).
fn write_undeliverable(
    subscriptions: &[(String, &SubscriptionCounts)],
    out: &mut impl fmt::Write,
) -> fmt::Result {
    let name = "sqslite_sns_notifications_undeliverable_total";
    header(
        out,
        (
            name,
            "Notifications that could not be delivered, by reason and where they went",
            "counter",
        ),
    )?;
    for (l, c) in subscriptions {
        let open = l.strip_suffix('}').unwrap_or(l);
        for (why, counts) in Undeliverable::ALL.iter().zip(c.undeliverable) {
            for (fate, n) in ["dead_lettered", "dropped"].into_iter().zip(counts) {
                let reason = why.name();
                writeln!(
                    out,
                    "{name}{open},fate=\"{fate}\",reason=\"{reason}\"}} {n}"
                )?;
            }
        }
    }
    Ok(())
}
