//! What an empty queue costs, piece by piece: the sizes of the queue's parts, and the heap
//! bytes (dhat's count of live allocations) that 10,000 queues, every second one the
//! dead-letter queue of the one before, add to a registry and to the alarm states.
//! BENCHMARKS.md ("Memory per empty queue") has the figures; `sqslite-bench --scale-only`
//! measures the same queues from outside, as resident memory.
//!
//! `cargo run --release --example queue_memory`

use std::collections::BTreeMap;
use std::mem::size_of;
use std::sync::Arc;

use sqslite::engine::arn::QueueKey;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

const QUEUES: u64 = 10_000;

fn live_bytes() -> u64 {
    dhat::HeapStats::get().curr_bytes as u64
}

fn main() {
    let _profiler = dhat::Profiler::builder().testing().build();
    println!("size_of (bytes)");
    for (name, size) in [
        ("Queue", size_of::<sqslite::engine::queue::Queue>()),
        (
            "  QueueState",
            size_of::<sqslite::engine::queue::QueueState>(),
        ),
        ("    Store", size_of::<sqslite::engine::store::Store>()),
        (
            "    QueueAttributes",
            size_of::<sqslite::engine::attributes::QueueAttributes>(),
        ),
        ("    Stats", size_of::<sqslite::engine::queue::Stats>()),
        (
            "    Processing (boxed at first sample)",
            size_of::<sqslite::engine::processing::Processing>(),
        ),
        ("    Dedup", size_of::<sqslite::engine::fifo::Dedup>()),
        ("    Attempts", size_of::<sqslite::engine::fifo::Attempts>()),
        ("  Notify", size_of::<tokio::sync::Notify>()),
        ("  QueueKey", size_of::<QueueKey>()),
    ] {
        println!("  {name:<40} {size:>5}");
    }

    let config = sqslite::Config::ephemeral();
    let clock: sqslite::clock::SharedClock = Arc::new(sqslite::ManualClock::starting_now());
    let app = sqslite::app::App::new(config, clock);
    let now = app.now();
    let before = live_bytes();
    for i in 0..QUEUES / 2 {
        let none = BTreeMap::new;
        let dlq = QueueKey::new("us-east-1", "000000000000", &format!("q-{i}-dlq"));
        app.sqs.registry.create(dlq, &none(), none(), now).unwrap();
        let policy = format!(
            r#"{{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:q-{i}-dlq","maxReceiveCount":5}}"#
        );
        let attributes = BTreeMap::from([("RedrivePolicy".to_owned(), policy)]);
        let source = QueueKey::new("us-east-1", "000000000000", &format!("q-{i}"));
        app.sqs
            .registry
            .create(source, &attributes, none(), now)
            .unwrap();
    }
    let registry = live_bytes() - before;
    drop(app.alarms.evaluate(&app.sqs.registry, now));
    let alarms = live_bytes() - before - registry;
    println!("heap per queue, {QUEUES} queues (bytes asked of the allocator)");
    println!("  registry (queues, keys, map)  {:>5}", registry / QUEUES);
    println!("  alarm states                  {:>5}", alarms / QUEUES);
}
