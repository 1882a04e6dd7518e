//! Amazon SQS (src/sqs) through the real `aws-sdk-sqs` and raw requests: queues and their URLs,
//! messages, batches, FIFO, dead letters, move tasks, long polls, both wire protocols, AWS's
//! validation wording and what recorded clients put on the wire; `scenarios` runs the semantics
//! users rely on over AWS JSON 1.0 and AWS Query alike.

mod at_least_once;
mod bad_input;
mod batches;
mod compat_regressions;
mod dead_letters;
mod fifo;
mod limits;
mod list_queues;
mod localstack;
mod long_poll;
mod messages_content;
mod messages_delivery;
mod move_tasks;
mod query_protocol;
mod queue_urls;
mod queues;
mod receipt_handles;
mod recorded_go_cloud;
mod scenarios;
mod strict;
mod validation_fidelity_messages;
mod validation_fidelity_queues;
