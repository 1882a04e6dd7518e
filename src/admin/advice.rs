//! `GET /_sqslite/advice`: the advisor's findings for every queue and SNS subscription, as
//! JSON.

use serde_json::json;

use super::ok;
use crate::app::App;
use crate::http::HttpResponse;

/// The fix commands name this server as the request reached it (or its public URL).
pub fn advice(app: &App, host: Option<&str>) -> HttpResponse {
    let endpoint = app
        .config
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{}", host.unwrap_or("localhost:9324")));
    let now = app.now();
    let snapshot = crate::observe::advisor::snapshot::take(
        &app.sqs.registry,
        &app.sns.topics,
        &app.config.admin.alarms,
        endpoint.trim_end_matches('/'),
        now,
    );
    let findings = crate::observe::advisor::advise(&snapshot, &app.config.advisor);
    ok(&json!({
        "now": now,
        "queues": snapshot.queues.len(),
        "subscriptions": snapshot.subscriptions.len(),
        "thresholds": app.config.advisor,
        "findings": findings,
    }))
}
