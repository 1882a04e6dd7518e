//! Amazon SNS (src/sns) through the real `aws-sdk-sns` on the SQS port: topics fanning out into
//! queues and to http/s endpoints, the API and its errors as recorded from AWS, declarations,
//! policies, faults, durability, the outbound rule and what the observers show of topics.

mod account_shares;
mod api;
mod declare;
mod durable;
mod fanout;
mod fanout_bounds;
mod faults;
mod fifo_standard;
mod http;
mod limits;
mod observe;
mod outbound;
mod outbound_bounds;
mod policies;
mod recorded;
mod recorded_attributes;
mod recorded_errors;
mod recorded_filters;
mod recorded_messages;
mod shared_outbound;
mod topics_api;
mod value_bounds;
