//! Game days as code: `sqslite drill run FILE` reads a drill a team wrote (its queues,
//! topics and buckets, its consumer, a steady state, a method of sends, uploads, faults and
//! time, expectations with budgets on the server's clock, a rollback), runs it against a
//! running sqslite (`--endpoint`) or one of its own (`--serve`), and gives a verdict: exit 0
//! when every expectation held, 1 when one did not, 2 when the drill could not run (a bad
//! file, no server, a consumer not found or gone before its first poll); `--junit` writes it
//! for CI. The guide's Game days page (docs/src/game-days.md) lists every key.

pub(crate) mod bounds;
mod buckets;
pub mod builtin;
mod check;
mod check_parts;
mod consumer;
mod engine;
mod explain;
mod first_poll;
mod look;
mod report;
mod spec;
mod start;
mod steady;
mod step_spec;
mod steps;
mod track;
mod upload;
mod verdict;

use std::io::Write;
use std::path::PathBuf;

pub use check::FileError;
pub use verdict::Verdict;

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
    /// The consumer under test, a command line run with `sh -c` from the current directory
    /// (wins over `[consumer]`, whose `command` runs from the drill file's).
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
        Some(start::serve(&checked).await?)
    } else {
        None
    };
    let endpoint = match (&server, &opts.endpoint) {
        (Some(s), _) => s.endpoint(),
        (None, Some(e)) => e.clone(),
        (None, None) => "http://127.0.0.1:9324".to_owned(),
    };
    let mut drill = start::connect(opts, &checked, &endpoint, out).await?;
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
    drill.finish(out).await;
    if let consumer::Consumer::Command { .. } = drill.consumer {
        let (passed, detail) = match drill.consumer.exited() {
            Some(exit) => (
                false,
                drill.why(exit, &explain::About::default(), None).await,
            ),
            None => (
                true,
                "still running at the end (budget: the whole drill)".into(),
            ),
        };
        drill.decide(
            out,
            "the consumer ran through the drill".into(),
            passed,
            detail,
        );
    }
    Ok(())
}

/// The rollback: the drill's fault rules and delivery mode, then its messages (as
/// `[rollback]` says).
async fn rollback(drill: &mut engine::Drill<'_>, out: &mut dyn Write) {
    drill.consumer = consumer::Consumer::Outside;
    if drill.c.file.rollback.faults {
        let _ = drill.clear_faults().await;
        let _ = drill.restore_delivery().await;
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
