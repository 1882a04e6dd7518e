//! Every action of every service, asked by another account of the owner's resources without
//! a Policy grant, is refused (issue 38), and let through once the resource's Policy grants it
//! where the service's table says a Policy can (issue 49): the lists and the access columns
//! come from the services' own action lists (`sqslite::support`), so an action added without
//! its check, or without a row here, fails.
//! The few that act in the caller's own account instead show that they see nothing of the
//! owner's; ConfirmSubscription's proof is its token.

use std::collections::BTreeSet;

use crate::common::accounts::{two_accounts, two_accounts_with, Accounts};
use crate::common::lambda_api::{failure, function};
use crate::common::{OTHER, OWNER};

/// What the other account's request must get.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// The service's refusal: this code.
    Refused(&'static str),
    /// Served in the caller's own account: the answer names nothing of `OWNER`'s.
    Own,
    /// Refused for what it names, not for who asks (ConfirmSubscription's token).
    Invalid,
    /// Let through: whatever the answer, it is not `code`, the service's refusal.
    Admitted(&'static str),
}

/// One action's row: its name, its parameters, what it must get.
type Row<'a> = (&'a str, Vec<(&'a str, &'a str)>, Want);

/// The text of the first `<name>` element of an XML answer.
fn element<'a>(xml: &'a str, name: &str) -> &'a str {
    let open = format!("<{name}>");
    let Some(start) = xml.find(&open).map(|i| i + open.len()) else {
        return "";
    };
    xml[start..]
        .split(&format!("</{name}>"))
        .next()
        .unwrap_or("")
}

async fn check(a: &Accounts, service: &str, name: &str, params: &[(&str, &str)], want: Want) {
    let mut all = vec![("Action", name)];
    all.extend_from_slice(params);
    let got = a.other_query(service, &all).await;
    let code = element(&got.body, "Code");
    match want {
        Want::Refused(expected) => assert_eq!(code, expected, "{name}: {}", got.body),
        Want::Own => {
            assert_eq!(got.status, 200, "{name}: {}", got.body);
            assert!(!got.body.contains(OWNER), "{name}: {}", got.body);
        }
        Want::Invalid => assert_eq!(code, "InvalidParameter", "{name}: {}", got.body),
        Want::Admitted(refusal) => assert_ne!(code, refusal, "{name}: {}", got.body),
    }
}

/// Each listed name exactly once, and every name of the service listed.
fn covers(names: &[&str], listed: &[&str]) {
    let want: BTreeSet<&str> = names.iter().copied().collect();
    let got: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(got, want);
    assert_eq!(got.len(), listed.len(), "a name listed twice");
}

// One row per action, every parameter spelled out: the table is the point.
#[allow(clippy::too_many_lines)]
#[tokio::test]
async fn every_sns_action_on_the_owners_topic_is_refused_to_another_account_until_granted() {
    let a = two_accounts(Vec::new()).await;
    let topic = a
        .sns
        .create_topic()
        .name("t")
        .send()
        .await
        .unwrap()
        .topic_arn
        .unwrap();
    let (_, queue) = a.queue("q", &serde_json::Value::Null).await;
    let call = a
        .sns
        .subscribe()
        .topic_arn(&topic)
        .protocol("sqs")
        .endpoint(&queue);
    let sub = call
        .return_subscription_arn(true)
        .send()
        .await
        .unwrap()
        .subscription_arn
        .unwrap();
    let auth = a.authenticated_subscription(&topic).await;
    let (t, s) = (topic.as_str(), sub.as_str());
    let no = Want::Refused("AuthorizationError");
    let token = "ab".repeat(64);
    let rows: Vec<Row<'_>> = vec![
        ("CreateTopic", vec![("Name", "mine")], Want::Own),
        ("GetTopicAttributes", vec![("TopicArn", t)], no),
        (
            "SetTopicAttributes",
            vec![
                ("TopicArn", t),
                ("AttributeName", "DisplayName"),
                ("AttributeValue", "x"),
            ],
            no,
        ),
        ("ListTopics", vec![], Want::Own),
        ("DeleteTopic", vec![("TopicArn", t)], no),
        (
            "TagResource",
            vec![
                ("ResourceArn", t),
                ("Tags.member.1.Key", "k"),
                ("Tags.member.1.Value", "v"),
            ],
            no,
        ),
        (
            "UntagResource",
            vec![("ResourceArn", t), ("TagKeys.member.1", "k")],
            no,
        ),
        ("ListTagsForResource", vec![("ResourceArn", t)], no),
        (
            "AddPermission",
            vec![
                ("TopicArn", t),
                ("Label", "x"),
                ("AWSAccountId.member.1", "111111111111"),
                ("ActionName.member.1", "Publish"),
            ],
            no,
        ),
        (
            "RemovePermission",
            vec![("TopicArn", t), ("Label", "x")],
            no,
        ),
        (
            "Subscribe",
            vec![
                ("TopicArn", t),
                ("Protocol", "sms"),
                ("Endpoint", "+15550100"),
            ],
            no,
        ),
        (
            "ConfirmSubscription",
            vec![("TopicArn", t), ("Token", &token)],
            Want::Invalid,
        ),
        ("Unsubscribe", vec![("SubscriptionArn", &auth)], no),
        ("ListSubscriptions", vec![], Want::Own),
        ("ListSubscriptionsByTopic", vec![("TopicArn", t)], no),
        (
            "GetSubscriptionAttributes",
            vec![("SubscriptionArn", s)],
            no,
        ),
        (
            "SetSubscriptionAttributes",
            vec![
                ("SubscriptionArn", s),
                ("AttributeName", "RawMessageDelivery"),
                ("AttributeValue", "true"),
            ],
            no,
        ),
        ("Publish", vec![("TopicArn", t), ("Message", "m")], no),
        (
            "PublishBatch",
            vec![
                ("TopicArn", t),
                ("PublishBatchRequestEntries.member.1.Id", "1"),
                ("PublishBatchRequestEntries.member.1.Message", "m"),
            ],
            no,
        ),
        (
            "PutDataProtectionPolicy",
            vec![("ResourceArn", t), ("DataProtectionPolicy", "{}")],
            no,
        ),
        ("GetDataProtectionPolicy", vec![("ResourceArn", t)], no),
    ];
    covers(
        sqslite::support::SNS_ACTION_NAMES,
        &rows.iter().map(|r| r.0).collect::<Vec<_>>(),
    );
    for (name, params, want) in &rows {
        check(&a, "sns", name, params, *want).await;
    }
    // With the topic's Policy granting the other account what a topic Policy can, each
    // operation its row checks by the topic's Policy is let through (from the tables); the
    // subscription owners' rules stay.
    let granted_actions: Vec<String> = sqslite::support::SNS_GRANTABLE
        .iter()
        .filter(|a| **a != "DeleteTopic")
        .map(|a| format!("SNS:{a}"))
        .collect();
    let policy = serde_json::json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Principal": {"AWS": format!("arn:aws:iam::{OTHER}:root")},
        "Action": granted_actions, "Resource": t}]});
    let call = a
        .sns
        .set_topic_attributes()
        .topic_arn(t)
        .attribute_name("Policy");
    call.attribute_value(policy.to_string())
        .send()
        .await
        .unwrap();
    for (name, params, want) in &rows {
        let (_, rule, iam) = sqslite::support::SNS_ACCESS
            .iter()
            .find(|(n, ..)| n == name)
            .unwrap();
        let by_policy = *rule == "Topic" && granted_actions.contains(&format!("SNS:{iam}"));
        let granted = match want {
            Want::Refused(code) if by_policy => Want::Admitted(code),
            other => *other,
        };
        check(&a, "sns", name, params, granted).await;
    }
}

// One row per action, every parameter spelled out: the table is the point.
#[allow(clippy::too_many_lines)]
#[tokio::test]
async fn every_sqs_action_on_the_owners_queue_is_refused_to_another_account_until_granted() {
    let a = two_accounts(Vec::new()).await;
    let (dlq_url, dlq) = a.queue("dlq", &serde_json::Value::Null).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq}","maxReceiveCount":1}}"#);
    let url =
        a.t.create_queue_with("src", &[("RedrivePolicy", &redrive)])
            .await;
    a.t.send(&dlq_url, "dead").await;
    let started =
        a.t.client
            .start_message_move_task()
            .source_arn(&dlq)
            .send()
            .await
            .unwrap();
    let handle = started.task_handle.unwrap();
    let (u, d) = (url.as_str(), dlq.as_str());
    let no = Want::Refused("AccessDenied");
    let rows: Vec<Row<'_>> = vec![
        ("CreateQueue", vec![("QueueName", "mine")], Want::Own),
        (
            "GetQueueUrl",
            vec![("QueueName", "src"), ("QueueOwnerAWSAccountId", OWNER)],
            no,
        ),
        ("ListQueues", vec![], Want::Own),
        ("DeleteQueue", vec![("QueueUrl", u)], no),
        ("PurgeQueue", vec![("QueueUrl", u)], no),
        (
            "GetQueueAttributes",
            vec![("QueueUrl", u), ("AttributeName.1", "All")],
            no,
        ),
        (
            "SetQueueAttributes",
            vec![
                ("QueueUrl", u),
                ("Attribute.1.Name", "DelaySeconds"),
                ("Attribute.1.Value", "1"),
            ],
            no,
        ),
        (
            "TagQueue",
            vec![("QueueUrl", u), ("Tag.1.Key", "k"), ("Tag.1.Value", "v")],
            no,
        ),
        ("UntagQueue", vec![("QueueUrl", u), ("TagKey.1", "k")], no),
        ("ListQueueTags", vec![("QueueUrl", u)], no),
        (
            "AddPermission",
            vec![
                ("QueueUrl", u),
                ("Label", "x"),
                ("AWSAccountId.1", "111111111111"),
                ("ActionName.1", "SendMessage"),
            ],
            no,
        ),
        (
            "RemovePermission",
            vec![("QueueUrl", u), ("Label", "x")],
            no,
        ),
        (
            "SendMessage",
            vec![("QueueUrl", u), ("MessageBody", "m")],
            no,
        ),
        (
            "SendMessageBatch",
            vec![
                ("QueueUrl", u),
                ("SendMessageBatchRequestEntry.1.Id", "1"),
                ("SendMessageBatchRequestEntry.1.MessageBody", "m"),
            ],
            no,
        ),
        ("ReceiveMessage", vec![("QueueUrl", u)], no),
        (
            "DeleteMessage",
            vec![("QueueUrl", u), ("ReceiptHandle", "h")],
            no,
        ),
        (
            "DeleteMessageBatch",
            vec![
                ("QueueUrl", u),
                ("DeleteMessageBatchRequestEntry.1.Id", "1"),
                ("DeleteMessageBatchRequestEntry.1.ReceiptHandle", "h"),
            ],
            no,
        ),
        (
            "ChangeMessageVisibility",
            vec![
                ("QueueUrl", u),
                ("ReceiptHandle", "h"),
                ("VisibilityTimeout", "1"),
            ],
            no,
        ),
        (
            "ChangeMessageVisibilityBatch",
            vec![
                ("QueueUrl", u),
                ("ChangeMessageVisibilityBatchRequestEntry.1.Id", "1"),
                (
                    "ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle",
                    "h",
                ),
                (
                    "ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout",
                    "1",
                ),
            ],
            no,
        ),
        (
            "ListDeadLetterSourceQueues",
            vec![("QueueUrl", &dlq_url)],
            no,
        ),
        ("StartMessageMoveTask", vec![("SourceArn", d)], no),
        ("ListMessageMoveTasks", vec![("SourceArn", d)], no),
        ("CancelMessageMoveTask", vec![("TaskHandle", &handle)], no),
    ];
    covers(
        sqslite::support::ACTION_NAMES,
        &rows.iter().map(|r| r.0).collect::<Vec<_>>(),
    );
    for (name, params, want) in &rows {
        check(&a, "sqs", name, params, *want).await;
    }
    // With both queues' Policy granting the other account every action, each action its row
    // checks against a queue is let through, but those no Policy can grant (from the tables).
    let grant = |arn: &str| {
        serde_json::json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
            "Principal": {"AWS": format!("arn:aws:iam::{OTHER}:root")},
            "Action": "sqs:*", "Resource": arn}]})
        .to_string()
    };
    for (queue, arn) in [
        (&url, a.t.attribute(&url, "QueueArn").await),
        (&dlq_url, dlq.clone()),
    ] {
        let policy = grant(&arn);
        let name = aws_sdk_sqs::types::QueueAttributeName::Policy;
        a.t.set_attribute(queue, name, &policy).await.unwrap();
    }
    for (name, params, want) in &rows {
        let (_, kind) = sqslite::support::SQS_ACCESS
            .iter()
            .find(|(n, _)| n == name)
            .unwrap();
        let owned = sqslite::support::SQS_OWNER_ONLY.contains(name);
        let granted = match want {
            Want::Refused(code) if !owned && !matches!(*kind, "Create" | "Account") => {
                Want::Admitted(code)
            }
            other => *other,
        };
        check(&a, "sqs", name, params, granted).await;
    }
}

#[tokio::test]
async fn every_lambda_operation_on_the_owners_mapping_is_refused_to_another_account() {
    let a = two_accounts(vec![function("f")]).await;
    let (_, queue) = a.queue("q", &serde_json::Value::Null).await;
    let call = a
        .lambda
        .create_event_source_mapping()
        .event_source_arn(&queue);
    let uuid = call.function_name("f").send().await.unwrap().uuid.unwrap();
    let o = &a.other_lambda;
    for name in sqslite::support::LAMBDA_OPERATION_NAMES {
        let refusal = match *name {
            "CreateEventSourceMapping" => {
                let call = o.create_event_source_mapping().event_source_arn(&queue);
                failure(&call.function_name("f").send().await.unwrap_err()).0
            }
            "GetEventSourceMapping" => {
                failure(
                    &o.get_event_source_mapping()
                        .uuid(&uuid)
                        .send()
                        .await
                        .unwrap_err(),
                )
                .0
            }
            "UpdateEventSourceMapping" => {
                let call = o.update_event_source_mapping().uuid(&uuid).enabled(false);
                failure(&call.send().await.unwrap_err()).0
            }
            "DeleteEventSourceMapping" => {
                failure(
                    &o.delete_event_source_mapping()
                        .uuid(&uuid)
                        .send()
                        .await
                        .unwrap_err(),
                )
                .0
            }
            "ListEventSourceMappings" => {
                let listed = o.list_event_source_mappings().send().await.unwrap();
                assert!(listed.event_source_mappings().is_empty());
                continue;
            }
            other => panic!("no row for {other}"),
        };
        let want = if *name == "CreateEventSourceMapping" {
            "InvalidParameterValueException"
        } else {
            "ResourceNotFoundException"
        };
        assert_eq!(refusal, want, "{name}");
    }
}

/// AssumeRole's parameters for `arn`.
fn assume<'a>(version: (&'a str, &'a str), arn: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![version, ("RoleArn", arn), ("RoleSessionName", "visitor")]
}

/// STS: what acts on the caller's own identity answers with nothing of the owner's; assuming
/// the owner's role is refused until the role's trust policy names the other account (the
/// grant a role has, declared with it).
#[tokio::test]
async fn every_sts_action_is_refused_on_the_owners_role_until_its_trust_policy_grants_it() {
    use sqslite::config::Role;
    let trust = serde_json::json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Principal": {"AWS": format!("arn:aws:iam::{OTHER}:root")},
        "Action": "sts:AssumeRole"}]});
    let roles = vec![
        Role::new("closed", OWNER),
        Role::new("open", OWNER).trusting(&trust.to_string()),
    ];
    let a = two_accounts_with(Vec::new(), roles).await;
    let version = ("Version", "2011-06-15");
    let role = |name: &str| format!("arn:aws:iam::{OWNER}:role/{name}");
    let (closed, open) = (role("closed"), role("open"));
    let rows: Vec<Row<'_>> = vec![
        ("GetCallerIdentity", vec![version], Want::Own),
        ("GetSessionToken", vec![version], Want::Own),
        (
            "AssumeRole",
            assume(version, &closed),
            Want::Refused("AccessDenied"),
        ),
    ];
    covers(
        sqslite::support::STS_ACTION_NAMES,
        &rows.iter().map(|r| r.0).collect::<Vec<_>>(),
    );
    for (name, params, want) in &rows {
        check(&a, "sts", name, params, *want).await;
    }
    check(
        &a,
        "sts",
        "AssumeRole",
        &assume(version, &open),
        Want::Admitted("AccessDenied"),
    )
    .await;
}
