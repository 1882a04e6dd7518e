//! What an empty queue costs, piece by piece: the sizes of the queue's parts, and the heap
//! bytes (dhat's count of live allocations) that 10,000 queues, every second one the
//! dead-letter queue of the one before, add to a registry and to the alarm states.
//! BENCHMARKS.md ("Memory per empty queue") has the figures; `sqslite-bench --scale-only`
//! measures the same queues from outside, as resident memory.
//!
//! `cargo run --release --example queue_memory`

use sqslite::support::{queue_part_sizes, Queues};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

const QUEUES: u64 = 10_000;

fn live_bytes() -> u64 {
    dhat::HeapStats::get().curr_bytes as u64
}

fn main() {
    let _profiler = dhat::Profiler::builder().testing().build();
    println!("size_of (bytes)");
    for (name, size) in queue_part_sizes() {
        println!("  {name:<40} {size:>5}");
    }

    let queues = Queues::in_memory();
    let before = live_bytes();
    for i in 0..QUEUES / 2 {
        let dlq = format!("q-{i}-dlq");
        queues.create(&dlq, &[]).unwrap();
        let policy = format!(
            r#"{{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:{dlq}","maxReceiveCount":5}}"#
        );
        let source = format!("q-{i}");
        queues
            .create(&source, &[("RedrivePolicy", &policy)])
            .unwrap();
    }
    let registry = live_bytes() - before;
    queues.evaluate_alarms();
    let alarms = live_bytes() - before - registry;
    println!("heap per queue, {QUEUES} queues (bytes asked of the allocator)");
    println!("  registry (queues, keys, map)  {:>5}", registry / QUEUES);
    println!("  alarm states                  {:>5}", alarms / QUEUES);
}
