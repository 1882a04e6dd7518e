//! What a drill's verdict can be trusted to say (issue 52, item 2): an `always` expectation
//! holds until the drill's last look, not only until the timed ones settle; a failed check
//! says where the drill's messages are, how many receives they took, and the advisor's
//! finding that explains it; every steady-state probe is listed, under a name of its own.

use sqslite::drill::file::Verdict;

use super::bounds::served;

/// Whether the case called `name` passed, and its detail.
pub(super) fn case(verdict: &Verdict, name: &str, printed: &str) -> (bool, String) {
    verdict.cases.iter().find(|c| c.name == name).map_or_else(
        || panic!("no case `{name}`: {printed}"),
        |c| (c.passed, c.detail.clone()),
    )
}

/// A poison message in a queue with no RedrivePolicy, ahead of good ones: the sample
/// consumer deletes the good ones at once and fails the poison for ever.
const NO_REDRIVE: &str = r#"
[drill]
name = "no redrive"
look_ms = 20

[[queues]]
name = "payments"
VisibilityTimeout = 5

[consumer]
sample = { queues = ["payments"] }

[[method]]
action = "send"
queue = "payments"
kind = "poison"
body = "<<not json>>"

[[method]]
action = "send"
queue = "payments"
count = 3
"#;

/// The timed expectation settles within a few server seconds; the steady state after the
/// method then looks for 40 more, while the poison ages past the `always` bound of 20 s.
#[tokio::test]
async fn always_holds_until_the_drills_last_look() {
    let text = format!(
        "{NO_REDRIVE}\n[[steady_state]]\nprobe = \"depth\"\nqueue = \"payments\"\nmax = 0\nwithin_seconds = 40\n\n\
         [[expect]]\nname = \"the good payments are deleted\"\ndeleted = \"valid\"\nwithin_seconds = 10\n\n\
         [[expect]]\nname = \"no payment waits 20 s\"\nprobe = \"oldest_age\"\nqueue = \"payments\"\nmax = 20\nalways = true\n"
    );
    let (verdict, printed) = served(&text).await;
    assert!(
        case(&verdict, "the good payments are deleted", &printed).0,
        "{printed}"
    );
    let (passed, detail) = case(&verdict, "no payment waits 20 s", &printed);
    assert!(!passed, "{printed}");
    assert!(detail.contains("oldest_age of payments was 21"), "{detail}");
}

/// The sabotage the guide's teams run: the DLQ is declared but never wired as `payments`'
/// RedrivePolicy. The failure says where the poison is, how often it was received, and the
/// advisor's finding on `payments`.
#[tokio::test]
async fn a_failed_check_says_where_the_message_is_and_the_advisors_finding() {
    let text = format!(
        "{NO_REDRIVE}\n[[queues]]\nname = \"payments-dlq\"\n\n\
         [[expect]]\nname = \"the poison is dead-lettered\"\ndead_lettered = \"poison\"\nqueue = \"payments-dlq\"\nreceives = 3\nwithin_seconds = 30\n"
    );
    let (verdict, printed) = served(&text).await;
    let (passed, detail) = case(&verdict, "the poison is dead-lettered", &printed);
    assert!(!passed, "{printed}");
    assert!(
        detail.starts_with(
            "not within the budget of 30 s: 0 of 1 `poison` message(s) in payments-dlq at"
        ),
        "{detail}"
    );
    assert!(!detail.contains("[]"), "{detail}");
    let receives: u64 = detail
        .split("where: 1 `poison` message(s) in `payments`, received ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no whereabouts of the poison: {detail}"));
    assert!(receives >= 5, "30 s of 5 s visibility timeouts: {detail}");
    assert!(
        detail.contains("advisor on `payments`: ") && detail.contains("no RedrivePolicy"),
        "{detail}"
    );
    assert!(detail.contains("(redrive_policy_missing)"), "{detail}");
}

/// Two probes of one queue's depth and a named one: three cases, none sharing a name.
#[tokio::test]
async fn every_steady_state_probe_is_listed_under_a_name_of_its_own() {
    let text = "[drill]\nname = \"named\"\n\n[[queues]]\nname = \"payments\"\n\n\
        [[steady_state]]\nname = \"payments is empty\"\nprobe = \"depth\"\nqueue = \"payments\"\nmax = 0\n\n\
        [[steady_state]]\nprobe = \"depth\"\nqueue = \"payments\"\nmax = 0\n\n\
        [[steady_state]]\nprobe = \"depth\"\nqueue = \"payments\"\nmax = 5\n\n\
        [[steady_state]]\nprobe = \"alarm\"\nqueue = \"payments\"\nalarm = \"receive_count\"\nstate = \"OK\"\n";
    let (verdict, printed) = served(text).await;
    assert!(verdict.passed(), "{printed}");
    let names: Vec<&str> = verdict.cases.iter().map(|c| c.name.as_str()).collect();
    let before = [
        "steady state before: payments is empty",
        "steady state before: depth of payments #2",
        "steady state before: depth of payments #3",
        "steady state before: alarm receive_count OK on payments",
    ];
    assert_eq!(&names[..4], before, "{printed}");
    assert_eq!(names.len(), 8, "before and after: {printed}");
}
