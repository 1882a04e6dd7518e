//! What decoding a request allocates is bounded by its size: random and mutated bodies for
//! both protocols, counted by dhat's heap profiler (one test in this binary, so nothing else
//! allocates while it counts).

mod inputs;

use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestRunner};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// Fixed costs a decode may add to its multiple of the input: error text, small tables.
const SLACK: u64 = 64 * 1024;
/// Bytes allocated in total (not just held at once) per input byte.
const PER_BYTE: u64 = 32;

fn allocated_by(f: impl FnOnce()) -> u64 {
    let before = dhat::HeapStats::get().total_bytes;
    f();
    dhat::HeapStats::get().total_bytes - before
}

#[test]
fn decoding_allocates_a_bounded_multiple_of_the_input() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let mut runner = TestRunner::new(RunnerConfig {
        cases: 128,
        failure_persistence: None,
        ..RunnerConfig::default()
    });
    let query = prop_oneof![
        inputs::mutated(inputs::QUERY_SEEDS),
        prop::collection::vec(any::<u8>(), 0..2048)
    ];
    runner
        .run(&query, |body| {
            let bytes = allocated_by(|| inputs::decode_query(&body));
            let bound = PER_BYTE * body.len() as u64 + SLACK;
            prop_assert!(
                bytes <= bound,
                "{bytes} bytes for {} input bytes",
                body.len()
            );
            Ok(())
        })
        .unwrap();
    let json = (
        prop::sample::select(inputs::ACTION_NAMES),
        prop_oneof![
            prop::sample::select(inputs::JSON_SEEDS).prop_map(|(_, s)| s.as_bytes().to_vec()),
            prop::collection::vec(any::<u8>(), 0..2048)
        ],
    );
    runner
        .run(&json, |(name, body)| {
            let bytes = allocated_by(|| inputs::decode_json(name, &body));
            let bound = PER_BYTE * body.len() as u64 + SLACK;
            prop_assert!(
                bytes <= bound,
                "{bytes} bytes for {} input bytes",
                body.len()
            );
            Ok(())
        })
        .unwrap();
    // The amplification the issue found: a body of empty keys, ~4 MB of `&a`.
    let keys = format!(
        "Action=ListQueues&Version=2012-11-05{}",
        "&a".repeat(200_000)
    );
    let bytes = allocated_by(|| inputs::decode_query(keys.as_bytes()));
    assert!(
        bytes <= PER_BYTE * keys.len() as u64 + SLACK,
        "{bytes} bytes for {}",
        keys.len()
    );
}
