//! Property tests: receipt and move-task handles a client sends, changed or random, are
//! refused and never panic (tests/it/http/hostile_inputs.rs covers the decoders and config readers).

use proptest::prelude::*;

use crate::sqs::engine::receipt::{ReceiptHandle, ReceiptKey};

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn receipt_handles_reject_every_change(
        queue_uid in any::<u64>(), seq in any::<u64>(), receive in any::<u32>(),
        at in any::<usize>(), with in any::<char>(), garbage in ".{0,80}"
    ) {
        let key = ReceiptKey::from_secret(b"proptest");
        let handle = ReceiptHandle { queue_uid, seq, receive };
        let text = handle.encode(&key);
        prop_assert_eq!(ReceiptHandle::decode(&text, &key), Some(handle));
        let mut chars: Vec<char> = text.chars().collect();
        let i = at % chars.len();
        // A character's twin in the legacy URL-safe alphabet spells the same bytes (receipt.rs
        // reads handles issued before the standard alphabet); any other change is refused.
        let twin = matches!((chars[i], with), ('+', '-') | ('/', '_'));
        if chars[i] != with && !twin {
            chars[i] = with;
            let changed: String = chars.into_iter().collect();
            prop_assert_eq!(ReceiptHandle::decode(&changed, &key), None);
        }
        prop_assert_eq!(ReceiptHandle::decode(&garbage, &key), None);
    }

    #[test]
    fn move_task_handles_never_panic(handle in ".{0,200}") {
        let registry = crate::sqs::engine::Registry::new();
        prop_assert!(registry.cancel_move_task(&handle).is_err());
    }
}
