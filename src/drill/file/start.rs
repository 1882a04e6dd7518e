//! The drill's start: its server reached (or one of its own started), its clock checked
//! against the method, its queues created and found, its buckets created and wired to them,
//! its consumer started. Nothing is sent
//! before the clock is checked.

use std::collections::BTreeMap;
use std::io::Write;

use serde_json::json;

use super::{check, consumer, engine, first_poll, CannotRun, RunOptions, Verdict};
use crate::drill::Endpoint;

/// The server reached and readied: its clock fit for the method, the drill's queues there,
/// the consumer started. Nothing is sent before the clock is checked.
pub(super) async fn connect<'a>(
    opts: &RunOptions,
    checked: &'a check::Checked,
    endpoint: &str,
    out: &mut dyn Write,
) -> Result<engine::Drill<'a>, CannotRun> {
    let ep = Endpoint::new(endpoint);
    let manual = manual_clock(&ep, opts, checked, endpoint).await?;
    let urls = prepare(&ep, checked, opts.serve).await?;
    let topics = topic_arns(&ep, checked, &urls).await?;
    super::buckets::create(&ep, checked, &topics).await?;
    let run = uuid::Uuid::new_v4().simple().to_string();
    let clock = if manual {
        ", manual clock: the drill moves it"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "drill {} (run {run}) against {endpoint}{clock}",
        checked.file.drill.name
    );
    if !checked.file.drill.description.is_empty() {
        let _ = writeln!(out, "  {}", checked.file.drill.description);
    }
    let names: Vec<String> = urls.keys().cloned().collect();
    let before = first_poll::read(&ep, &names).await?;
    let mut consumer = consumer::start(opts, checked, endpoint, &run, &urls)?;
    let wait = first_poll::Wait {
        ep: &ep,
        names: &names,
        before,
        look_ms: checked.file.drill.look_ms,
        spec: checked.file.consumer.as_ref(),
    };
    first_poll::wait(&wait, &mut consumer, out).await?;
    Ok(engine::Drill {
        ep,
        c: checked,
        run,
        manual,
        names,
        urls,
        topics,
        sent: BTreeMap::new(),
        step_at: BTreeMap::new(),
        faults: Vec::new(),
        delivery_before: None,
        history: Vec::new(),
        marks: Vec::new(),
        verdict: Verdict::default(),
        consumer,
        trackers: Vec::new(),
        started: 0,
        wall: crate::clock::Stopwatch::start(),
    })
}

/// Whether the server's clock is manual; a method that moves the clock needs one.
async fn manual_clock(
    ep: &Endpoint,
    opts: &RunOptions,
    checked: &check::Checked,
    endpoint: &str,
) -> Result<bool, CannotRun> {
    let (_, manual) = ep
        .clock()
        .await
        .map_err(|e| format!("cannot reach sqslite's admin API at {endpoint}: {e}"))?;
    let advances = checked
        .file
        .method
        .iter()
        .any(|s| s.get_ref().action.get_ref() == "advance");
    if advances && !manual {
        return Err(CannotRun(format!(
            "{}: the method has `advance` steps and the server at {endpoint} runs on the system clock; nothing was sent",
            opts.file.display()
        )));
    }
    Ok(manual)
}

/// A sqslite of the drill's own on a free loopback port, with the file's declarations, on a
/// manual clock unless `[drill] clock = "system"`.
pub(super) async fn serve(c: &check::Checked) -> Result<crate::Server, CannotRun> {
    let mut config = c.config.clone();
    config.port = 0;
    config.host = "127.0.0.1".into();
    let system = c.file.drill.system_clock();
    config.clock = if system {
        crate::ClockKind::System
    } else {
        crate::ClockKind::Manual
    };
    crate::Server::start(config)
        .await
        .map_err(|e| CannotRun(format!("cannot start the drill's sqslite: {e}")))
}

/// Each queue's URL; on a server the drill did not start, declared queues are created first
/// (dead-letter queues before their sources) and required ones must exist.
async fn prepare(
    ep: &Endpoint,
    c: &check::Checked,
    served: bool,
) -> Result<BTreeMap<String, String>, CannotRun> {
    if !served {
        let mut decls = c.config.queues.clone();
        // A queue that is some other's dead-letter target is created first.
        decls.sort_by_key(|q| {
            !c.config
                .queues
                .iter()
                .any(|o| o.dead_letter.as_ref().is_some_and(|d| d.target == q.name))
        });
        for q in &decls {
            create_queue(ep, q).await?;
        }
    }
    let mut urls = BTreeMap::new();
    for name in &c.queues {
        let (url, _) = crate::drill::queue_url(ep, name)
            .await
            .map_err(|e| CannotRun(format!("the drill needs queue `{name}`: {e}")))?;
        urls.insert(name.clone(), url);
    }
    Ok(urls)
}

/// CreateQueue for one declaration, its dead-letter wiring as a RedrivePolicy.
async fn create_queue(ep: &Endpoint, q: &crate::config::QueueDecl) -> Result<(), CannotRun> {
    let mut attributes = serde_json::Map::new();
    for (k, v) in &q.attributes {
        attributes.insert(k.clone(), json!(v));
    }
    if let Some(dl) = &q.dead_letter {
        let target = ep
            .get(&format!("/_sqslite/queues/{}", dl.target))
            .await
            .map_err(|e| {
                CannotRun(format!(
                    "queue `{}`'s dead-letter queue `{}`: {e}",
                    q.name, dl.target
                ))
            })?;
        let policy =
            json!({"deadLetterTargetArn": target["arn"], "maxReceiveCount": dl.max_receive_count});
        attributes.insert("RedrivePolicy".into(), json!(policy.to_string()));
    }
    ep.sqs(
        "CreateQueue",
        &json!({"QueueName": q.name, "Attributes": attributes}),
    )
    .await
    .map_err(|e| CannotRun(format!("cannot create queue `{}`: {e}", q.name)))?;
    Ok(())
}

/// Topic ARNs in the region and account of the drill's queues.
async fn topic_arns(
    ep: &Endpoint,
    c: &check::Checked,
    urls: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, CannotRun> {
    let mut arns = BTreeMap::new();
    let Some(first) = urls.keys().next() else {
        return Ok(arns);
    };
    let info = ep.get(&format!("/_sqslite/queues/{first}")).await?;
    let (region, account) = region_account(info["arn"].as_str().unwrap_or_default());
    for name in &c.topics {
        arns.insert(
            name.clone(),
            format!("arn:aws:sns:{region}:{account}:{name}"),
        );
    }
    Ok(arns)
}

/// The region and account a queue's ARN names (us-east-1 and the default account when it
/// names none).
pub(super) fn region_account(queue_arn: &str) -> (String, String) {
    let parts: Vec<&str> = queue_arn.split(':').collect();
    (
        parts.get(3).copied().unwrap_or("us-east-1").to_owned(),
        parts.get(4).copied().unwrap_or("000000000000").to_owned(),
    )
}
