//! Long polling: woken by events (a send, a visibility deadline on the clock), never by polling.

use std::collections::HashSet;
use std::time::Duration;

use crate::common::TestServer;
use aws_sdk_sqs::config::http::HttpResponse;
use aws_sdk_sqs::error::SdkError;
use aws_sdk_sqs::operation::receive_message::{ReceiveMessageError, ReceiveMessageOutput};
use tokio::task::JoinHandle;
use tokio::time::timeout;

/// Generous wall-clock bound: a waiter that is not woken fails here instead of hanging.
const WAKE: Duration = Duration::from_secs(5);

/// Gives a parked receive the time to return early, if it would: a check that something
/// does not happen has nothing to wait on.
async fn let_it_misbehave() {
    tokio::time::sleep(Duration::from_millis(100)).await;
}

type Received = Result<ReceiveMessageOutput, SdkError<ReceiveMessageError, HttpResponse>>;

/// A ReceiveMessage on its own task, waiting `wait` seconds (the queue's default when
/// `None`); parked on the server (its waiter gauge says so) by the time this returns. Each
/// test parks one receive on its queue.
async fn parked_receive(t: &TestServer, url: &str, wait: Option<i32>) -> JoinHandle<Received> {
    let request = t
        .client
        .receive_message()
        .queue_url(url)
        .set_wait_time_seconds(wait);
    let waiter = tokio::spawn(request.send());
    let name = url
        .rsplit('/')
        .next()
        .expect("a queue URL ends with its name");
    t.wait_parked(name, 1).await;
    waiter
}

#[tokio::test]
async fn wakes_as_soon_as_a_message_is_sent() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let waiter = parked_receive(&t, &url, Some(20)).await;
    assert!(!waiter.is_finished());
    t.send(&url, "wake up").await;
    let got = timeout(WAKE, waiter)
        .await
        .expect("woken by the send")
        .unwrap()
        .unwrap();
    assert_eq!(got.messages()[0].body(), Some("wake up"));
}

#[tokio::test]
async fn wakes_when_a_hidden_message_becomes_visible() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    t.send(&url, "m").await;
    t.client
        .receive_message()
        .queue_url(&url)
        .visibility_timeout(5)
        .send()
        .await
        .unwrap();
    let waiter = parked_receive(&t, &url, Some(20)).await;
    t.advance(5);
    let got = timeout(WAKE, waiter)
        .await
        .expect("woken by the clock")
        .unwrap()
        .unwrap();
    assert_eq!(got.messages().len(), 1);
}

#[tokio::test]
async fn returns_empty_at_the_deadline_and_not_before() {
    let t = TestServer::start().await;
    let url = t
        .create_queue_with("q", &[("ReceiveMessageWaitTimeSeconds", "20")])
        .await;
    // No WaitTimeSeconds: the queue's ReceiveMessageWaitTimeSeconds applies.
    let waiter = parked_receive(&t, &url, None).await;
    t.advance(19);
    let_it_misbehave().await;
    assert!(!waiter.is_finished(), "returned before its wait time");
    t.advance(1);
    let got = timeout(WAKE, waiter)
        .await
        .expect("returned at the deadline")
        .unwrap()
        .unwrap();
    assert!(got.messages().is_empty());
}

#[tokio::test]
async fn deleting_the_queue_ends_waiting_receives() {
    let t = TestServer::start().await;
    let url = t.create_queue("q").await;
    let waiter = parked_receive(&t, &url, Some(20)).await;
    t.client
        .delete_queue()
        .queue_url(&url)
        .send()
        .await
        .unwrap();
    let err = timeout(WAKE, waiter)
        .await
        .expect("woken by the delete")
        .unwrap()
        .unwrap_err();
    assert!(err.as_service_error().unwrap().is_queue_does_not_exist());
}

#[tokio::test]
async fn sixteen_consumers_receive_every_message_exactly_once() {
    let t = TestServer::start().await;
    let url = t.create_queue("work").await;
    let total = 400;
    let mut consumers = Vec::new();
    for _ in 0..16 {
        let client = t.client.clone();
        let url = url.clone();
        consumers.push(tokio::spawn(async move {
            let mut seen = Vec::new();
            loop {
                let got = client
                    .receive_message()
                    .queue_url(&url)
                    .max_number_of_messages(10)
                    .wait_time_seconds(20)
                    .send()
                    .await
                    .unwrap();
                if got.messages().is_empty() {
                    return seen;
                }
                for m in got.messages() {
                    seen.push(m.body().unwrap().to_owned());
                    client
                        .delete_message()
                        .queue_url(&url)
                        .receipt_handle(m.receipt_handle().unwrap())
                        .send()
                        .await
                        .unwrap();
                }
            }
        }));
    }
    for i in 0..total {
        t.send(&url, &format!("job-{i}")).await;
    }
    timeout(Duration::from_secs(30), async {
        while t.counts(&url).await != (0, 0, 0) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("all jobs consumed");
    // Consumers stop on an empty long poll: move the clock past every wait until all have.
    timeout(Duration::from_secs(30), async {
        while consumers.iter().any(|c| !c.is_finished()) {
            t.advance(20);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("all consumers stopped");
    let mut all = Vec::new();
    for c in consumers {
        all.extend(timeout(Duration::from_secs(30), c).await.unwrap().unwrap());
    }
    let unique: HashSet<_> = all.iter().collect();
    assert_eq!(all.len(), total, "every message delivered once");
    assert_eq!(unique.len(), total);
}
