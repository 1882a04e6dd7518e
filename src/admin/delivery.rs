//! `/_sqslite/delivery`: at-least-once delivery on request (`sqs::engine::at_least_once`).
//! `GET` shows the server-wide mode, seed and rates and the queues delivering at least once
//! or with a mode of their own; `PUT` changes the server-wide settings (fields left out keep
//! their values); `PUT /_sqslite/delivery/queues/<name>` sets one queue's own mode (`null`:
//! the server's). Each change throws fresh dice from the seed, so a test or drill that sets
//! the mode starts from the seed's first decision.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};

use super::{ok, parse, Answer, Problem};
use crate::app::App;
use crate::http::HttpResponse;
use crate::sqs::engine::at_least_once::{rate, DeliverySettings, Mode, Rates};

/// `PUT /_sqslite/delivery`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ServerWide {
    /// `exact` or `at-least-once`.
    mode: Option<String>,
    /// The seed of every queue's dice.
    seed: Option<u64>,
    /// Rates by name; the ones left out keep their values.
    #[serde(default)]
    rates: BTreeMap<String, f64>,
}

/// `PUT /_sqslite/delivery/queues/<name>`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OwnMode {
    /// The queue's own mode; `null` or left out: the server's.
    mode: Option<String>,
}

/// The server-wide settings and the queues that deliver at least once or have a mode of
/// their own.
pub fn show(app: &App) -> HttpResponse {
    ok(&describe(app))
}

fn describe(app: &App) -> Value {
    let s = app.sqs.registry.delivery();
    let rates: serde_json::Map<String, Value> = Rates::NAMES
        .iter()
        .map(|n| ((*n).to_owned(), json!(s.rates.get(n))))
        .collect();
    let mut all = app.sqs.registry.all();
    all.sort_by(|a, b| a.key.cmp(&b.key));
    let queues: Vec<Value> = all
        .iter()
        .filter_map(|q| {
            let d = q.delivery();
            (d.own.is_some() || d.mode == Mode::AtLeastOnce).then(|| {
                json!({
                    "name": q.key.name, "region": q.key.region, "account": q.key.account,
                    "mode": d.mode.as_str(), "own": d.own.map(Mode::as_str),
                })
            })
        })
        .collect();
    json!({"mode": s.mode.as_str(), "seed": s.seed, "rates": rates, "queues": queues})
}

/// Changes the server-wide settings.
pub fn set(app: &App, body: &[u8]) -> Answer {
    let input: ServerWide = parse(body)?;
    let mut s: DeliverySettings = app.sqs.registry.delivery();
    if let Some(mode) = &input.mode {
        s.mode = Mode::parse(mode).map_err(|e| Problem::bad(format!("`mode` {e}")))?;
    }
    if let Some(seed) = input.seed {
        s.seed = seed;
    }
    for (name, value) in &input.rates {
        let slot = s.rates.get_mut(name).ok_or_else(|| {
            Problem::bad(format!(
                "unknown rate `{name}`; the rates are {}",
                Rates::NAMES.join(", ")
            ))
        })?;
        *slot = rate(*value).map_err(|e| Problem::bad(format!("rate `{name}` {e}")))?;
    }
    app.sqs.registry.set_delivery(s);
    tracing::info!(
        mode = s.mode.as_str(),
        seed = s.seed,
        "delivery settings changed"
    );
    Ok(ok(&describe(app)))
}

/// Sets one queue's own mode.
pub fn set_queue(app: &App, name: &str, params: &[(String, String)], body: &[u8]) -> Answer {
    let input: OwnMode = parse(body)?;
    let queue = super::inspect::find(app, name, params)?;
    let own = input
        .mode
        .as_deref()
        .map(Mode::parse)
        .transpose()
        .map_err(|e| Problem::bad(format!("`mode` {e}")))?;
    app.sqs
        .registry
        .set_queue_delivery(&queue, own)
        .map_err(|e| Problem::bad(e.message))?;
    Ok(ok(&describe(app)))
}
