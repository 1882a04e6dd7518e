//! Inputs shared by the property tests: valid requests to mutate, and the decoders as the
//! service runs them (from `sqslite::support`).
#![allow(dead_code)]

use proptest::prelude::*;
pub use sqslite::support::{decode_json, decode_query, ACTION_NAMES};

/// Valid requests to mutate: every action's usual parameters.
pub const QUERY_SEEDS: &[&str] = &[
    "Action=SendMessage&QueueUrl=http%3A%2F%2Fx%2F000000000000%2Fq&MessageBody=hi&MessageAttribute.1.Name=a&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=v&DelaySeconds=1",
    "Action=SendMessageBatch&QueueUrl=q&SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=b&SendMessageBatchRequestEntry.2.Id=c&SendMessageBatchRequestEntry.2.MessageBody=d",
    "Action=ReceiveMessage&QueueUrl=q&MaxNumberOfMessages=10&WaitTimeSeconds=1&AttributeName.1=All&MessageAttributeName.1=All",
    "Action=CreateQueue&QueueName=q.fifo&Attribute.1.Name=FifoQueue&Attribute.1.Value=true&Tag.1.Key=k&Tag.1.Value=v",
    "Action=DeleteMessageBatch&QueueUrl=q&DeleteMessageBatchRequestEntry.1.Id=a&DeleteMessageBatchRequestEntry.1.ReceiptHandle=h",
    "Action=SetQueueAttributes&QueueUrl=q&Attribute.1.Name=Policy&Attribute.1.Value=%7B%7D",
];

pub const JSON_SEEDS: &[(&str, &str)] = &[
    (
        "SendMessage",
        r#"{"QueueUrl":"q","MessageBody":"hi","MessageAttributes":{"a":{"DataType":"String","StringValue":"v"}},"DelaySeconds":1}"#,
    ),
    (
        "SendMessageBatch",
        r#"{"QueueUrl":"q","Entries":[{"Id":"a","MessageBody":"b"},{"Id":"c","MessageBody":"d"}]}"#,
    ),
    (
        "ReceiveMessage",
        r#"{"QueueUrl":"q","MaxNumberOfMessages":10,"MessageSystemAttributeNames":["All"]}"#,
    ),
    (
        "CreateQueue",
        r#"{"QueueName":"q","Attributes":{"VisibilityTimeout":"5"},"tags":{"k":"v"}}"#,
    ),
    (
        "ChangeMessageVisibilityBatch",
        r#"{"QueueUrl":"q","Entries":[{"Id":"a","ReceiptHandle":"h","VisibilityTimeout":3}]}"#,
    ),
];

/// A seed with a few bytes overwritten, inserted or cut.
pub fn mutated(seeds: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(seeds),
        prop::collection::vec((any::<usize>(), any::<u8>(), 0..3u8), 0..8),
    )
        .prop_map(|(seed, edits)| {
            let mut bytes = seed.as_bytes().to_vec();
            for (at, byte, kind) in edits {
                let i = at % (bytes.len() + 1);
                match kind {
                    0 if i < bytes.len() => bytes[i] = byte,
                    1 => bytes.insert(i, byte),
                    _ => {
                        bytes.truncate(i.max(1));
                    }
                }
            }
            bytes
        })
}
