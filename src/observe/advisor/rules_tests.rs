//! One test per rule: the finding with its figures and fix, and its absence when the rule holds.

use super::super::{advise, AlarmView, QueueView, Redrive, Snapshot, Thresholds};
use super::*;
use crate::sqs::engine::processing::Summary;
use crate::sqs::engine::redrive::RedriveAllowPolicy;

const EP: &str = "http://127.0.0.1:9324";

fn queue(name: &str) -> QueueView {
    QueueView {
        name: name.into(),
        arn: format!("arn:aws:sqs:us-east-1:000000000000:{name}"),
        url: format!("{EP}/000000000000/{name}"),
        fifo: std::path::Path::new(name)
            .extension()
            .is_some_and(|e| e == "fifo"),
        visibility_timeout: 30,
        retention_seconds: 345_600,
        received: 10,
        ..QueueView::default()
    }
}

fn dlq(name: &str) -> QueueView {
    QueueView {
        retention_seconds: 1_209_600,
        received: 0,
        ..queue(name)
    }
}

fn wired(name: &str, target: &str, max: u32) -> QueueView {
    QueueView {
        redrive: Some(Redrive {
            target_arn: format!("arn:aws:sqs:us-east-1:000000000000:{target}"),
            max_receive_count: max,
        }),
        ..queue(name)
    }
}

fn timed(p50_ms: u64, p99_ms: u64, max_ms: u64, samples: u64) -> Summary {
    Summary {
        samples,
        p50_ms,
        p99_ms,
        max_ms,
    }
}

fn run(queues: Vec<QueueView>) -> Vec<Finding> {
    let s = Snapshot {
        endpoint: EP.into(),
        queues,
        alarms: AlarmView {
            webhook: true,
            page_delay_seconds: 9,
        },
        subscriptions: Vec::new(),
    };
    advise(&s, &Thresholds::default())
}

fn rules(findings: &[Finding]) -> Vec<(&str, &str)> {
    findings
        .iter()
        .map(|f| (f.rule.as_str(), f.queue.as_str()))
        .collect()
}

#[test]
fn a_well_configured_pair_has_no_findings() {
    let mut orders = wired("orders", "orders-dlq", 5);
    orders.processing = Some(timed(1_000, 4_000, 4_500, 50));
    assert_eq!(run(vec![orders, dlq("orders-dlq")]), vec![]);
}

#[test]
fn a_read_queue_without_redrive_policy() {
    let mut unread = queue("unread");
    unread.received = 0;
    let found = run(vec![queue("orders"), unread]);
    assert_eq!(rules(&found), [("redrive_policy_missing", "orders")]);
    let f = &found[0];
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(f.figures["received"], 10);
    assert_eq!(
        f.fix.commands,
        [
            format!("aws sqs create-queue --endpoint-url {EP} --queue-name orders-dlq --attributes '{{\"MessageRetentionPeriod\":\"1209600\"}}'"),
            format!("aws sqs set-queue-attributes --endpoint-url {EP} --queue-url {EP}/000000000000/orders --attributes '{{\"RedrivePolicy\":\"{{\\\"deadLetterTargetArn\\\":\\\"arn:aws:sqs:us-east-1:000000000000:orders-dlq\\\",\\\"maxReceiveCount\\\":\\\"5\\\"}}\"}}'"),
        ]
    );
}

#[test]
fn max_receive_count_out_of_range() {
    let found = run(vec![
        wired("hair", "dlq", 1),
        wired("lenient", "dlq", 25),
        wired("fine", "dlq", 10),
        dlq("dlq"),
    ]);
    assert_eq!(
        rules(&found),
        [
            ("max_receive_count", "hair"),
            ("max_receive_count", "lenient")
        ]
    );
    assert_eq!(found[1].figures["max_receive_count"], 25);
    assert!(found[1].message.contains("750 s"), "{}", found[1].message);
    assert_eq!(
        found[0].fix.attributes["RedrivePolicy"],
        r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":"5"}"#
    );
}

#[test]
fn visibility_below_six_times_p99() {
    let mut slow = wired("slow", "dlq", 5);
    slow.processing = Some(timed(2_000, 9_500, 9_900, 40));
    let mut few = wired("few", "dlq", 5);
    few.processing = Some(timed(2_000, 9_500, 9_900, 3));
    let mut beating = wired("beating", "dlq", 5);
    beating.processing = Some(timed(2_000, 9_500, 9_900, 40));
    beating.extended = 12;
    let found = run(vec![slow, few, beating, dlq("dlq")]);
    assert_eq!(rules(&found), [("visibility_timeout", "slow")]);
    let f = &found[0];
    assert_eq!(f.figures["p99_ms"], 9_500);
    assert_eq!(f.figures["suggested_seconds"], 57);
    assert_eq!(f.fix.attributes["VisibilityTimeout"], "57");
    assert!(f.message.contains("below 6 x p99 = 57 s"), "{}", f.message);
}

#[test]
fn redelivered_then_deleted_is_false_poison_risk() {
    let mut q = wired("orders", "dlq", 5);
    q.processing = Some(timed(1_000, 2_000, 40_000, 5));
    q.redelivered_then_deleted = 2;
    let found = run(vec![q, dlq("dlq")]);
    assert_eq!(rules(&found), [("visibility_timeout", "orders")]);
    assert_eq!(found[0].figures["suggested_seconds"], 240);
    assert!(found[0]
        .message
        .contains("2 message(s) were deleted only after a redelivery"));
}

#[test]
fn dlq_retention_short_or_not_longer_than_the_source() {
    let mut short = dlq("short-dlq");
    short.retention_seconds = 86_400;
    let mut keeps = wired("keeps", "even-dlq", 5);
    keeps.retention_seconds = 1_209_600;
    let found = run(vec![
        wired("a", "short-dlq", 5),
        short,
        keeps,
        dlq("even-dlq"),
    ]);
    assert_eq!(
        rules(&found),
        [
            ("dlq_retention", "even-dlq"),
            ("dlq_retention", "short-dlq")
        ]
    );
    assert_eq!(found[1].fix.attributes["MessageRetentionPeriod"], "1209600");
    assert_eq!(found[0].fix.queue.as_deref(), Some("keeps"));
    assert_eq!(found[0].fix.attributes["MessageRetentionPeriod"], "345600");
    // FIFO sources reset the enqueue time on the move: only the 14 days count.
    let mut fifo = wired("f.fifo", "d.fifo", 5);
    fifo.retention_seconds = 1_209_600;
    assert_eq!(
        run(vec![fifo, dlq("d.fifo")])
            .iter()
            .filter(|f| f.rule == "dlq_retention")
            .count(),
        0
    );
}

#[test]
fn fifo_head_of_line_stated_and_flagged() {
    let found = run(vec![wired("ok.fifo", "d.fifo", 5), dlq("d.fifo")]);
    assert_eq!(rules(&found), [("fifo_head_of_line", "ok.fifo")]);
    assert_eq!(found[0].severity, Severity::Info);
    assert_eq!(found[0].figures["stall_seconds"], 150);
    let mut slow = wired("slow.fifo", "d.fifo", 5);
    slow.visibility_timeout = 120;
    let found = run(vec![slow, dlq("d.fifo")]);
    assert_eq!(found[0].severity, Severity::Warn);
    assert_eq!(found[0].figures["stall_seconds"], 600);
    assert_eq!(found[0].fix.attributes["VisibilityTimeout"], "60");
    // When the processing time needs the long timeout, fewer receives fit instead.
    let mut needs = wired("needs.fifo", "d.fifo", 5);
    needs.visibility_timeout = 120;
    needs.processing = Some(timed(10_000, 20_000, 20_000, 50));
    let found = run(vec![needs, dlq("d.fifo")]);
    assert_eq!(
        found[0].fix.attributes["RedrivePolicy"],
        r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:d.fifo","maxReceiveCount":"2"}"#
    );
}

#[test]
fn dead_letters_nobody_hears_about() {
    let mut full = dlq("dlq");
    full.messages = 3;
    let mut s = Snapshot {
        endpoint: EP.into(),
        queues: vec![wired("orders", "dlq", 5), full],
        alarms: AlarmView::default(),
        subscriptions: Vec::new(),
    };
    let t = Thresholds::default();
    let found = advise(&s, &t);
    assert_eq!(rules(&found), [("dlq_alarm", "dlq")]);
    assert_eq!(found[0].figures["messages"], 3);
    assert!(found[0].fix.commands[0].contains("--dimensions Name=QueueName,Value=dlq"));
    s.alarms = AlarmView {
        webhook: true,
        page_delay_seconds: 301,
    };
    let found = advise(&s, &t);
    assert!(
        found[0].message.contains("up to 301 s"),
        "{}",
        found[0].message
    );
    s.alarms.page_delay_seconds = 300;
    assert_eq!(advise(&s, &t), vec![]);
}

#[test]
fn dead_letter_targets_missing_mistyped_or_not_allowed() {
    let mut strict = dlq("strict");
    strict.redrive_allow = Some(RedriveAllowPolicy::ByQueue(vec!["arn:other".into()]));
    let found = run(vec![
        wired("lost", "gone", 5),
        wired("mixed", "d.fifo", 5),
        dlq("d.fifo"),
        wired("denied", "strict", 5),
        strict,
    ]);
    assert_eq!(
        rules(&found),
        [
            ("dlq_not_allowed", "denied"),
            ("dlq_missing", "lost"),
            ("dlq_type", "mixed")
        ]
    );
    assert!(found.iter().all(|f| f.severity == Severity::Error));
    assert_eq!(found[0].fix.queue.as_deref(), Some("strict"));
    assert_eq!(
        found[0].fix.attributes["RedriveAllowPolicy"],
        r#"{"redrivePermission":"byQueue","sourceQueueArns":["arn:aws:sqs:us-east-1:000000000000:denied"]}"#
    );
}

#[test]
fn fail_on_and_text() {
    use crate::observe::advisor::render::{text, FailOn};
    let found = run(vec![wired("ok.fifo", "d.fifo", 5), dlq("d.fifo")]);
    assert!(!FailOn::Warn.fails(&found));
    let found = run(vec![queue("orders")]);
    assert!(FailOn::Error.fails(&found) && FailOn::Warn.fails(&found));
    let out = text(&found, 1);
    assert!(
        out.starts_with("1 finding(s) on 1 queue(s): 1 error, 0 warn, 0 info\n"),
        "{out}"
    );
    assert!(
        out.contains("ERROR  orders  [redrive_policy_missing]"),
        "{out}"
    );
}

#[test]
fn findings_read_back_from_their_json() {
    let found = run(vec![
        wired("ok.fifo", "d.fifo", 5),
        dlq("d.fifo"),
        queue("bare"),
    ]);
    let json = serde_json::to_string(&found).unwrap();
    assert!(
        !json.contains("\"attributes\":{}"),
        "empty parts are left out: {json}"
    );
    let back: Vec<Finding> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, found);
}
