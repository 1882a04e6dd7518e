//! The poison-message drill: two messages that fail on every attempt, first with no
//! RedrivePolicy (they are redelivered forever), then with maxReceiveCount 3 (they land in a
//! dead-letter queue), then a move task sends them back once the consumer is fixed.
//!
//! `cargo run --example poison_drill` starts its own sqslite in-process and prints a table.

use std::collections::HashSet;

use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_sqs::types::{MessageSystemAttributeName, QueueAttributeName};
use aws_sdk_sqs::Client;

/// Messages whose `loanId` is here fail on every attempt (until the consumer is fixed).
pub const POISON: [u32; 2] = [7, 13];
pub const MESSAGES: u32 = 20;
pub const ROUNDS: u32 = 8;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub deliveries: u32,
    pub succeeded: u32,
    pub wasted: u32,
    pub left_in_queue: u32,
    pub in_dlq: u32,
}

type Error = Box<dyn std::error::Error + Send + Sync>;

pub fn client(endpoint: &str) -> Client {
    let config = aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .credentials_provider(Credentials::new("test", "test", None, None, "example"))
        .build();
    Client::from_conf(config)
}

fn loan_id(body: &str) -> u32 {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["loanId"].as_u64())
        .unwrap_or_default() as u32
}

async fn depth(sqs: &Client, url: &str) -> Result<u32, Error> {
    let out = sqs
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(QueueAttributeName::ApproximateNumberOfMessages)
        .attribute_names(QueueAttributeName::ApproximateNumberOfMessagesNotVisible)
        .send()
        .await?;
    let attrs = out.attributes().cloned().unwrap_or_default();
    Ok(attrs.values().map(|v| v.parse::<u32>().unwrap_or(0)).sum())
}

/// One round: receive until the queue has nothing visible; delete successes; failures are
/// made visible again at once when the round ends.
async fn round(
    sqs: &Client,
    url: &str,
    fixed: bool,
    outcome: &mut Outcome,
    done: &mut HashSet<u32>,
) -> Result<(), Error> {
    let mut failed = Vec::new();
    loop {
        let got = sqs
            .receive_message()
            .queue_url(url)
            .max_number_of_messages(10)
            .send()
            .await?;
        if got.messages().is_empty() {
            break;
        }
        for m in got.messages() {
            outcome.deliveries += 1;
            let id = loan_id(m.body().unwrap_or_default());
            let handle = m.receipt_handle().unwrap_or_default().to_owned();
            if POISON.contains(&id) && !fixed {
                outcome.wasted += 1;
                failed.push(handle);
            } else {
                outcome.succeeded += 1;
                done.insert(id);
                sqs.delete_message()
                    .queue_url(url)
                    .receipt_handle(handle)
                    .send()
                    .await?;
            }
        }
    }
    for handle in failed {
        sqs.change_message_visibility()
            .queue_url(url)
            .receipt_handle(handle)
            .visibility_timeout(0)
            .send()
            .await?;
    }
    Ok(())
}

/// Runs the scenario on fresh queues named after `prefix`; returns the source and DLQ URLs.
pub async fn scenario(
    sqs: &Client,
    prefix: &str,
    max_receive_count: Option<u32>,
) -> Result<(Outcome, String, String), Error> {
    let dlq = sqs
        .create_queue()
        .queue_name(format!("{prefix}-dlq"))
        .send()
        .await?
        .queue_url
        .unwrap_or_default();
    let dlq_arn = format!("arn:aws:sqs:us-east-1:000000000000:{prefix}-dlq");
    let mut create = sqs.create_queue().queue_name(prefix);
    if let Some(n) = max_receive_count {
        create = create.attributes(
            QueueAttributeName::RedrivePolicy,
            format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":{n}}}"#),
        );
    }
    let url = create.send().await?.queue_url.unwrap_or_default();
    for n in 1..=MESSAGES {
        sqs.send_message()
            .queue_url(&url)
            .message_body(format!(r#"{{"loanId": {n}}}"#))
            .send()
            .await?;
    }
    let mut outcome = Outcome::default();
    let mut done = HashSet::new();
    for _ in 0..ROUNDS {
        round(sqs, &url, false, &mut outcome, &mut done).await?;
    }
    outcome.left_in_queue = depth(sqs, &url).await?;
    outcome.in_dlq = depth(sqs, &dlq).await?;
    Ok((outcome, url, dlq))
}

/// Redrives the DLQ back to its source and lets a fixed consumer drain it.
pub async fn redrive_and_fix(sqs: &Client, url: &str, dlq: &str) -> Result<Outcome, Error> {
    let dlq_arn = sqs
        .get_queue_attributes()
        .queue_url(dlq)
        .attribute_names(QueueAttributeName::QueueArn)
        .send()
        .await?
        .attributes()
        .and_then(|a| a.get(&QueueAttributeName::QueueArn).cloned())
        .unwrap_or_default();
    sqs.start_message_move_task()
        .source_arn(&dlq_arn)
        .send()
        .await?;
    loop {
        let tasks = sqs
            .list_message_move_tasks()
            .source_arn(&dlq_arn)
            .send()
            .await?;
        let status = tasks
            .results()
            .first()
            .and_then(|t| t.status())
            .unwrap_or_default()
            .to_owned();
        if status != "RUNNING" {
            break;
        }
        tokio::task::yield_now().await;
    }
    let mut outcome = Outcome::default();
    round(sqs, url, true, &mut outcome, &mut HashSet::new()).await?;
    outcome.left_in_queue = depth(sqs, url).await?;
    outcome.in_dlq = depth(sqs, dlq).await?;
    Ok(outcome)
}

/// What the DLQ holds: (body, receive count, source ARN) per message.
pub async fn inspect_dlq(sqs: &Client, dlq: &str) -> Result<Vec<(String, String, String)>, Error> {
    let got = sqs
        .receive_message()
        .queue_url(dlq)
        .max_number_of_messages(10)
        .visibility_timeout(0)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .send()
        .await?;
    Ok(got
        .messages()
        .iter()
        .map(|m| {
            let attrs = m.attributes().cloned().unwrap_or_default();
            let get = |n: MessageSystemAttributeName| attrs.get(&n).cloned().unwrap_or_default();
            (
                m.body().unwrap_or_default().to_owned(),
                // This inspection is itself a receive, so the count it reports is one higher.
                get(MessageSystemAttributeName::ApproximateReceiveCount),
                get(MessageSystemAttributeName::DeadLetterQueueSourceArn),
            )
        })
        .collect())
}

#[allow(dead_code)]
#[tokio::main]
async fn main() -> Result<(), Error> {
    let server = sqslite::Server::start(sqslite::Config::ephemeral()).await?;
    let sqs = client(&server.endpoint());
    let (without, _, _) = scenario(&sqs, "loans-plain", None).await?;
    let (with, url, dlq) = scenario(&sqs, "loans", Some(3)).await?;
    println!(
        "{:<28} {:>10} {:>9} {:>6} {:>8} {:>6}",
        "run", "deliveries", "succeeded", "wasted", "in queue", "in DLQ"
    );
    for (name, o) in [("no RedrivePolicy", &without), ("maxReceiveCount 3", &with)] {
        println!(
            "{name:<28} {:>10} {:>9} {:>6} {:>8} {:>6}",
            o.deliveries, o.succeeded, o.wasted, o.left_in_queue, o.in_dlq
        );
    }
    println!("\nin the DLQ:");
    for (body, count, source) in inspect_dlq(&sqs, &dlq).await? {
        println!(
            "  {body}  receives before this look: {}  source: {source}",
            count.parse::<u32>().unwrap_or(1) - 1
        );
    }
    let after = redrive_and_fix(&sqs, &url, &dlq).await?;
    println!(
        "\nafter the fix and a move task: {} more processed ({} of {MESSAGES} in all), {} in queue, {} in DLQ",
        after.succeeded,
        with.succeeded + after.succeeded,
        after.left_in_queue,
        after.in_dlq
    );
    Ok(())
}
