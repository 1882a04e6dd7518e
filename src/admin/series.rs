//! `GET /_sqslite/queues/<name>/series`: the dashboard chart's data for a queue and its
//! dead-letter queue (from its RedrivePolicy), on the server's clock, with the alarm and
//! fault marks about them and the named series (trigger mappings) about either.

use serde_json::{json, Value};

use super::{inspect, ok, Answer};
use crate::app::App;
use crate::observe::series::{Point, Sample, INTERVAL_MS, WINDOW_MS};
use crate::sqs::engine::queue::Queue;

pub fn chart(app: &App, name: &str, params: &[(String, String)]) -> Answer {
    let queue = inspect::find(app, name, params)?;
    let now = app.now();
    let dlq = app.sqs.registry.dead_letter_queue_of(&queue, now);
    let mut asked: Vec<&Queue> = vec![&queue];
    asked.extend(dlq.as_deref());
    let subjects: Vec<String> = asked.iter().map(|q| q.arn()).collect();
    if app.series.watch(now) {
        // The ticker re-plans: from now on it also wakes for the next sample.
        app.ticker.notify_one();
    }
    let chart = app.series.chart(&asked, &subjects, now);
    let mut series = chart.queues.into_iter();
    let queue_json = described(&queue, &series.next().unwrap_or_default());
    let dlq_json = dlq.map(|d| described(&d, &series.next().unwrap_or_default()));
    Ok(ok(&json!({
        "now": now,
        "manual": app.clock.as_manual().is_some(),
        "interval_ms": INTERVAL_MS,
        "window_ms": WINDOW_MS,
        "queue": queue_json,
        "dead_letter_queue": dlq_json,
        "series": chart.named,
        "events": chart.events,
    })))
}

fn described(q: &Queue, samples: &[Point<Sample>]) -> Value {
    json!({
        "name": q.key.name,
        "region": q.key.region,
        "account": q.key.account,
        "arn": q.arn(),
        "samples": samples,
    })
}
