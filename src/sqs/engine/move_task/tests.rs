//! Unit tests of the move tasks' history, at explicit instants.

use super::*;
use crate::sqs::engine::fixture::Fixture;

fn count(r: &Registry) -> usize {
    let mut n = 0;
    r.tasks
        .snapshot::<()>(&mut |_| {
            n += 1;
            Ok(())
        })
        .unwrap();
    n
}

/// A dead-letter queue `dlq` (empty, so each task completes at its first step) and its source.
fn wired(f: &Fixture, dlq: &str) -> String {
    let queue = f.queue(dlq);
    f.dead_lettering(&format!("{dlq}-src"), &queue, 1);
    queue.arn()
}

fn start(source: &str) -> Start {
    Start {
        source_arn: source.to_owned(),
        destination_arn: None,
        max_per_second: None,
        mover: None,
    }
}

/// ListMessageMoveTasks shows at most the 10 most recent tasks of a source; older finished
/// ones were kept forever, one per StartMessageMoveTask.
#[test]
fn finished_tasks_beyond_what_list_shows_are_forgotten() {
    let f = Fixture::new();
    let (r, dlq) = (&f.registry, wired(&f, "dlq"));
    for at in 0..15 {
        r.start_move_task(start(&dlq), at).unwrap();
        r.step_move_tasks(at);
    }
    assert_eq!(count(r), LISTED);
    let listed = r.move_tasks(&dlq, 10);
    assert_eq!(listed.len(), 10);
    assert_eq!(listed[0].started_at, 14);

    // A deleted source's finished tasks go too: nothing can list them any more.
    let other = wired(&f, "other");
    r.delete(&crate::sqs::engine::arn::parse(&dlq).unwrap(), 20)
        .unwrap();
    r.start_move_task(start(&other), 21).unwrap();
    assert_eq!(count(r), 1);
}

fn depth(queue: &crate::sqs::engine::queue::Queue, now: Millis) -> usize {
    queue.lock_settled(now).store().len()
}

/// Messages dead-lettered at a receive go back to their source with a task.
#[test]
fn a_task_returns_the_dead_letters_to_their_source() {
    let mut f = Fixture::new();
    let dlq = f.queue("dlq");
    let src = f.dead_lettering("src", &dlq, 1);
    f.send(&src, "a", None);
    f.send(&src, "b", None);
    assert_eq!(f.receive(&src, 10).len(), 2);
    f.advance(30_000);
    assert!(f.receive(&src, 10).is_empty(), "past maxReceiveCount");
    assert_eq!((depth(&src, f.now), depth(&dlq, f.now)), (0, 2));
    f.registry
        .start_move_task(start(&dlq.arn()), f.now)
        .unwrap();
    f.advance(1_000);
    f.registry.step_move_tasks(f.now);
    assert_eq!((depth(&src, f.now), depth(&dlq, f.now)), (2, 0));
}
