//! A drill's S3 buckets (`[[buckets]]`): each created on the drill's server before the
//! method, with the notification configuration that turns the method's uploads into messages
//! for its queues, topics or functions. They are set up through S3's own API, as a team's
//! infrastructure code would, so S3's validation applies: a queue or topic whose Policy does
//! not let `s3.amazonaws.com` send for the bucket refuses the configuration, and the drill
//! cannot run (exit 2) rather than wait on messages that never come.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::check::{listed, Checked, FileError, Place};
use super::CannotRun;
use crate::drill::Endpoint;
use crate::http::xml::escape_into;

/// One `[[buckets]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BucketSpec {
    /// The bucket's name (S3's rules apply: 3-63 lowercase letters, digits, dots, hyphens).
    pub name: Spanned<String>,
    /// Where its events go.
    #[serde(default)]
    pub notifications: Vec<Spanned<NotificationSpec>>,
}

/// An `upload` step's bucket, declared in `[[buckets]]`.
pub(super) fn check_upload(
    place: &Place<'_>,
    c: &Checked,
    step: &super::spec::Step,
) -> Result<(), FileError> {
    let bucket = step
        .bucket
        .as_ref()
        .ok_or_else(|| place.error(Some(step.action.span()), "step `upload` needs `bucket`"))?;
    let declared: std::collections::BTreeSet<String> = c
        .file
        .buckets
        .iter()
        .map(|b| b.get_ref().name.get_ref().clone())
        .collect();
    if declared.contains(bucket.get_ref()) {
        return Ok(());
    }
    Err(place.error(
        Some(bucket.span()),
        format!(
            "the drill declares no bucket `{}` ([[buckets]]); it has {}",
            bucket.get_ref(),
            listed(&declared)
        ),
    ))
}

/// One destination of a bucket's events (`[[buckets.notifications]]`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationSpec {
    /// A queue of the drill's.
    #[serde(default)]
    pub queue: Option<Spanned<String>>,
    /// A topic of the drill's.
    #[serde(default)]
    pub topic: Option<Spanned<String>>,
    /// A declared function (`[[functions]]`).
    #[serde(default)]
    pub function: Option<Spanned<String>>,
    /// The events sent (default: `s3:ObjectCreated:*`).
    #[serde(default = "created")]
    pub events: Vec<String>,
    /// Only keys that start with this.
    #[serde(default)]
    pub prefix: Option<String>,
    /// Only keys that end with this.
    #[serde(default)]
    pub suffix: Option<String>,
}

/// `events`' default: every upload.
fn created() -> Vec<String> {
    vec!["s3:ObjectCreated:*".into()]
}

/// Each bucket's destinations name exactly one queue, topic or function of the drill's, and
/// no two buckets share a name.
pub(super) fn check(place: &Place<'_>, c: &Checked) -> Result<(), FileError> {
    let mut seen = std::collections::BTreeSet::new();
    for bucket in &c.file.buckets {
        let name = &bucket.get_ref().name;
        if !seen.insert(name.get_ref().clone()) {
            return Err(place.error(
                Some(name.span()),
                format!("two [[buckets]] are called `{}`", name.get_ref()),
            ));
        }
        for n in &bucket.get_ref().notifications {
            destination(place, c, n)?;
        }
    }
    Ok(())
}

/// A destination's one target, declared in the drill.
fn destination(
    place: &Place<'_>,
    c: &Checked,
    n: &Spanned<NotificationSpec>,
) -> Result<(), FileError> {
    let spec = n.get_ref();
    let functions: std::collections::BTreeSet<String> = c
        .config
        .triggers
        .functions
        .iter()
        .map(|f| f.name.clone())
        .collect();
    let (target, known, what) = match (&spec.queue, &spec.topic, &spec.function) {
        (Some(q), None, None) => (q, &c.queues, ("queue", "[[queues]] or [requires] queues")),
        (None, Some(t), None) => (t, &c.topics, ("topic", "[[topics]] or [requires] topics")),
        (None, None, Some(f)) => (f, &functions, ("function", "[[functions]]")),
        _ => {
            return Err(place.error(
                Some(n.span()),
                "a bucket's notification names one `queue`, `topic` or `function`",
            ))
        }
    };
    if known.contains(target.get_ref()) {
        return Ok(());
    }
    Err(place.error(
        Some(target.span()),
        format!(
            "the drill declares no {} `{}` ({}); it has {}",
            what.0,
            target.get_ref(),
            what.1,
            listed(known)
        ),
    ))
}

/// Creates each bucket (one the caller already owns is kept) and puts its notification
/// configuration, with ARNs in the region and account of the drill's queues.
pub(super) async fn create(
    ep: &Endpoint,
    c: &Checked,
    topic_arns: &BTreeMap<String, String>,
) -> Result<(), CannotRun> {
    if c.file.buckets.is_empty() {
        return Ok(());
    }
    let mut queue_arns = BTreeMap::new();
    for name in &c.queues {
        let info = ep.get(&format!("/_sqslite/queues/{name}")).await?;
        let arn = info["arn"].as_str().unwrap_or_default().to_owned();
        queue_arns.insert(name.clone(), arn);
    }
    let (region, account) =
        super::start::region_account(queue_arns.values().next().map_or("", String::as_str));
    for bucket in &c.file.buckets {
        let bucket = bucket.get_ref();
        let name = bucket.name.get_ref();
        match ep.s3("PUT", &format!("/{name}"), Vec::new()).await {
            // A server the drill did not start may keep the bucket from an earlier run.
            Err(e) if !e.contains("BucketAlreadyOwnedByYou") => {
                return Err(CannotRun(format!("cannot create bucket `{name}`: {e}")));
            }
            _ => {}
        }
        let arn = |n: &NotificationSpec| match (&n.queue, &n.topic, &n.function) {
            (Some(q), _, _) => queue_arns.get(q.get_ref()).cloned().unwrap_or_default(),
            (_, Some(t), _) => topic_arns.get(t.get_ref()).cloned().unwrap_or_default(),
            (_, _, Some(f)) => {
                format!("arn:aws:lambda:{region}:{account}:function:{}", f.get_ref())
            }
            _ => String::new(),
        };
        let document = configuration(&bucket.notifications, &arn);
        ep.s3(
            "PUT",
            &format!("/{name}?notification"),
            document.into_bytes(),
        )
        .await
        .map_err(|e| {
            CannotRun(format!(
                "cannot configure bucket `{name}`'s notifications: {e}"
            ))
        })?;
    }
    Ok(())
}

/// Whether a destination is of one kind.
type Is = fn(&NotificationSpec) -> bool;

/// The `NotificationConfiguration` document, its elements in S3's model order (topics,
/// queues, functions).
fn configuration(
    notifications: &[Spanned<NotificationSpec>],
    arn: &dyn Fn(&NotificationSpec) -> String,
) -> String {
    let mut xml = String::from(
        r#"<NotificationConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#,
    );
    let kinds: [(&str, &str, Is); 3] = [
        ("TopicConfiguration", "Topic", |n| n.topic.is_some()),
        ("QueueConfiguration", "Queue", |n| n.queue.is_some()),
        ("CloudFunctionConfiguration", "CloudFunction", |n| {
            n.function.is_some()
        }),
    ];
    for (element, target, is) in kinds {
        for (i, n) in notifications.iter().map(Spanned::get_ref).enumerate() {
            if !is(n) {
                continue;
            }
            let _ = write!(xml, "<{element}><Id>drill-{i}</Id><{target}>");
            escape_into(&mut xml, &arn(n));
            let _ = write!(xml, "</{target}>");
            for event in &n.events {
                xml.push_str("<Event>");
                escape_into(&mut xml, event);
                xml.push_str("</Event>");
            }
            let rules: Vec<(&str, &String)> = [("prefix", &n.prefix), ("suffix", &n.suffix)]
                .into_iter()
                .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
                .collect();
            if !rules.is_empty() {
                xml.push_str("<Filter><S3Key>");
                for (k, v) in rules {
                    let _ = write!(xml, "<FilterRule><Name>{k}</Name><Value>");
                    escape_into(&mut xml, v);
                    xml.push_str("</Value></FilterRule>");
                }
                xml.push_str("</S3Key></Filter>");
            }
            let _ = write!(xml, "</{element}>");
        }
    }
    xml.push_str("</NotificationConfiguration>");
    xml
}
