//! StartMessageMoveTask / ListMessageMoveTasks / CancelMessageMoveTask, on the manual clock.

use crate::common::{expect_code, message, TestServer};
use aws_sdk_sqs::types::QueueAttributeName;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;

fn arn(name: &str) -> String {
    format!("arn:aws:sqs:us-east-1:000000000000:{name}")
}

/// A source whose messages were all dead-lettered into `dlq` (maxReceiveCount 1).
async fn dead_lettered(t: &TestServer, n: usize) -> (String, String) {
    let dlq = t.create_queue("dlq").await;
    let policy = format!(
        r#"{{"deadLetterTargetArn":"{}","maxReceiveCount":1}}"#,
        arn("dlq")
    );
    let src = t
        .create_queue_with("src", &[("RedrivePolicy", &policy)])
        .await;
    for i in 0..n {
        t.send(&src, &format!("m{i}")).await;
    }
    while t.counts(&src).await != (0, 0, 0) {
        t.client
            .receive_message()
            .queue_url(&src)
            .max_number_of_messages(10)
            .visibility_timeout(0)
            .send()
            .await
            .unwrap();
    }
    assert_eq!(t.counts(&dlq).await.0, n as u64);
    (src, dlq)
}

async fn task(t: &TestServer, source: &str) -> aws_sdk_sqs::types::ListMessageMoveTasksResultEntry {
    t.client
        .list_message_move_tasks()
        .source_arn(source)
        .send()
        .await
        .unwrap()
        .results()[0]
        .clone()
}

#[tokio::test]
async fn rate_limited_task_follows_the_clock() {
    let t = TestServer::start().await;
    let (src, dlq) = dead_lettered(&t, 50).await;
    let handle = t
        .client
        .start_message_move_task()
        .source_arn(arn("dlq"))
        .max_number_of_messages_per_second(10)
        .send()
        .await
        .unwrap()
        .task_handle
        .unwrap();
    let decoded: serde_json::Value =
        serde_json::from_slice(&STANDARD.decode(&handle).unwrap()).unwrap();
    assert_eq!(decoded["sourceArn"], arn("dlq"));
    let running = task(&t, &arn("dlq")).await;
    assert_eq!(running.status(), Some("RUNNING"));
    assert_eq!(running.task_handle(), Some(handle.as_str()));
    assert_eq!(running.approximate_number_of_messages_to_move(), Some(50));
    assert_eq!(running.max_number_of_messages_per_second(), Some(10));
    assert_eq!(running.started_timestamp(), crate::common::T0 as i64);
    for _ in 0..24 {
        t.advance_ms(100);
    }
    let halfway = task(&t, &arn("dlq"))
        .await
        .approximate_number_of_messages_moved();
    assert!(
        (24..=26).contains(&halfway),
        "moved {halfway} after 2.4 s at 10/s"
    );
    t.advance(3);
    let done = task(&t, &arn("dlq")).await;
    assert_eq!(done.status(), Some("COMPLETED"));
    assert_eq!(done.approximate_number_of_messages_moved(), 50);
    assert!(done.task_handle().is_none());
    assert_eq!(t.counts(&src).await, (50, 0, 0));
    assert_eq!(t.counts(&dlq).await, (0, 0, 0));
    // Redriven messages start over: one failure does not send them back to the DLQ.
    let got = t
        .client
        .receive_message()
        .queue_url(&src)
        .visibility_timeout(0)
        .send()
        .await
        .unwrap();
    assert_eq!(got.messages().len(), 1);
    assert_eq!(t.counts(&dlq).await.0, 0);
}

#[tokio::test]
async fn explicit_destination_cancel_and_one_task_per_source() {
    let t = TestServer::start().await;
    let (_, _) = dead_lettered(&t, 10).await;
    let elsewhere = t.create_queue("elsewhere").await;
    let handle = t
        .client
        .start_message_move_task()
        .source_arn(arn("dlq"))
        .destination_arn(arn("elsewhere"))
        .max_number_of_messages_per_second(1)
        .send()
        .await
        .unwrap()
        .task_handle
        .unwrap();
    let err = t
        .client
        .start_message_move_task()
        .source_arn(arn("dlq"))
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "There is already a task running. Only one active task is allowed for a source queue arn at a given time."
    );
    t.advance(2);
    let cancelled = t
        .client
        .cancel_message_move_task()
        .task_handle(&handle)
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.approximate_number_of_messages_moved(), 3);
    let entry = task(&t, &arn("dlq")).await;
    assert_eq!(entry.status(), Some("CANCELLED"));
    assert_eq!(entry.destination_arn(), Some(arn("elsewhere").as_str()));
    assert_eq!(t.counts(&elsewhere).await.0, 3);
    expect_code(
        t.client
            .cancel_message_move_task()
            .task_handle(&handle)
            .send()
            .await,
        "InvalidParameterValue",
    );
    a_new_task_may_start_once_the_last_is_over(&t).await;
}

/// A new task may start once the previous one is over; the history lists newest first.
async fn a_new_task_may_start_once_the_last_is_over(t: &TestServer) {
    t.client
        .start_message_move_task()
        .source_arn(arn("dlq"))
        .send()
        .await
        .unwrap();
    let history = t
        .client
        .list_message_move_tasks()
        .source_arn(arn("dlq"))
        .max_results(10)
        .send()
        .await
        .unwrap();
    let statuses: Vec<_> = history
        .results()
        .iter()
        .filter_map(|r| r.status())
        .collect();
    assert_eq!(statuses, ["COMPLETED", "CANCELLED"]);
}

#[tokio::test]
async fn destination_deleted_mid_task_fails_the_task() {
    let t = TestServer::start().await;
    let (src, _) = dead_lettered(&t, 5).await;
    t.client
        .start_message_move_task()
        .source_arn(arn("dlq"))
        .max_number_of_messages_per_second(1)
        .send()
        .await
        .unwrap();
    t.client
        .delete_queue()
        .queue_url(&src)
        .send()
        .await
        .unwrap();
    t.advance(1);
    let entry = task(&t, &arn("dlq")).await;
    assert_eq!(entry.status(), Some("FAILED"));
    assert_eq!(
        entry.failure_reason(),
        Some("AWS.SimpleQueueService.NonExistentQueue")
    );
    assert_eq!(
        t.counts(&format!("{}/000000000000/dlq", t.endpoint()))
            .await
            .0,
        4,
        "nothing lost"
    );
}

#[tokio::test]
async fn start_and_cancel_errors() {
    let t = TestServer::start().await;
    t.create_queue("plain").await;
    let err = t
        .client
        .start_message_move_task()
        .source_arn(arn("missing"))
        .send()
        .await
        .unwrap_err();
    assert!(err
        .as_service_error()
        .unwrap()
        .is_resource_not_found_exception());
    let err = t
        .client
        .start_message_move_task()
        .source_arn(arn("plain"))
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        "Source queue must be configured as a Dead Letter Queue."
    );
    let (_, _) = dead_lettered(&t, 1).await;
    expect_code(
        t.client
            .start_message_move_task()
            .source_arn(arn("dlq"))
            .destination_arn(arn("missing"))
            .send()
            .await,
        "ResourceNotFoundException",
    );
    expect_code(
        t.client
            .start_message_move_task()
            .source_arn(arn("dlq"))
            .max_number_of_messages_per_second(501)
            .send()
            .await,
        "InvalidParameterValue",
    );
    cancel_errors(&t).await;
}

/// A handle that is not one, one of no task, one of a queue that does not exist.
async fn cancel_errors(t: &TestServer) {
    let err = t
        .client
        .cancel_message_move_task()
        .task_handle("not-a-handle")
        .send()
        .await
        .unwrap_err();
    assert_eq!(message(&err), "Value for parameter TaskHandle is invalid.");
    let unknown = STANDARD.encode(format!(
        r#"{{"taskId":"nope","sourceArn":"{}"}}"#,
        arn("dlq")
    ));
    let err = t
        .client
        .cancel_message_move_task()
        .task_handle(unknown)
        .send()
        .await
        .unwrap_err();
    assert_eq!(message(&err), "Task does not exist.");
    let gone = STANDARD.encode(format!(
        r#"{{"taskId":"nope","sourceArn":"{}"}}"#,
        arn("gone")
    ));
    expect_code(
        t.client
            .cancel_message_move_task()
            .task_handle(gone)
            .send()
            .await,
        "ResourceNotFoundException",
    );
    let listed = t
        .client
        .get_queue_attributes()
        .queue_url(format!("{}/000000000000/dlq", t.endpoint()))
        .attribute_names(QueueAttributeName::ApproximateNumberOfMessages)
        .send()
        .await
        .unwrap();
    assert!(listed.attributes().is_some());
}
