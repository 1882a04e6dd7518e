//! The SQS semantics users rely on, each scenario run twice: over AWS JSON 1.0 through the real
//! SDK and over AWS Query as form posts with XML answers (`common::wire`), as ElasticMQ runs its
//! SDK suite once per protocol. A scenario asserts what its client is handed (ids, MD5s,
//! attributes, error codes and messages) in one place, so the two encoders cannot drift apart;
//! where AWS itself answers the two protocols differently, the scenario says so with
//! [`Wire::either`].

use std::fmt::Debug;

use crate::common::wire::{Answer, Protocol, Wire, WireError};

/// Each scenario `x` (an `async fn x(Protocol)`) becomes the tests `x::json` and `x::query`.
macro_rules! over_both_protocols {
    ($($scenario:ident),+ $(,)?) => {$(
        mod $scenario {
            use crate::common::wire::Protocol;

            #[tokio::test]
            async fn json() {
                super::$scenario(Protocol::Json).await;
            }

            #[tokio::test]
            async fn query() {
                super::$scenario(Protocol::Query).await;
            }
        }
    )+};
}

mod attributes;
mod batches;
mod dead_letters;
mod fifo;
mod long_poll;
mod messages;
mod visibility;

/// The error a call that must fail answers, for one `assert_eq!` on status, code and message.
#[track_caller]
fn refused<T: Debug>(answer: Answer<T>) -> WireError {
    answer.expect_err("the call should fail")
}

/// The error SQS answers, as both protocols' clients report it.
fn error(status: u16, code: &str, message: &str) -> WireError {
    WireError {
        status,
        code: code.to_owned(),
        message: message.to_owned(),
    }
}

/// A server speaking `protocol`, with one queue `name` of these attributes.
async fn with_queue(protocol: Protocol, name: &str, attributes: &[(&str, &str)]) -> (Wire, String) {
    let w = Wire::start(protocol).await;
    let url = w
        .create_queue(name, attributes)
        .await
        .expect("create queue");
    (w, url)
}
