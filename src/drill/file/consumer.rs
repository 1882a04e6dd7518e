//! The consumer under test: the team's own command (`--consumer` or `[consumer] command`),
//! run with `sh -c` in a process group of its own and told where everything is through its
//! environment, or sqslite's sample consumer in this process. Either stops with the drill;
//! a command that exits before then is part of the verdict.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::drill::consumer::{consume_with, AbortOnDrop, Behaviour, Rule, Shared};
use crate::drill::Endpoint;
use crate::triggers::command::Group;

/// A running consumer.
pub enum Consumer {
    /// None was asked for: the drill watches whatever consumes the queues.
    Outside,
    /// The team's command, killed (its whole group) when this drops.
    Command {
        /// The child.
        child: Box<tokio::process::Child>,
        /// Its process group.
        _group: Group,
        /// The command line, for the verdict.
        line: String,
        /// Where it runs, when not the current directory.
        dir: Option<std::path::PathBuf>,
    },
    /// The sample consumer, with its behaviour to change.
    Sample {
        /// The task, stopped when this drops.
        _task: AbortOnDrop,
        /// What it does, changeable by a `consumer` step.
        behaviour: Shared,
    },
}

/// The environment a command consumer gets: the endpoint, the run, and each queue's URL as
/// `SQSLITE_QUEUE_URL_<NAME>` (upper case, other characters as `_`).
pub fn environment(
    endpoint: &str,
    run: &str,
    urls: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let mut env = vec![
        ("SQSLITE_ENDPOINT".to_owned(), endpoint.to_owned()),
        ("AWS_ENDPOINT_URL".to_owned(), endpoint.to_owned()),
        ("SQSLITE_DRILL_RUN".to_owned(), run.to_owned()),
    ];
    for (key, default) in [
        ("AWS_REGION", "us-east-1"),
        ("AWS_DEFAULT_REGION", "us-east-1"),
        ("AWS_ACCESS_KEY_ID", "test"),
        ("AWS_SECRET_ACCESS_KEY", "test"),
    ] {
        if std::env::var_os(key).is_none() {
            env.push((key.to_owned(), default.to_owned()));
        }
    }
    for (name, url) in urls {
        let key: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_uppercase()
                } else {
                    '_'
                }
            })
            .collect();
        env.push((format!("SQSLITE_QUEUE_URL_{key}"), url.clone()));
    }
    env
}

/// Starts `line` with `sh -c`, in `dir` when given.
pub fn command(
    line: &str,
    env: Vec<(String, String)>,
    dir: Option<&Path>,
) -> Result<Consumer, String> {
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg(line)
        .envs(env)
        .stdin(Stdio::null())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let child = cmd.spawn().map_err(|e| {
        let at = dir.map_or(String::new(), |d| format!(" in {}", d.display()));
        format!("cannot start the consumer `{line}`{at}: {e}")
    })?;
    Ok(Consumer::Command {
        _group: Group::of(&child),
        child: Box::new(child),
        line: line.to_owned(),
        dir: dir.map(Path::to_path_buf),
    })
}

/// Starts the sample consumer on `urls`.
pub fn sample(ep: Endpoint, urls: Vec<String>, behaviour: Behaviour, pause: Duration) -> Consumer {
    let shared = Shared::new(std::sync::Mutex::new(behaviour));
    let mine = shared.clone();
    let task = tokio::spawn(async move {
        consume_with(&ep, &urls, pause, &mine, |_| {}).await;
    });
    Consumer::Sample {
        _task: AbortOnDrop::new(task),
        behaviour: shared,
    }
}

impl Consumer {
    /// The exit of a command that ended, as words; `None` while it runs (or for the others).
    pub fn exited(&mut self) -> Option<String> {
        let (line, status) = self.ended()?;
        Some(format!(
            "the consumer `{line}` exited during the drill ({status})"
        ))
    }

    /// A command that is gone: its line and its status (`exit status: 2`; `cannot be
    /// watched: ...` when its status cannot be read); `None` while it runs, or for the others.
    pub fn ended(&mut self) -> Option<(String, String)> {
        let Consumer::Command { child, line, .. } = self else {
            return None;
        };
        let how = match child.try_wait() {
            Ok(Some(status)) => status_words(status),
            Ok(None) => return None,
            Err(e) => format!("cannot be watched: {e}"),
        };
        Some((line.clone(), how))
    }

    /// Changes the sample consumer's rule (a "fix" step); false for the others.
    pub fn set_rule(&self, rule: Rule) -> bool {
        match self {
            Consumer::Sample { behaviour, .. } => {
                behaviour
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .rule = rule;
                true
            }
            _ => false,
        }
    }
}

/// An exit status with what the shell's own codes mean: a consumer that is not found is the
/// commonest first failure, and `exit status: 127` alone does not say it.
pub fn status_words(status: std::process::ExitStatus) -> String {
    match status.code() {
        Some(127) => format!("{status}: the shell found no such command"),
        Some(126) => format!("{status}: the command is not executable"),
        _ => status.to_string(),
    }
}

/// Where a file's `[consumer] command` runs: the drill file's directory, so that a drill
/// and its consumer (`python consumer.py`) travel together and run from anywhere. A shipped
/// drill, or one in the current directory, runs it here.
fn file_dir(opts: &super::RunOptions) -> Option<&Path> {
    opts.file.parent().filter(|d| !d.as_os_str().is_empty())
}

/// The consumer the options or the file name, started.
pub(super) fn start(
    opts: &super::RunOptions,
    c: &super::check::Checked,
    endpoint: &str,
    run: &str,
    urls: &BTreeMap<String, String>,
) -> Result<Consumer, super::CannotRun> {
    let spec = c.file.consumer.as_ref();
    let env = || environment(endpoint, run, urls);
    if let Some(line) = &opts.consumer {
        return Ok(command(line, env(), None)?);
    }
    if let Some(line) = spec.and_then(|s| s.command.as_ref()) {
        return Ok(command(line, env(), file_dir(opts))?);
    }
    let Some(sample) = spec.and_then(|s| s.sample.as_ref()) else {
        return Ok(Consumer::Outside);
    };
    let queue_urls = sample
        .queues
        .iter()
        .filter_map(|q| urls.get(q.get_ref()).cloned())
        .collect();
    let retry = sample
        .retry_queue
        .as_ref()
        .and_then(|q| urls.get(q.get_ref()))
        .map(|url| (url.clone(), sample.retry_delay_seconds));
    let behaviour = crate::drill::consumer::Behaviour {
        rule: crate::drill::consumer::Rule::named(sample.rule.get_ref())
            .unwrap_or(crate::drill::consumer::Rule::Json),
        retry,
    };
    let pause = std::time::Duration::from_millis(c.file.drill.look_ms / 2 + 1);
    Ok(self::sample(
        Endpoint::new(endpoint),
        queue_urls,
        behaviour,
        pause,
    ))
}
