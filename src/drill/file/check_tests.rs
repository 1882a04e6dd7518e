//! A drill file's checks: its mistakes told with line and column, budgets and steps the clock
//! cannot serve, expectations' subjects.

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
