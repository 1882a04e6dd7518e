//! Unit tests of the move tasks' history, at explicit instants.

use std::collections::BTreeMap;

use super::*;
use crate::engine::arn::QueueKey;

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
fn wired(r: &Registry, dlq: &str) -> String {
    let dlq = QueueKey::new("r", "000000000001", dlq);
    r.create(dlq.clone(), &BTreeMap::new(), BTreeMap::new(), 0)
        .unwrap();
    let policy = json!({"deadLetterTargetArn": dlq.arn(), "maxReceiveCount": 1}).to_string();
    let attributes = BTreeMap::from([("RedrivePolicy".to_owned(), policy)]);
    let src = QueueKey::new("r", "000000000001", &format!("{}-src", dlq.name));
    r.create(src, &attributes, BTreeMap::new(), 0).unwrap();
    dlq.arn()
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
    let r = Registry::new();
    let dlq = wired(&r, "dlq");
    for at in 0..15 {
        r.start_move_task(start(&dlq), at).unwrap();
        r.step_move_tasks(at);
    }
    assert_eq!(count(&r), LISTED);
    let listed = r.move_tasks(&dlq, 10);
    assert_eq!(listed.len(), 10);
    assert_eq!(listed[0].started_at, 14);

    // A deleted source's finished tasks go too: nothing can list them any more.
    let other = wired(&r, "other");
    r.delete(&crate::engine::arn::parse(&dlq).unwrap(), 20)
        .unwrap();
    r.start_move_task(start(&other), 21).unwrap();
    assert_eq!(count(&r), 1);
}
