//! A drill and the consumer it starts (issue 52, item 2): the steady state, the method and
//! the manual clock wait for the consumer's first poll, within the file's bound; a consumer
//! that is not found or dies before polling is a drill that cannot run (exit 2); a file's
//! `[consumer] command` runs from the file's directory.

use std::time::Duration;

use sqslite::drill::file::{run, CannotRun, RunOptions, Verdict};

use super::files::{drill_file, options};

/// The sample consumer as a command, deleting every JSON body it receives on `payments`.
fn sample_consumer() -> String {
    format!(
        "exec '{}' drill consumer --endpoint \"$SQSLITE_ENDPOINT\" --queue payments --poll-ms 10 > /dev/null",
        env!("CARGO_BIN_EXE_sqslite")
    )
}

/// A drill on a server of its own: five payments that must be deleted within `budget`
/// server seconds, with `consumer` as `[consumer]`'s keys.
fn payments(consumer: &str, budget: u64) -> String {
    format!(
        "[drill]\nname = \"payments\"\nlook_ms = 100\n\n[[queues]]\nname = \"payments\"\n\n\
         [consumer]\n{consumer}\n\n\
         [[method]]\naction = \"send\"\nqueue = \"payments\"\ncount = 5\n\n\
         [[expect]]\nname = \"the payments are deleted\"\ndeleted = \"valid\"\nwithin_seconds = {budget}\n"
    )
}

/// Runs `path` with `--serve`, within the test's own bound.
async fn served(path: std::path::PathBuf) -> (Result<Verdict, CannotRun>, String) {
    let opts = RunOptions {
        serve: true,
        endpoint: None,
        junit: None,
        ..options(path, String::new())
    };
    let mut out = Vec::new();
    let result = tokio::time::timeout(Duration::from_mins(1), run(&opts, &mut out))
        .await
        .expect("the drill ended within 60 s");
    (result, String::from_utf8_lossy(&out).into_owned())
}

/// A consumer that takes 1.5 s of wall time to start: on a manual clock moved 1 s per 100 ms
/// look, a clock that did not wait would have spent 15 of the 8 seconds' budget.
#[tokio::test]
async fn the_clock_waits_for_a_slow_consumers_first_poll() {
    let command = format!("sleep 1.5; {}", sample_consumer());
    let text = payments(&format!("command = {command:?}"), 8);
    let (result, printed) = served(drill_file(&text)).await;
    let verdict = result.map_err(|e| e.0).unwrap();
    assert!(verdict.passed(), "{printed}");
    assert!(printed.contains("the consumer polled after"), "{printed}");
}

#[tokio::test]
async fn a_consumer_not_found_or_dead_before_polling_cannot_run_the_drill() {
    for (command, why) in [
        ("no-such-consumer-52", "the shell found no such command"),
        ("exit 3", "exit status: 3"),
    ] {
        let text = payments(&format!("command = {command:?}"), 8);
        let (result, printed) = served(drill_file(&text)).await;
        let err = result.map(|_| ()).unwrap_err().0;
        assert!(err.contains("exited before its first poll"), "{err}");
        assert!(err.contains(why), "{err}");
        assert!(err.contains("nothing was sent"), "{err}");
        assert!(!printed.contains("step send"), "{printed}");
    }
}

#[tokio::test]
async fn the_first_poll_bound_stops_the_drill_or_starts_it_as_the_file_says() {
    let never = "command = \"sleep 30\"\nfirst_poll_within_seconds = 1";
    let (result, printed) = served(drill_file(&payments(never, 8))).await;
    let err = result.map(|_| ()).unwrap_err().0;
    assert!(
        err.contains("did not poll any of the drill's queues (payments) within first_poll_within_seconds (1 s"),
        "{err}"
    );
    assert!(!printed.contains("step send"), "{printed}");
    let anyway = format!("{never}\nif_no_first_poll = \"start\"");
    let (result, printed) = served(drill_file(&payments(&anyway, 8))).await;
    let verdict = result.map_err(|e| e.0).unwrap();
    assert!(
        printed.contains("if_no_first_poll = \"start\": the drill starts"),
        "{printed}"
    );
    assert!(!verdict.passed(), "nobody deleted the payments: {printed}");
}

#[tokio::test]
async fn a_files_consumer_command_runs_from_the_files_directory() {
    let path = drill_file(&payments("command = \"sh consumer.sh\"", 30));
    let script = path.with_file_name("consumer.sh");
    std::fs::write(&script, sample_consumer()).unwrap();
    let (result, printed) = served(path).await;
    let verdict = result.map_err(|e| e.0).unwrap();
    assert!(verdict.passed(), "{printed}");
}
