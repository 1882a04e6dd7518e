//! Drills that cannot crash or hang the runner (issue 50, L5 and L6, and L9's bounded
//! answers): `timeout_seconds` ends a drill inside a `wait` or `advance` step longer than it,
//! and a server that answers without end is an error to the drill and the doctor, not memory
//! filled. The bounds of a file's numbers are unit tests of `drill::file::check`.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use sqslite::drill::file::{run, RunOptions, Verdict};

use super::files::{drill_file, options};

/// A drill of one long time step, then a send it never reaches, on a server of its own.
fn long_step(action: &str, seconds: u64) -> String {
    format!(
        "[drill]\nname = \"long {action}\"\ntimeout_seconds = 1\nlook_ms = 10\n\n\
         [[queues]]\nname = \"waited\"\n\n\
         [[method]]\nname = \"the long {action}\"\naction = \"{action}\"\nseconds = {seconds}\n\n\
         [[method]]\nname = \"never\"\naction = \"send\"\nqueue = \"waited\"\n"
    )
}

/// Runs `text` with `--serve`; the drill must end well within the test's own bound.
pub(super) async fn served(text: &str) -> (Verdict, String) {
    let (verdict, out) = served_or_not(text).await;
    (verdict.unwrap(), out)
}

/// Runs `text` with `--serve`: its verdict, or why it could not run; and what it printed.
pub(super) async fn served_or_not(text: &str) -> (Result<Verdict, String>, String) {
    let opts = RunOptions {
        serve: true,
        endpoint: None,
        junit: None,
        ..options(drill_file(text), String::new())
    };
    let mut out = Vec::new();
    let verdict = tokio::time::timeout(Duration::from_secs(30), run(&opts, &mut out))
        .await
        .expect("the drill ended within 30 s")
        .map_err(|e| e.0);
    (verdict, String::from_utf8_lossy(&out).into_owned())
}

/// The failed case a cut method reports, and that its later step did not run.
fn assert_cut(verdict: &Verdict, printed: &str, step: &str) {
    assert!(!verdict.passed(), "{printed}");
    let case = verdict
        .cases
        .iter()
        .find(|c| c.name == "the method ran within timeout_seconds")
        .unwrap_or_else(|| panic!("no timeout case: {printed}"));
    assert!(
        case.detail.contains(&format!(
            "ran out in step `{step}`; 1 later step(s) did not run"
        )),
        "{}",
        case.detail
    );
    assert!(!printed.contains("step never"), "{printed}");
}

#[tokio::test]
async fn timeout_seconds_ends_a_longer_wait_step() {
    let (verdict, printed) = served(&long_step("wait", 3600)).await;
    assert_cut(&verdict, &printed, "the long wait");
}

#[tokio::test]
async fn timeout_seconds_ends_a_longer_advance_step() {
    // 30 days of a manual clock, moved a second a look: millions of looks without the timeout.
    let (verdict, printed) = served(&long_step("advance", 30 * 24 * 3600)).await;
    assert_cut(&verdict, &printed, "the long advance");
}

/// A server answering every request with 129 MiB (past the 128 MiB the drill and doctor
/// read) of JSON white space.
async fn endless() -> (String, tokio::task::JoinHandle<()>) {
    let body = Bytes::from(vec![b' '; 129 << 20]);
    crate::common::listener::serve(move |_| {
        let body = body.clone();
        async move {
            hyper::Response::builder()
                .header("content-type", "application/json")
                .body(Full::new(body))
                .unwrap()
        }
    })
    .await
}

/// The start of an error, so a failure does not print 129 MiB.
fn head(e: &str) -> String {
    e.chars().take(300).collect()
}

#[tokio::test]
async fn an_answer_past_the_bound_is_an_error_to_the_drill_and_the_doctor() {
    let (url, server) = endless().await;
    let text = "[drill]\nname = \"d\"\n\n[requires]\nqueues = [\"q\"]\n";
    let opts = options(drill_file(text), url.clone());
    let err = run(&opts, &mut Vec::new()).await.map(|_| ()).unwrap_err().0;
    assert!(
        err.contains("the answer is longer than 134217728 bytes"),
        "{}",
        head(&err)
    );
    // The doctor is the binary's: a clean error and exit 2, never 129 MiB read.
    let doctor = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sqslite"))
            .args(["doctor", "--endpoint", &url])
            .env_remove("SQSLITE_ADMIN_TOKEN")
            .output()
            .expect("binary runs")
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&doctor.stderr);
    assert_eq!(doctor.status.code(), Some(2), "{}", head(&stderr));
    assert!(
        stderr.contains("the answer is longer than 134217728 bytes"),
        "{}",
        head(&stderr)
    );
    server.abort();
}
