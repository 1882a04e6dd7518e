//! The recorder's rounds: none while nobody watches, one per slot while someone does, for
//! every queue (not only the charted ones), and the named series about a charted queue.

use super::*;
use crate::sqs::engine::fixture::Fixture;

const T0: Millis = 1_700_000_000_000;

fn registry(names: &[&str]) -> Registry {
    let f = Fixture::at(T0);
    for name in names {
        f.queue(name);
    }
    f.registry
}

fn times(r: &Recorder, q: &Queue) -> Vec<Millis> {
    r.book()
        .queues
        .get(&q.uid)
        .map(|ring| ring.iter().map(|(t, _)| *t).collect())
        .unwrap_or_default()
}

#[test]
fn nobody_watching_means_no_round_and_no_wake_up() {
    let registry = registry(&["a"]);
    let r = Recorder::default();
    assert_eq!(r.tick(&registry, T0), None);
    assert!(r.book().queues.is_empty());
    assert!(r.watch(T0), "the first look starts the watch");
    assert!(!r.watch(T0 + 1_000));
    assert_eq!(r.tick(&registry, T0 + 1_000), Some(T0 + INTERVAL_MS));
}

#[test]
fn a_chart_read_starts_rounds_of_every_queue_once_per_slot() {
    let registry = registry(&["a", "b"]);
    let (a, b) = (&registry.sorted()[0], &registry.sorted()[1]);
    let r = Recorder::default();
    let chart = r.chart(&[a], &[], T0);
    assert_eq!(chart.queues[0].len(), 1);
    assert_eq!(r.tick(&registry, T0 + 500), Some(T0 + INTERVAL_MS));
    assert_eq!(r.tick(&registry, T0 + 700), Some(T0 + INTERVAL_MS));
    assert_eq!(
        times(&r, b),
        [T0 + 500],
        "one round in the slot, for the other queue too"
    );
    assert_eq!(r.tick(&registry, T0 + 10_000), Some(T0 + 12_000));
    assert_eq!(times(&r, a), [T0 + 500, T0 + 10_000]);
    assert_eq!(
        r.tick(&registry, T0 + 10_000 + WATCH_MS + 1),
        None,
        "nobody looked since"
    );
}

#[test]
fn named_series_show_on_the_chart_of_their_subject() {
    let registry = registry(&["a"]);
    let a = &registry.sorted()[0];
    let r = Recorder::default();
    r.count(&a.arn(), "mapping 1", "invocations", T0 + 100, 2);
    r.count(&a.arn(), "mapping 1", "errors", T0 + 900, 1);
    r.count(
        "arn:aws:sqs:us-east-1:000000000000:other",
        "mapping 2",
        "errors",
        T0,
        1,
    );
    let chart = r.chart(&[a], &[a.arn()], T0 + 1_000);
    assert_eq!(chart.named.len(), 1);
    let json = serde_json::to_value(&chart.named[0]).unwrap();
    assert_eq!(
        json["points"],
        serde_json::json!([{"t": T0, "errors": 1, "invocations": 2}])
    );
}
