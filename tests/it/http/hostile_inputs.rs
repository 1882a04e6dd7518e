//! Property tests: random and mutated input to every parser a client or a config file can
//! reach (both protocol decoders, the config readers) never panics; tests/decode_memory.rs
//! bounds what the decoders allocate, src/sqs/engine/tests/hostile.rs covers the handles.

#[path = "../../inputs/mod.rs"]
mod inputs;

use proptest::prelude::*;
use sqslite::Config;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn query_decoding_never_panics(
        body in prop_oneof![inputs::mutated(inputs::QUERY_SEEDS), prop::collection::vec(any::<u8>(), 0..512)]
    ) {
        inputs::decode_query(&body);
    }

    #[test]
    fn json_decoding_never_panics(
        (name, body) in prop_oneof![
            (prop::sample::select(inputs::JSON_SEEDS), prop::collection::vec((any::<usize>(), any::<u8>()), 0..6))
                .prop_map(|((name, seed), edits)| {
                    let mut bytes = seed.as_bytes().to_vec();
                    for (at, byte) in edits {
                        let i = at % bytes.len();
                        bytes[i] = byte;
                    }
                    (name, bytes)
                }),
            (prop::sample::select(inputs::ACTION_NAMES), prop::collection::vec(any::<u8>(), 0..512)),
        ]
    ) {
        inputs::decode_json(name, &body);
    }

    #[test]
    fn config_readers_never_panic(
        text in prop_oneof![
            inputs::mutated(&[
                "[server]\nport = 9324\nregion = \"eu-west-1\"\n[[queues]]\nname = \"q\"\nVisibilityTimeout = 5\ndead_letter_queue = \"d\"\nmax_receive_count = 3\n[[queues]]\nname = \"d\"\n[[credentials]]\naccess_key_id = \"A\"\nsecret_access_key = \"s\"\naccount_id = \"000000000000\"\n",
                "include classpath(\"application.conf\")\nqueues {\n  q { defaultVisibilityTimeout = 10 seconds\n deadLettersQueue { name = \"d\"\n maxReceiveCount = 3 } }\n d {}\n}\n",
            ]),
            prop::collection::vec(any::<u8>(), 0..256),
        ],
        toml in any::<bool>()
    ) {
        let text = String::from_utf8_lossy(&text);
        let file = if toml { "sqslite.toml" } else { "elasticmq.conf" };
        let _ = Config::from_text(file, &text);
    }
}
