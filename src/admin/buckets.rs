//! `GET /_sqslite/buckets`: every S3 bucket with what it holds and its notification rules,
//! and the recent deliveries of the buckets' events with why each that failed did, read
//! through the S3 service's views.

use serde_json::{json, Value};

use super::ok;
use crate::app::App;
use crate::http::HttpResponse;
use crate::s3::engine::notifications::{Destination, Rule};
use crate::s3::engine::Bucket;
use crate::s3::notify::deliveries::Delivery;

fn rule_json(rule: &Rule) -> Value {
    let kind = match rule.destination {
        Destination::Queue(_) => "queue",
        Destination::Topic(_) => "topic",
        Destination::Function(_) => "function",
    };
    json!({
        "id": rule.id,
        "destination": rule.destination.arn(),
        "kind": kind,
        "events": rule.events,
        "prefix": rule.prefix,
        "suffix": rule.suffix,
    })
}

/// A bucket as the page shows it; `None` if it was deleted while being read.
fn bucket_json(bucket: &Bucket) -> Option<Value> {
    let usage = bucket.usage().ok()?;
    let rules = bucket.notifications().ok()?;
    Some(json!({
        "name": bucket.name,
        "owner": bucket.owner,
        "region": bucket.region,
        "created": bucket.created,
        "objects": usage.objects,
        "bytes": usage.bytes,
        "uploads": usage.uploads,
        "notifications": rules.iter().map(rule_json).collect::<Vec<_>>(),
    }))
}

fn delivery_json(d: &Delivery) -> Value {
    json!({
        "at": d.at,
        "bucket": d.bucket,
        "event": d.event,
        "key": d.key,
        "destination": d.destination,
        "failure": d.failure,
    })
}

pub fn list(app: &App) -> HttpResponse {
    let buckets: Vec<Value> = app
        .s3
        .buckets()
        .iter()
        .filter_map(|b| bucket_json(b))
        .collect();
    let deliveries = app.s3.deliveries();
    let (delivered, failed) = deliveries.counts();
    let recent: Vec<Value> = deliveries
        .recent()
        .iter()
        .rev()
        .map(delivery_json)
        .collect();
    ok(&json!({
        "now": app.now(),
        "buckets": buckets,
        "deliveries": {"delivered": delivered, "failed": failed, "recent": recent},
    }))
}
