//! Unit tests of check.rs.

use super::read;

fn error(text: &str) -> String {
    read("d.toml", text).map(|_| ()).unwrap_err().to_string()
}

const QUEUE: &str = "[drill]\nname = \"d\"\n\n[[queues]]\nname = \"q\"\n";

#[test]
fn errors_name_the_line_and_column() {
    let unknown = format!("{QUEUE}\n[[method]]\naction = \"send\"\nqueue = \"q\"\ncuont = 3\n");
    assert!(
        error(&unknown).starts_with("d.toml:10:1: unknown field `cuont`"),
        "{}",
        error(&unknown)
    );
    let undeclared = format!("{QUEUE}\n[[method]]\naction = \"send\"\nqueue = \"r\"\n");
    assert_eq!(
        error(&undeclared),
        "d.toml:9:9: the drill declares no queue `r` ([[queues]] or [requires] queues); it has `q`"
    );
    let step = format!("{QUEUE}\n[[method]]\naction = \"sned\"\n");
    assert!(
        error(&step).starts_with("d.toml:8:10: unknown step `sned`; expected one of send,"),
        "{}",
        error(&step)
    );
}

#[test]
fn a_budget_or_step_the_clock_cannot_serve_is_refused() {
    let system = QUEUE.replace("name = \"d\"", "name = \"d\"\nclock = \"system\"");
    let advance = format!("{system}\n[[method]]\naction = \"advance\"\nseconds = 5\n");
    assert!(
        error(&advance).contains("step `advance` moves a manual clock"),
        "{}",
        error(&advance)
    );
    let ok = format!("{QUEUE}\n[[method]]\naction = \"advance\"\nseconds = 5\n");
    assert!(read("d.toml", &ok).is_ok());
}

#[test]
fn an_expectation_needs_one_subject_and_a_known_step() {
    let two = format!("{QUEUE}\n[[expect]]\nname = \"e\"\ndeleted = \"valid\"\ndead_lettered = \"x\"\nqueue = \"q\"\n");
    assert!(
        error(&two).contains("needs exactly one of `probe`, `dead_lettered` or `deleted`"),
        "{}",
        error(&two)
    );
    let after =
        format!("{QUEUE}\n[[expect]]\nname = \"e\"\ndeleted = \"valid\"\nafter = \"nope\"\n");
    assert!(
        error(&after).contains("no step is named `nope`"),
        "{}",
        error(&after)
    );
}

/// A file with `line` in `[drill]` (as line 3).
fn in_meta(line: &str) -> String {
    QUEUE.replace("name = \"d\"", &format!("name = \"d\"\n{line}"))
}

/// A file with `line` in a `send` step (as line 10).
fn in_step(line: &str) -> String {
    format!("{QUEUE}\n[[method]]\naction = \"send\"\nqueue = \"q\"\n{line}\n")
}

/// A file with `line` in a `deleted` expectation (as line 10).
fn in_expect(line: &str) -> String {
    format!("{QUEUE}\n[[expect]]\nname = \"e\"\ndeleted = \"valid\"\n{line}\n")
}

/// Each file is refused with an error that starts as expected.
fn refused(cases: &[(String, &str)]) {
    for (text, expected) in cases {
        let got = error(text);
        assert!(got.starts_with(expected), "{text}\n{got}");
    }
}

#[test]
fn numbers_past_their_bounds_are_refused_at_their_line() {
    let count = "`count` must be from 1 to 100000";
    refused(&[
        (
            in_step("seconds = 9223372036854775807"),
            "d.toml:10:11: `seconds` must be from 0 to 2592000",
        ),
        (
            in_step("count = 9223372036854775807"),
            &format!("d.toml:10:9: {count}"),
        ),
        (
            in_step("count = 1000000000"),
            &format!("d.toml:10:9: {count}"),
        ),
        (in_step("count = -1"), &format!("d.toml:10:9: {count}")),
        (
            in_step("delay_seconds = 901"),
            "d.toml:10:17: `delay_seconds` must be from 0 to 900",
        ),
        (
            in_meta("look_ms = 0"),
            "d.toml:3:11: `look_ms` must be from 10 to 60000",
        ),
        (
            in_meta("timeout_seconds = 0"),
            "d.toml:3:19: `timeout_seconds` must be from 1 to",
        ),
    ]);
}

#[test]
fn budgets_past_their_bounds_are_refused_at_their_line() {
    let tolerance = "[[expect]]\nname = \"e\"\nprobe = \"depth\"\nqueue = \"q\"\nmax = nan\n";
    let poll = "[consumer]\nmust_poll = \"q\"\nmust_poll_within_seconds = 99999999999\n";
    refused(&[
        (
            in_expect("within_seconds = 9223372036854775000"),
            "d.toml:10:18: `within_seconds` must be from 0 to 2592000",
        ),
        (
            in_expect("for_seconds = 2592001"),
            "d.toml:10:15: `for_seconds` must be from 0 to",
        ),
        (
            format!("{QUEUE}\n{tolerance}"),
            "d.toml:11:7: a tolerance must be a finite number",
        ),
        (
            format!("{QUEUE}\n{poll}"),
            "d.toml:9:28: `must_poll_within_seconds` must be from 0 to",
        ),
    ]);
}

#[test]
fn the_first_poll_bound_and_what_happens_at_it_are_checked_at_their_line() {
    let consumer = |keys: &str| format!("{QUEUE}\n[consumer]\ncommand = \"c\"\n{keys}\n");
    refused(&[
        (
            consumer("first_poll_within_seconds = 0"),
            "d.toml:9:29: `first_poll_within_seconds` must be from 1 to 3600 (wall seconds",
        ),
        (
            consumer("first_poll_within_seconds = 3601"),
            "d.toml:9:29: `first_poll_within_seconds` must be from 1 to 3600",
        ),
        (
            consumer("if_no_first_poll = \"go\""),
            "d.toml:9:20: `if_no_first_poll` must be \"stop\" or \"start\"",
        ),
    ]);
    let ok = consumer("first_poll_within_seconds = 5\nif_no_first_poll = \"start\"");
    let checked = read("d.toml", &ok).unwrap();
    let spec = checked.file.consumer.unwrap();
    assert_eq!(spec.first_poll_within_seconds, 5);
    assert!(spec.start_without_first_poll());
}

#[test]
fn a_steady_state_probe_takes_a_name_of_its_own() {
    let probe = |name: &str| {
        format!("[[steady_state]]\nname = \"{name}\"\nprobe = \"depth\"\nqueue = \"q\"\nmax = 0\n")
    };
    let named = format!("{QUEUE}\n{}", probe("empty"));
    let checked = read("d.toml", &named).unwrap();
    assert_eq!(
        checked.file.steady_state[0].get_ref().name.as_deref(),
        Some("empty")
    );
    let twice = format!("{QUEUE}\n{}\n{}", probe("empty"), probe("empty"));
    assert_eq!(
        error(&twice),
        "d.toml:13:1: two [[steady_state]] probes are called `empty`: each is a check of its own"
    );
}

#[test]
fn an_alarm_probe_names_one_of_sqslites_alarms_and_a_state() {
    let alarm = |kind: &str, state: &str| {
        format!("{QUEUE}\n[[steady_state]]\nprobe = \"alarm\"\nqueue = \"q\"\nalarm = \"{kind}\"\nstate = \"{state}\"\n")
    };
    assert!(read("d.toml", &alarm("receive_count", "OK")).is_ok());
    assert_eq!(
        error(&alarm("dlq-depth", "OK")),
        "d.toml:8:9: unknown alarm `dlq-depth`; sqslite's alarms are receive_count, stall, oldest_message_age, dlq_depth"
    );
    assert_eq!(
        error(&alarm("stall", "alarm")),
        "d.toml:8:9: an alarm's `state` is ALARM or OK; got `alarm`"
    );
}
