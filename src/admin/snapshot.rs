//! `POST /_sqslite/snapshot`: compacts the data directory now and, given
//! `{"backup_to": DIR}`, copies a consistent backup of the running server into DIR.

use std::path::PathBuf;
use std::sync::Arc;

use hyper::StatusCode;
use serde::Deserialize;
use serde_json::json;

use super::{ok, parse, Answer, Problem};
use crate::app::App;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SnapshotRequest {
    backup_to: Option<PathBuf>,
}

pub async fn snapshot(app: Arc<App>, body: &[u8]) -> Answer {
    if app.durable.is_none() {
        return Err(Problem::bad(
            "sqslite keeps everything in memory (no --data-dir): there is nothing to snapshot",
        ));
    }
    let input: SnapshotRequest = parse(body)?;
    let target = input.backup_to.clone();
    let done = tokio::task::spawn_blocking(move || {
        let durable = app.durable.as_ref().expect("checked above");
        durable.snapshot_now(app.stores(), app.now(), input.backup_to.as_deref())
    })
    .await;
    match done {
        Ok(Ok(s)) => Ok(ok(&json!({
            "generation": s.generation,
            "snapshot_bytes": s.bytes,
            "backup_to": target,
            "backup_bytes": s.backup_bytes,
            "millis": s.millis,
        }))),
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            Err(Problem::bad(e.to_string()))
        }
        Ok(Err(e)) => Err(Problem(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the snapshot failed: {e}"),
        )),
        Err(_) => Err(Problem(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the snapshot stopped before it ended".into(),
        )),
    }
}
