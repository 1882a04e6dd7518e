//! Another account's access to a queue, through the real SDK: only as far as the queue's
//! Policy allows, a Deny binding everyone, and move tasks never shared across accounts.

use crate::common::{client_at, code, expect_code, message};
use crate::common::{signed_server, OTHER, OWNER};

/// Another account's key reaches a queue only as far as the queue's Policy allows it.
#[tokio::test]
async fn other_accounts_need_the_queue_policy() {
    use aws_sdk_sqs::types::QueueAttributeName;
    let s = signed_server().await;
    let url = s.create_queue("shared").await;
    s.send(&url, "owner's").await;
    let other = client_at(&s.endpoint(), "AKIDOTHER", "other-secret", &s.clock);
    let arn = format!("arn:aws:sqs:us-east-1:{OWNER}:shared");

    let err = expect_code(
        other.receive_message().queue_url(&url).send().await,
        "AccessDenied",
    );
    assert_eq!(err.raw_response().unwrap().status().as_u16(), 403);
    assert_eq!(
        message(&err),
        format!("User: arn:aws:iam::{OTHER}:root is not authorized to perform: sqs:receivemessage on resource: {arn} because no resource-based policy allows the sqs:receivemessage action")
    );
    purge_and_delete_queue_are_denied(&other, &url).await;
    assert_eq!(s.counts(&url).await, (1, 0, 0));

    let policy = format!(
        r#"{{"Version":"2012-10-17","Statement":[{{"Effect":"Allow","Principal":{{"AWS":"arn:aws:iam::{OTHER}:root"}},"Action":["sqs:ReceiveMessage","sqs:Delete*","sqs:Send*"],"Resource":"{arn}"}}]}}"#
    );
    s.set_attribute(&url, QueueAttributeName::Policy, &policy)
        .await
        .unwrap();
    receive_delete_and_send_as_granted(&other, &url).await;
    // Not granted: purge; never cross-account, whatever a policy says: DeleteQueue.
    purge_and_delete_queue_are_denied(&other, &url).await;
    assert_eq!(s.counts(&url).await, (1, 0, 0));
}

async fn purge_and_delete_queue_are_denied(other: &aws_sdk_sqs::Client, url: &str) {
    expect_code(
        other.purge_queue().queue_url(url).send().await,
        "AccessDenied",
    );
    expect_code(
        other.delete_queue().queue_url(url).send().await,
        "AccessDenied",
    );
}

/// The calls the Policy grants the other account, each succeeding.
async fn receive_delete_and_send_as_granted(other: &aws_sdk_sqs::Client, url: &str) {
    let got = other.receive_message().queue_url(url).send().await.unwrap();
    let handle = got.messages()[0].receipt_handle().unwrap();
    other
        .delete_message()
        .queue_url(url)
        .receipt_handle(handle)
        .send()
        .await
        .unwrap();
    other
        .send_message_batch()
        .queue_url(url)
        .entries(
            aws_sdk_sqs::types::SendMessageBatchRequestEntry::builder()
                .id("a")
                .message_body("from the other account")
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
}

/// A Deny statement binds every principal, the queue's own account included.
#[tokio::test]
async fn a_deny_statement_is_honoured() {
    use aws_sdk_sqs::types::QueueAttributeName;
    let s = signed_server().await;
    let url = s.create_queue("guarded").await;
    let policy = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":"*","Action":"sqs:PurgeQueue","Resource":"*"}]}"#;
    s.set_attribute(&url, QueueAttributeName::Policy, policy)
        .await
        .unwrap();
    s.send(&url, "kept").await;
    let err = expect_code(
        s.client.purge_queue().queue_url(&url).send().await,
        "AccessDenied",
    );
    assert!(
        message(&err).ends_with("with an explicit deny in a resource-based policy"),
        "{}",
        message(&err)
    );
    assert_eq!(s.counts(&url).await, (1, 0, 0));
    // What the Deny does not name still works for the owner.
    s.receive(&url).await;
}

/// Move tasks are never shared across accounts (SQS's owner-only actions).
#[tokio::test]
async fn move_tasks_stay_with_their_account() {
    use aws_sdk_sqs::types::QueueAttributeName;
    let s = signed_server().await;
    let dlq = s.create_queue("tasks-dlq").await;
    let dlq_arn = format!("arn:aws:sqs:us-east-1:{OWNER}:tasks-dlq");
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":"1"}}"#);
    s.create_queue_with("tasks-src", &[("RedrivePolicy", redrive.as_str())])
        .await;
    for _ in 0..3 {
        s.send(&dlq, "parked").await;
    }
    let owner_start = s
        .client
        .start_message_move_task()
        .source_arn(&dlq_arn)
        .max_number_of_messages_per_second(1)
        .send()
        .await
        .unwrap();
    let handle = owner_start.task_handle().unwrap();
    let other = client_at(&s.endpoint(), "AKIDOTHER", "other-secret", &s.clock);
    // Even a policy allowing everything does not open owner-only actions.
    let allow_all = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"*"}]}"#;
    s.set_attribute(&dlq, QueueAttributeName::Policy, allow_all)
        .await
        .unwrap();
    expect_code(
        other
            .start_message_move_task()
            .source_arn(&dlq_arn)
            .send()
            .await,
        "AccessDenied",
    );
    expect_code(
        other
            .list_message_move_tasks()
            .source_arn(&dlq_arn)
            .send()
            .await,
        "AccessDenied",
    );
    expect_code(
        other
            .cancel_message_move_task()
            .task_handle(handle)
            .send()
            .await,
        "AccessDenied",
    );
    // The owner is not refused (the task may have finished already: that is its own error).
    let owner = s
        .client
        .cancel_message_move_task()
        .task_handle(handle)
        .send()
        .await;
    assert!(owner
        .as_ref()
        .map_or_else(|e| code(e) != "AccessDenied", |_| true));
}
