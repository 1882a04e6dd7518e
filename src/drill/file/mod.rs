//! Game days as code: `sqslite drill run FILE` reads a drill a team wrote (its queues and
//! topics, its consumer, a steady state, a method of sends, faults and time, expectations
//! with budgets on the server's clock, a rollback), runs it against a running sqslite
//! (`--endpoint`) or one of its own (`--serve`), and gives a verdict: exit 0 when every
//! expectation held, 1 when one did not, 2 when the drill could not run; `--junit` writes it
//! for CI. The guide's Game days page (docs/src/game-days.md) lists every key.

pub(crate) mod bounds;
pub mod builtin;
mod check;
mod check_parts;
mod consumer;
mod engine;
mod look;
mod report;
mod spec;
mod steps;
mod track;
mod verdict;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use serde_json::json;

pub use check::FileError;
pub use verdict::Verdict;

use crate::drill::Endpoint;

/// `sqslite drill run`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct RunOptions {
    /// The drill file (a path: `./poison`, `poison.toml`), or the name of a shipped drill
    /// (`sqslite drill show` lists them); a name that is both is refused.
    pub file: PathBuf,
    /// A running sqslite to drill (admin API enabled) [default: http://127.0.0.1:9324].
    #[arg(long, conflicts_with = "serve")]
    pub endpoint: Option<String>,
    /// Start a sqslite of the drill's own, in this process, with the file's declarations.
    #[arg(long)]
    pub serve: bool,
    /// The consumer under test, a command line run with `sh -c` (wins over `[consumer]`).
    #[arg(long)]
    pub consumer: Option<String>,
    /// Write the verdict here as JUnit XML.
    #[arg(long)]
    pub junit: Option<PathBuf>,
    /// Write a self-contained HTML report here: the checks, each queue's timeline with the
    /// steps, faults and alarms marked, the dead letters by body shape.
    #[arg(long)]
    pub report: Option<PathBuf>,
}

impl RunOptions {
    /// A drill of a running server, with no consumer command and no files written: what the
    /// built-in drills run their scenarios with.
    pub fn against(endpoint: &str) -> RunOptions {
        RunOptions {
            file: PathBuf::new(),
            endpoint: Some(endpoint.to_owned()),
            serve: false,
            consumer: None,
            junit: None,
            report: None,
        }
    }
}

/// Why a drill did not give a verdict (exit 2).
#[derive(Debug)]
pub struct CannotRun(pub String);

impl From<String> for CannotRun {
    fn from(s: String) -> Self {
        CannotRun(s)
    }
}

impl From<FileError> for CannotRun {
    fn from(e: FileError) -> Self {
        CannotRun(e.to_string())
    }
}

/// A verdict as the built-in drills report it.
pub fn report_of(verdict: Verdict) -> crate::drill::Report {
    let checks = verdict
        .cases
        .into_iter()
        .map(|case| crate::drill::Check {
            name: case.name,
            passed: case.passed,
            detail: case.detail,
        })
        .collect();
    crate::drill::Report { checks }
}

/// Reads and checks a drill file without running it.
pub fn check_file(path: &std::path::Path) -> Result<(), CannotRun> {
    let (file, text) = read(path)?;
    check::read(&file, &text)?;
    Ok(())
}

/// The file's name and text; a shipped drill's name reads that drill (`builtin::resolve`).
fn read(path: &std::path::Path) -> Result<(String, String), CannotRun> {
    let file = path.display().to_string();
    if let Some(text) = builtin::resolve(path, std::path::Path::exists)? {
        return Ok((format!("{file}.toml (shipped)"), text.to_owned()));
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        CannotRun(format!(
            "{file}: cannot read the file: {e} (the shipped drills are {})",
            builtin::names()
        ))
    })?;
    Ok((file, text))
}

/// Runs the drill, printing each step and case to `out`.
pub async fn run(opts: &RunOptions, out: &mut dyn Write) -> Result<Verdict, CannotRun> {
    let (file, text) = read(&opts.file)?;
    run_text(&file, &text, opts, out).await
}

/// Runs the drill written as `text` (called `file` in errors), as [`run`] runs a file: the
/// built-in drills build theirs from their flags.
pub async fn run_text(
    file: &str,
    text: &str,
    opts: &RunOptions,
    out: &mut dyn Write,
) -> Result<Verdict, CannotRun> {
    let checked = check::read(file, text)?;
    let server = if opts.serve {
        Some(serve(&checked).await?)
    } else {
        None
    };
    let endpoint = match (&server, &opts.endpoint) {
        (Some(s), _) => s.endpoint(),
        (None, Some(e)) => e.clone(),
        (None, None) => "http://127.0.0.1:9324".to_owned(),
    };
    let mut drill = connect(opts, &checked, &endpoint, out).await?;
    let result = drive(&mut drill, out).await;
    let dead_letters = if opts.report.is_some() {
        report::dead_letters(&drill).await
    } else {
        Vec::new()
    };
    rollback(&mut drill, out).await;
    result?;
    if let Some(path) = &opts.report {
        std::fs::write(path, report::page(&drill, &dead_letters))
            .map_err(|e| CannotRun(format!("cannot write {}: {e}", path.display())))?;
    }
    let seconds = drill.wall.elapsed().as_secs_f64();
    let mut verdict = drill.verdict;
    verdict.run = drill.run;
    verdict::finish(opts, &checked, &verdict, seconds, out)?;
    drop(server);
    Ok(verdict)
}

/// The server reached and readied: its clock fit for the method, the drill's queues there,
/// the consumer started. Nothing is sent before the clock is checked.
async fn connect<'a>(
    opts: &RunOptions,
    checked: &'a check::Checked,
    endpoint: &str,
    out: &mut dyn Write,
) -> Result<engine::Drill<'a>, CannotRun> {
    let ep = Endpoint::new(endpoint);
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
    let urls = prepare(&ep, checked, opts.serve).await?;
    let topics = topic_arns(&ep, checked, &urls).await?;
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
    let consumer = consumer::start(opts, checked, endpoint, &run, &urls)?;
    Ok(engine::Drill {
        ep,
        c: checked,
        run,
        manual,
        names: urls.keys().cloned().collect(),
        urls,
        topics,
        sent: BTreeMap::new(),
        step_at: BTreeMap::new(),
        faults: Vec::new(),
        history: Vec::new(),
        marks: Vec::new(),
        verdict: Verdict::default(),
        consumer,
        wall: crate::clock::Stopwatch::start(),
    })
}

/// Steady state, method and expectations, steady state again, and the consumer's health.
async fn drive(drill: &mut engine::Drill<'_>, out: &mut dyn Write) -> Result<(), String> {
    drill.look().await?;
    if !drill.steady_state(out, "before", false).await? {
        let _ = writeln!(
            out,
            "the steady state does not hold before the method: nothing was sent"
        );
        return Ok(());
    }
    drill.method(out).await?;
    drill.steady_state(out, "after", true).await?;
    if let consumer::Consumer::Command { .. } = drill.consumer {
        let exited = drill.consumer.exited();
        let case = verdict::Case {
            name: "the consumer ran through the drill".into(),
            passed: exited.is_none(),
            detail: exited
                .unwrap_or_else(|| "still running at the end (budget: the whole drill)".into()),
            at: drill.history.last().map_or(0, |l| l.t),
        };
        drill.verdict.decide(out, case);
    }
    Ok(())
}

/// The rollback: the drill's fault rules, then its messages (as `[rollback]` says).
async fn rollback(drill: &mut engine::Drill<'_>, out: &mut dyn Write) {
    drill.consumer = consumer::Consumer::Outside;
    if drill.c.file.rollback.faults {
        let _ = drill.clear_faults().await;
    }
    if drill.c.file.rollback.messages {
        let mut removed = Vec::new();
        for name in drill.names.clone() {
            let n = crate::drill::consumer::remove_run(&drill.ep, &name, &drill.run)
                .await
                .unwrap_or(0);
            removed.push(format!("{n} from {name}"));
        }
        let last = removed.pop().unwrap_or_default();
        let all = if removed.is_empty() {
            last
        } else {
            format!("{} and {last}", removed.join(", "))
        };
        let _ = writeln!(
            out,
            "cleaned up: removed {}",
            all.replacen(" from", " of this run's messages from", 1)
        );
    }
}

/// A sqslite of the drill's own on a free loopback port, with the file's declarations, on a
/// manual clock unless `[drill] clock = "system"`.
async fn serve(c: &check::Checked) -> Result<crate::Server, CannotRun> {
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
    let queue_arn = info["arn"].as_str().unwrap_or_default();
    let parts: Vec<&str> = queue_arn.split(':').collect();
    let (region, account) = (
        parts.get(3).copied().unwrap_or("us-east-1"),
        parts.get(4).copied().unwrap_or("000000000000"),
    );
    for name in &c.topics {
        arns.insert(
            name.clone(),
            format!("arn:aws:sns:{region}:{account}:{name}"),
        );
    }
    Ok(arns)
}
