//! A stored move task keeps the caller that started it, so its sends after a restart are
//! judged by the destination's Policy as they were before it.

use uuid::Uuid;

use super::codec;
use crate::sqs::engine::fixture::Fixture;
use crate::sqs::engine::move_task::{MoveTask, Mover, Status};
use crate::sqs::engine::mutation::{Mutation, Record};
use crate::sqs::engine::replay::Replayer;

fn stored_task(source_arn: &str, destination_arn: &str, mover: Option<Mover>) -> Record {
    let task = MoveTask {
        task_id: Uuid::new_v4(),
        handle: "h".into(),
        source_arn: source_arn.into(),
        destination_arn: Some(destination_arn.into()),
        max_per_second: None,
        status: Status::Running,
        moved: 0,
        to_move: 1,
        failure_reason: None,
        started_at: 0,
        next_due: 0,
        mover,
    };
    let mut bytes = Vec::new();
    codec::encode(&Mutation::MoveTask(&task), &mut bytes);
    codec::decode(&bytes).unwrap()
}

/// A dead-letter queue holding one message, its source, and a destination owned by account 1.
fn queues(f: &Fixture) -> (String, String) {
    let dlq = f.queue("dlq");
    f.dead_lettering("src", &dlq, 1);
    let dest = f.queue("dest");
    f.send(&dlq, "parked", None);
    (dlq.arn(), dest.arn())
}

#[test]
fn a_restored_task_still_needs_its_starters_permission_on_the_destination() {
    let f = Fixture::new();
    let (r, (dlq, dest)) = (&f.registry, queues(&f));
    let stranger = Mover {
        account: "000000000002".into(),
        arn: "arn:aws:iam::000000000002:root".into(),
    };
    let record = stored_task(&dlq, &dest, Some(stranger));
    let Record::MoveTask(task) = &record else {
        panic!("not a move task: {record:?}")
    };
    assert_eq!(
        task.mover.as_ref().map(|m| m.account.as_str()),
        Some("000000000002")
    );
    Replayer::new(r, 1).apply(record).unwrap();
    r.step_move_tasks(1);
    let task = &r.move_tasks(&dlq, 10)[0];
    assert_eq!(task.status, Status::Failed);
    assert_eq!(task.failure_reason.as_deref(), Some("AccessDenied"));
    assert_eq!(task.moved, 0);
}

/// Without credentials a task has no starter, and its record is the one older data holds.
#[test]
fn a_task_without_a_starter_is_stored_as_before_and_moves() {
    let f = Fixture::new();
    let (r, (dlq, dest)) = (&f.registry, queues(&f));
    let record = stored_task(&dlq, &dest, None);
    Replayer::new(r, 1).apply(record).unwrap();
    r.step_move_tasks(1);
    let task = &r.move_tasks(&dlq, 10)[0];
    assert_eq!((task.status, task.moved), (Status::Completed, 1));
}
