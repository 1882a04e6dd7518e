//! A `command` function's invocation: the program runs in a process group of its own, with
//! the event on stdin, and the whole group is killed when the invocation ends (returned,
//! failed, timed out or dropped when its mapping is disabled or the server stops), then every
//! process that left the group but carries the invocation's mark ([`super::sweep`]), so
//! nothing it started outlives it, as nothing outlives a Lambda invocation's sandbox. Its
//! stdout, the response, is read up to Lambda's 6 MB; its stderr up to a few KiB for the
//! error message; the rest of each is read and dropped, so the program never blocks on a
//! full pipe and memory stays bounded.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use super::invoke::Outcome;

/// How much of stderr a failure's message quotes.
const STDERR_CAP: usize = 4 * 1024;

/// The process group of one invocation (or of a drill's consumer), killed when this drops.
pub(crate) struct Group(Option<i32>);

impl Group {
    /// The group a child started with `process_group(0)` leads.
    pub(crate) fn of(child: &tokio::process::Child) -> Group {
        Group(child.id().and_then(|id| i32::try_from(id).ok()))
    }

    /// Once only: with its last member gone the group's id may be another's.
    fn kill(&mut self) {
        if let Some(group) = self.0.take().and_then(rustix::process::Pid::from_raw) {
            // A group that is already gone answers ESRCH: nothing is left to kill.
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Everything one invocation started: its group, and the processes carrying its mark.
struct Descendants {
    group: Group,
    /// The invocation's value of [`super::sweep::MARK`]; taken once swept.
    mark: Option<String>,
}

impl Descendants {
    /// Ends them all as the invocation ends, the sweep on a blocking thread.
    async fn end(mut self) {
        let mark = self.mark.take();
        drop(self);
        if let Some(mark) = mark {
            let _ = tokio::task::spawn_blocking(move || super::sweep::sweep(&mark)).await;
        }
    }
}

impl Drop for Descendants {
    /// An invocation dropped (its mapping disabled, the server stopping) sweeps in place: it
    /// is rare, and the runtime may be stopping too.
    fn drop(&mut self) {
        self.group.kill();
        if let Some(mark) = self.mark.take() {
            super::sweep::sweep(&mark);
        }
    }
}

/// Runs `argv` with `payload` on stdin, within `timeout` of wall time.
pub async fn run(argv: &[String], payload: Vec<u8>, timeout: Duration, max: usize) -> Outcome {
    let Some((program, arguments)) = argv.split_first() else {
        return Outcome::Failed("the command is empty".into());
    };
    let mark = uuid::Uuid::new_v4().simple().to_string();
    let child = tokio::process::Command::new(program)
        .args(arguments)
        .env(super::sweep::MARK, &mark)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return Outcome::Failed(format!("cannot run {program}: {e}")),
    };
    let descendants = Descendants {
        group: Group::of(&child),
        mark: Some(mark),
    };
    let outcome = match tokio::time::timeout(timeout, talk(&mut child, payload, max)).await {
        Ok(Ok((status, out, err))) => finish(program, status, out, &err, max),
        Ok(Err(e)) => Outcome::Failed(format!("{program}: {e}")),
        Err(_) => Outcome::Failed(super::invoke::timed_out(timeout)),
    };
    descendants.end().await;
    outcome
}

/// What the program answered: its exit, its stdout (`None` past `max`) and its stderr's
/// first bytes.
type Answer = (std::process::ExitStatus, Option<Vec<u8>>, Vec<u8>);

/// Feeds stdin and reads both outputs at once, then waits for the exit.
async fn talk(
    child: &mut tokio::process::Child,
    payload: Vec<u8>,
    max: usize,
) -> std::io::Result<Answer> {
    let stdin = child.stdin.take();
    let write = async move {
        if let Some(mut stdin) = stdin {
            // A command that exits without reading its input is its own business; its
            // exit status says how it went.
            let _ = stdin.write_all(&payload).await;
        }
    };
    let (out, err) = (child.stdout.take(), child.stderr.take());
    let ((), out, err) = tokio::join!(write, capped(out, max), capped(err, STDERR_CAP));
    let status = child.wait().await?;
    let (out, over) = out?;
    Ok((status, (!over).then_some(out), err?.0))
}

/// Reads `stream` to its end, keeping at most `cap` bytes; `true` if there was more.
async fn capped(
    stream: Option<impl AsyncRead + Unpin>,
    cap: usize,
) -> std::io::Result<(Vec<u8>, bool)> {
    let (mut kept, mut over) = (Vec::new(), false);
    let Some(mut stream) = stream else {
        return Ok((kept, over));
    };
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok((kept, over));
        }
        let room = cap.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..n.min(room)]);
        over |= n > room;
    }
}

/// The invocation's outcome from what the program answered.
fn finish(
    program: &str,
    status: std::process::ExitStatus,
    out: Option<Vec<u8>>,
    err: &[u8],
    max: usize,
) -> Outcome {
    match out {
        None => Outcome::Failed(format!(
            "{program} wrote more than {max} bytes to stdout, Lambda's limit on a response"
        )),
        Some(out) if status.success() => {
            Outcome::Returned(String::from_utf8_lossy(&out).into_owned())
        }
        Some(_) => Outcome::Failed(format!(
            "{program} exited with {status}: {}",
            String::from_utf8_lossy(err).trim()
        )),
    }
}
