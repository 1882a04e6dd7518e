//! sqslite inside a Rust program or test: declared queues, the real AWS SDK, a manual clock.
//!
//! Run with `cargo run --example embedded`.

use std::sync::Arc;
use std::time::Duration;

use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region};
use sqslite::{Config, ManualClock, QueueDecl, Server};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Queues declared here exist before the server answers its first request.
    let config = Config::ephemeral()
        .with_queue(QueueDecl::new("orders-dlq"))
        .with_queue(
            QueueDecl::new("orders")
                .attribute("VisibilityTimeout", 30)
                .dead_letter("orders-dlq", 3)
                .tag("team", "payments"),
        );
    // A manual clock lets a test cross visibility timeouts without sleeping.
    let clock = ManualClock::starting_now();
    let server = Server::start_with_clock(config, Arc::new(clock.clone())).await?;

    let sqs = aws_sdk_sqs::Client::from_conf(
        aws_sdk_sqs::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new("us-east-1"))
            .endpoint_url(server.endpoint())
            .credentials_provider(Credentials::new("test", "test", None, None, "example"))
            .build(),
    );
    let url = server.queue_url("orders");
    sqs.send_message()
        .queue_url(&url)
        .message_body("hello")
        .send()
        .await?;
    let first = sqs.receive_message().queue_url(&url).send().await?;
    println!("received: {:?}", first.messages()[0].body());

    clock.advance(Duration::from_secs(31));
    let again = sqs.receive_message().queue_url(&url).send().await?;
    println!("visible again after 31 s: {}", again.messages().len() == 1);

    // Dropping the server stops it; `shutdown` also waits for in-flight requests.
    server.shutdown().await;
    Ok(())
}
