//! Batch entries as the SDK builds them, for the tests that send batches by hand.

use aws_sdk_sqs::types::{
    ChangeMessageVisibilityBatchRequestEntry, DeleteMessageBatchRequestEntry,
};

/// A ChangeMessageVisibilityBatch entry.
pub fn change_entry(
    id: &str,
    handle: &str,
    seconds: i32,
) -> ChangeMessageVisibilityBatchRequestEntry {
    ChangeMessageVisibilityBatchRequestEntry::builder()
        .id(id)
        .receipt_handle(handle)
        .visibility_timeout(seconds)
        .build()
        .unwrap()
}

/// A DeleteMessageBatch entry.
pub fn delete_entry(id: &str, handle: &str) -> DeleteMessageBatchRequestEntry {
    DeleteMessageBatchRequestEntry::builder()
        .id(id)
        .receipt_handle(handle)
        .build()
        .unwrap()
}
