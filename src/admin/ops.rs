//! The few SQS actions the dashboard performs (send a test message, purge, tags, move tasks),
//! run through the same action code as the SQS API, as the queue's region and account.
//!
//! They sit behind the admin API's checks (Host, Origin, token) rather than the SQS API's, so
//! the dashboard page, which only ever talks to `/_sqslite/...`, needs no SQS credentials and
//! a page from another site can reach none of it.

use serde_json::Value;

use super::{ok, Answer, Problem};
use crate::app::App;
use crate::sqs::protocol::{Context, Input, Protocol};

/// The actions `POST /_sqslite/sqs/<Action>` runs; anything else is a 404.
pub const ALLOWED: &[&str] = &[
    "SendMessage",
    "PurgeQueue",
    "ListQueueTags",
    "StartMessageMoveTask",
    "ListMessageMoveTasks",
    "CancelMessageMoveTask",
];

/// Runs one allowed action with an AWS JSON 1.0 body; answers its JSON output, or 400 with
/// `{"error": "<Code>: <message>"}` exactly as SQS words it.
pub async fn call(app: &App, action: &str, body: &[u8], params: &[(String, String)]) -> Answer {
    if !ALLOWED.contains(&action) {
        return Err(Problem::not_found(format!(
            "the dashboard runs only {}; use the SQS API for `{action}`",
            ALLOWED.join(", ")
        )));
    }
    let param = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let request_id = crate::http::request_id();
    let mut ctx = Context::new(
        &app.config.defaults(),
        &hyper::HeaderMap::new(),
        None,
        request_id,
    );
    ctx.region = param("region").unwrap_or_else(|| app.config.region.clone());
    ctx.account = param("account").unwrap_or_else(|| app.config.account_id.clone());
    let body: &[u8] = if body.is_empty() { b"{}" } else { body };
    let run = async {
        let decoded = crate::sqs::actions::Action::decode(action, Input::Json(body))?;
        decoded.apply(&app.sqs, &ctx, Protocol::Json).await
    };
    match run.await {
        Ok(bytes) => {
            let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            tracing::info!(action, region = %ctx.region, account = %ctx.account, "dashboard action");
            Ok(ok(&value))
        }
        Err(e) => Err(Problem::bad(format!(
            "{}: {}",
            e.kind.query_code(),
            e.message
        ))),
    }
}
