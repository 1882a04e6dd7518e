//! Another account gets only what a resource's Policy allows (issue 38's review, with two
//! accounts declared): H1, a mapping needs a queue its account may read and belongs to it;
//! H2, an AuthenticateOnUnsubscribe subscription takes an owner to remove, and the owner's
//! grant is what lets another account publish (every other operation: `every_action.rs`);
//! H3, a topic delivers into another account's queue only once that queue's owner confirmed
//! and its Policy allows the topic.

use serde_json::Value;

use crate::common::accounts::{allow_topic, deny_other, two_accounts, Accounts};
use crate::common::lambda_api::{failure, function};
use crate::common::{code, OTHER, OWNER};

async fn topic(sns: &aws_sdk_sns::Client, name: &str) -> String {
    let created = sns.create_topic().name(name).send().await.unwrap();
    created.topic_arn.unwrap()
}

/// Subscribes a queue; Subscribe's answer (an ARN, or `pending confirmation`).
async fn subscribe(sns: &aws_sdk_sns::Client, topic: &str, queue: &str) -> String {
    let call = sns.subscribe().topic_arn(topic).protocol("sqs");
    let answer = call.endpoint(queue).send().await.unwrap();
    answer.subscription_arn.unwrap()
}

/// CreateEventSourceMapping as this client; the UUID, or the refusal's message.
async fn map(lambda: &aws_sdk_lambda::Client, queue: &str, f: &str) -> Result<String, String> {
    let call = lambda.create_event_source_mapping().event_source_arn(queue);
    match call.function_name(f).send().await {
        Ok(created) => Ok(created.uuid.unwrap()),
        Err(e) => Err(failure(&e).2),
    }
}

#[tokio::test]
async fn h1_a_mapping_needs_a_queue_its_account_may_read() {
    let a = two_accounts(vec![function("capture")]).await;
    let (_, qa) = a.queue("qa", &deny_other("qa")).await;
    let refused = map(&a.other_lambda, &qa, "capture").await.unwrap_err();
    let want =
        "The provided execution role does not have permissions to call ReceiveMessage on SQS";
    assert_eq!(refused, want);
    // No Policy: the queue's own account may, another may not.
    let (_, open) = a.queue("open", &Value::Null).await;
    assert_eq!(
        map(&a.other_lambda, &open, "capture").await.unwrap_err(),
        want
    );
    map(&a.lambda, &open, "capture").await.unwrap();
}

#[tokio::test]
async fn h1_a_mappings_poller_reads_only_while_the_queue_policy_lets_its_account() {
    use crate::common::lambda::Handler;
    use sqslite::config::{Function, Target};
    let handler = Handler::start(vec![]).await;
    let a = two_accounts(vec![Function::new(
        "capture",
        Target::Url(handler.url.clone()),
    )])
    .await;
    let reads = serde_json::json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Principal": {"AWS": format!("arn:aws:iam::{OTHER}:root")},
        "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"],
        "Resource": format!("arn:aws:sqs:us-east-1:{OWNER}:qa")}]});
    let (url, qa) = a.queue("qa", &reads).await;
    map(&a.other_lambda, &qa, "capture").await.unwrap();
    a.t.send(&url, "one").await;
    handler.wait_events(1).await;
    // The owner turns the Policy against the mapping's account: its poller reads no more.
    let policy = aws_sdk_sqs::types::QueueAttributeName::Policy;
    let deny = deny_other("qa").to_string();
    a.t.set_attribute(&url, policy.clone(), &deny)
        .await
        .unwrap();
    a.t.send(&url, "two").await;
    // Absence takes wall time to show: a poller that still read would have the message at
    // once (the send wakes it).
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(handler.events().len(), 1);
    assert_eq!(a.depth(&url).await, "1");
    // Allowed again, the poller's next try (5 s on the server's clock) reads it.
    a.t.set_attribute(&url, policy, &reads.to_string())
        .await
        .unwrap();
    a.t.advance(6);
    let events = handler.wait_events(2).await;
    assert_eq!(events[1]["Records"][0]["body"], "two");
}

#[tokio::test]
async fn h1_a_mapping_belongs_to_its_account() {
    let a = two_accounts(vec![function("capture")]).await;
    let (_, qa) = a.queue("qa", &Value::Null).await;
    let uuid = map(&a.lambda, &qa, "capture").await.unwrap();
    let o = &a.other_lambda;
    let listed = o.list_event_source_mappings().send().await.unwrap();
    assert!(listed.event_source_mappings().is_empty());
    let not_found = |e: String| assert!(e.contains("ResourceNotFoundException"), "{e}");
    let got = o.get_event_source_mapping().uuid(&uuid).send().await;
    not_found(format!("{:?}", got.unwrap_err()));
    let call = o.update_event_source_mapping().uuid(&uuid).enabled(false);
    not_found(format!("{:?}", call.send().await.unwrap_err()));
    let got = o.delete_event_source_mapping().uuid(&uuid).send().await;
    not_found(format!("{:?}", got.unwrap_err()));
    let listed = a.lambda.list_event_source_mappings().send().await.unwrap();
    assert_eq!(
        listed.event_source_mappings()[0].uuid(),
        Some(uuid.as_str())
    );
}

#[tokio::test]
async fn h1_a_function_names_the_accounts_that_may_use_it() {
    let mut mine = function("mine");
    mine.accounts = Some(vec![OWNER.to_owned()]);
    let a = two_accounts(vec![mine]).await;
    a.other_sqs
        .create_queue()
        .queue_name("qb")
        .send()
        .await
        .unwrap();
    let qb = format!("arn:aws:sqs:us-east-1:{OTHER}:qb");
    let refused = map(&a.other_lambda, &qb, "mine").await.unwrap_err();
    assert_eq!(refused, "Function does not exist");
    let (_, qa) = a.queue("qa", &Value::Null).await;
    map(&a.lambda, &qa, "mine").await.unwrap();
}

#[tokio::test]
async fn h2_authenticate_on_unsubscribe_takes_an_owner() {
    let a = two_accounts(Vec::new()).await;
    let topic = topic(&a.sns, "mail").await;
    let sub = a.authenticated_subscription(&topic).await;
    let err = a
        .other_sns
        .unsubscribe()
        .subscription_arn(&sub)
        .send()
        .await;
    assert_eq!(code(&err.unwrap_err()), "AuthorizationError");
    a.sns
        .unsubscribe()
        .subscription_arn(&sub)
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn h2_the_owners_grant_lets_another_account_publish() {
    let a = two_accounts(Vec::new()).await;
    let topic = topic(&a.sns, "ta").await;
    let publish = a.other_sns.publish().topic_arn(&topic).message("m");
    assert_eq!(
        code(&publish.clone().send().await.unwrap_err()),
        "AuthorizationError"
    );
    let call = a.sns.add_permission().topic_arn(&topic).label("x");
    let call = call.aws_account_id(OTHER).action_name("Publish");
    call.send().await.unwrap();
    publish.send().await.unwrap();
}

#[tokio::test]
async fn h3_a_queue_that_denies_the_topics_account_gets_nothing() {
    let a = two_accounts(Vec::new()).await;
    let tb = topic(&a.other_sns, "tb").await;
    let (qa_url, qa) = a.queue("qa", &deny_other("qa")).await;
    assert_eq!(
        subscribe(&a.other_sns, &tb, &qa).await,
        "pending confirmation"
    );
    let call = a.other_sns.publish().topic_arn(&tb).message("for qa");
    call.send().await.unwrap();
    assert_eq!(a.depth(&qa_url).await, "0");
}

/// The owner's queue `name`, whose Policy lets `topic` send: its URL and ARN.
async fn allowing(a: &Accounts, name: &str, topic: &str) -> (String, String) {
    let arn = format!("arn:aws:sqs:us-east-1:{OWNER}:{name}");
    a.queue(name, &allow_topic(&arn, topic)).await
}

#[tokio::test]
async fn h3_another_accounts_queue_confirms_then_receives() {
    let a = two_accounts(Vec::new()).await;
    let tb = topic(&a.other_sns, "tb").await;
    let (url, qc) = allowing(&a, "qc", &tb).await;
    assert_eq!(
        subscribe(&a.other_sns, &tb, &qc).await,
        "pending confirmation"
    );
    let got = a.t.client.receive_message().queue_url(&url).send().await;
    let message = got.unwrap().messages.unwrap().remove(0);
    let confirmation: Value = serde_json::from_str(message.body().unwrap()).unwrap();
    assert_eq!(confirmation["Type"], "SubscriptionConfirmation");
    let link = confirmation["SubscribeURL"].as_str().unwrap();
    assert!(link.contains("Action=ConfirmSubscription"), "{link}");
    a.t.delete(&url, message.receipt_handle().unwrap()).await;
    let call = a.sns.confirm_subscription().topic_arn(&tb);
    call.token(confirmation["Token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    let call = a.other_sns.publish().topic_arn(&tb).message("for qc");
    call.send().await.unwrap();
    let got = a.t.client.receive_message().queue_url(&url).send().await;
    let body = got.unwrap().messages.unwrap().remove(0).body.unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["Message"],
        "for qc"
    );
}

#[tokio::test]
async fn a_queue_policy_that_omits_its_own_accounts_topic_refuses_it() {
    let a = two_accounts(Vec::new()).await;
    let topic = topic(&a.sns, "own").await;
    // A Policy allowing something else: on AWS the topic needs a statement of its own.
    let (strict_url, strict) =
        allowing(&a, "strict-q", "arn:aws:sns:us-east-1:000000000000:x").await;
    let (open_url, open) = a.queue("open-q", &Value::Null).await;
    for queue in [&strict, &open] {
        subscribe(&a.sns, &topic, queue).await;
    }
    a.sns
        .publish()
        .topic_arn(&topic)
        .message("m")
        .send()
        .await
        .unwrap();
    assert_eq!(
        a.depth(&strict_url).await,
        "0",
        "its Policy does not allow the topic"
    );
    assert_eq!(
        a.depth(&open_url).await,
        "1",
        "no Policy: the test-friendly default"
    );
}

/// Issue 50, L7: a platform endpoint has no Policy; only its own account publishes to it.
#[tokio::test]
async fn l7_a_platform_endpoint_takes_its_own_accounts_publish_only() {
    let a = two_accounts(Vec::new()).await;
    let topic = topic(&a.sns, "push").await;
    let endpoint = format!("arn:aws:sns:us-east-1:{OWNER}:endpoint/GCM/app/1");
    let call = a.sns.subscribe().topic_arn(&topic).protocol("application");
    call.endpoint(&endpoint).send().await.unwrap();
    let publish = a.other_sns.publish().target_arn(&endpoint).message("m");
    let err = publish.send().await.unwrap_err();
    assert_eq!(code(&err), "AuthorizationError");
    let message = crate::common::message(&err);
    assert!(
        message.ends_with(&format!("SNS:Publish on resource: {endpoint}")),
        "{message}"
    );
    a.sns
        .publish()
        .target_arn(&endpoint)
        .message("m")
        .send()
        .await
        .unwrap();
}
