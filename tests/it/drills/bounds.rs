//! Drills that cannot crash or hang the runner (issue 50, L5 and L6): `timeout_seconds` ends
//! a drill inside a `wait` or `advance` step longer than it. The bounds of a file's numbers
//! are unit tests of `drill::file::check`.

use std::time::Duration;

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
async fn served(text: &str) -> (Verdict, String) {
    let opts = RunOptions {
        serve: true,
        endpoint: None,
        junit: None,
        ..options(drill_file(text), String::new())
    };
    let mut out = Vec::new();
    let verdict = tokio::time::timeout(Duration::from_secs(30), run(&opts, &mut out))
        .await
        .expect("the drill ended within 30 s, its timeout_seconds being 1")
        .map_err(|e| e.0)
        .unwrap();
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
