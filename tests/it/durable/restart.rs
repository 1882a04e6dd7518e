//! Durable mode across a SIGKILL and a restart: queues, messages and handles, a running move
//! task, an edited declaration and a retried FIFO receive all carry on.

use std::process::Stdio;

use super::{check_state, with_dead_letters, write_state, Before};
use crate::common::durable::{attribute, command, receive, send, temp_dir, Proc};
use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queues_messages_and_handles_survive_a_kill_9() {
    let dir = temp_dir("state");
    let p = Proc::start(&dir);
    let before = write_state(&p.client).await;
    p.kill();
    let p = Proc::start(&dir);
    check_state(&p.client, before.clone()).await;
    let Before { orders, jobs, .. } = &before;
    p.kill();
    let p = Proc::start(&dir);
    assert_eq!(
        attribute(
            &p.client,
            jobs,
            QueueAttributeName::ApproximateNumberOfMessagesNotVisible
        )
        .await,
        "2"
    );
    assert_eq!(
        attribute(
            &p.client,
            orders,
            QueueAttributeName::ApproximateNumberOfMessagesNotVisible
        )
        .await,
        "1"
    );
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The one move task of `source`: its status and how many messages it has moved.
async fn move_task(c: &Client, source: &str) -> (String, i64) {
    let out = c
        .list_message_move_tasks()
        .source_arn(source)
        .send()
        .await
        .unwrap();
    let task = &out.results()[0];
    (
        task.status().unwrap().to_owned(),
        task.approximate_number_of_messages_moved(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_move_task_resumes_after_a_kill_9() {
    let dir = temp_dir("move");
    let p = Proc::start_manual(&dir);
    let c = &p.client;
    let (refunds, dlq) = with_dead_letters(c, "refunds", "30").await;
    let dlq_arn = attribute(c, &dlq, QueueAttributeName::QueueArn).await;
    let refunds_arn = attribute(c, &refunds, QueueAttributeName::QueueArn).await;
    for i in 0..5 {
        let body = format!("refund {i}");
        c.send_message()
            .queue_url(&dlq)
            .message_body(body)
            .send()
            .await
            .unwrap();
    }
    c.start_message_move_task()
        .source_arn(&dlq_arn)
        .destination_arn(&refunds_arn)
        .max_number_of_messages_per_second(1)
        .send()
        .await
        .unwrap();
    p.advance(1).await;
    let (status, moved) = move_task(c, &dlq_arn).await;
    assert_eq!(status, "RUNNING");
    assert!(
        (1..5).contains(&moved),
        "moved {moved} of 5 before the kill"
    );
    // The ticker's moves are nobody's request; an acknowledged send after them means the
    // log has them too (one writer, in order).
    c.send_message()
        .queue_url(&dlq)
        .message_body("barrier")
        .send()
        .await
        .unwrap();
    p.kill();

    let p = Proc::start_manual(&dir);
    let c = &p.client;
    let (status, after_restart) = move_task(c, &dlq_arn).await;
    assert_eq!(status, "RUNNING");
    assert!(after_restart >= moved, "moved {after_restart}, was {moved}");
    p.advance(10).await;
    assert_eq!(move_task(c, &dlq_arn).await, ("COMPLETED".to_owned(), 5));
    let mut bodies: Vec<String> = receive(c, &refunds, 10)
        .await
        .iter()
        .map(|m| m.body().unwrap().to_owned())
        .collect();
    bodies.sort();
    let expected: Vec<String> = (0..5).map(|i| format!("refund {i}")).collect();
    assert_eq!(bodies, expected);
    assert_eq!(receive(c, &dlq, 10).await[0].body(), Some("barrier"));
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_declaration_applies_to_the_stored_queue_at_the_next_start() {
    let dir = temp_dir("declared");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.with_extension("toml");
    let declare = |extra: &str| {
        let text = format!("[[queues]]\nname = \"payments\"\n{extra}\n");
        std::fs::write(&config, text).unwrap();
        let mut cmd = command(&dir.join("data"));
        cmd.arg("--config")
            .arg(&config)
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped());
        Proc::spawn(cmd)
    };
    let p = declare("VisibilityTimeout = 30\ntags = { team = \"billing\" }");
    let url = p
        .client
        .get_queue_url()
        .queue_name("payments")
        .send()
        .await
        .unwrap()
        .queue_url()
        .unwrap()
        .to_owned();
    p.client
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::MaximumMessageSize, "2048")
        .send()
        .await
        .unwrap();
    send(&p.client, &url, "kept").await;
    p.kill();

    let p = declare("VisibilityTimeout = 60\nDelaySeconds = 5\ntags = { team = \"payments\" }");
    let c = &p.client;
    assert_eq!(
        attribute(c, &url, QueueAttributeName::VisibilityTimeout).await,
        "60"
    );
    assert_eq!(
        attribute(c, &url, QueueAttributeName::DelaySeconds).await,
        "5"
    );
    // What the file does not name keeps the value set at run time.
    assert_eq!(
        attribute(c, &url, QueueAttributeName::MaximumMessageSize).await,
        "2048"
    );
    let tags = c.list_queue_tags().queue_url(&url).send().await.unwrap();
    assert_eq!(
        tags.tags().unwrap().get("team").map(String::as_str),
        Some("payments")
    );
    assert_eq!(receive(c, &url, 1).await[0].body(), Some("kept"));
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&config);
}

async fn receive_attempt(c: &Client, url: &str, attempt: &str) -> Vec<(String, String)> {
    let out = c
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(10)
        .visibility_timeout(600)
        .receive_request_attempt_id(attempt)
        .send()
        .await
        .unwrap();
    out.messages()
        .iter()
        .map(|m| {
            let id = m.message_id().unwrap().to_owned();
            (id, m.receipt_handle().unwrap().to_owned())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_receive_retried_after_a_restart_gets_the_same_messages_and_handles() {
    let dir = temp_dir("attempt");
    let p = Proc::start(&dir);
    let url = p
        .client
        .create_queue()
        .queue_name("ledger.fifo")
        .attributes(QueueAttributeName::FifoQueue, "true")
        .attributes(QueueAttributeName::ContentBasedDeduplication, "true")
        .send()
        .await
        .unwrap();
    let url = url.queue_url().unwrap().to_owned();
    for body in ["debit", "credit"] {
        let send = p.client.send_message().queue_url(&url).message_body(body);
        send.message_group_id("acct-1").send().await.unwrap();
    }
    let first = receive_attempt(&p.client, &url, "retry-1").await;
    assert_eq!(first.len(), 2);
    p.kill();

    let p = Proc::start(&dir);
    assert_eq!(receive_attempt(&p.client, &url, "retry-1").await, first);
    assert!(receive_attempt(&p.client, &url, "another").await.is_empty());
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}
