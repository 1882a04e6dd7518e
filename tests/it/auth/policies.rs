//! Queue policies with `[[credentials]]`: validation as SQS validates them, conditions, and
//! writes into another account's queue (dead-letter queues, move tasks) only where its Policy
//! allows them.

use crate::common::{
    client_at, code, expect_code, expect_code_for, message, signed_server, TestServer, OTHER, OWNER,
};
use aws_sdk_sqs::error::SdkError;
use aws_sdk_sqs::operation::create_queue::CreateQueueError;
use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client;

fn other(s: &TestServer) -> Client {
    client_at(&s.endpoint(), "AKIDOTHER", "other-secret", &s.clock)
}

fn arn(account: &str, name: &str) -> String {
    format!("arn:aws:sqs:us-east-1:{account}:{name}")
}

fn doc(statements: &str) -> String {
    format!(r#"{{"Version":"2012-10-17","Statement":[{statements}]}}"#)
}

async fn set_policy(client: &Client, url: &str, policy: &str) -> Result<(), String> {
    client
        .set_queue_attributes()
        .queue_url(url)
        .attributes(QueueAttributeName::Policy, policy)
        .send()
        .await
        .map(|_| ())
        .map_err(|e| format!("{}: {}", code(&e), message(&e)))
}

/// CreateQueue by `client`, with a RedrivePolicy naming `dlq_arn` when given.
async fn create_as(
    client: &Client,
    name: &str,
    dlq_arn: Option<&str>,
) -> Result<String, SdkError<CreateQueueError, aws_sdk_sqs::config::http::HttpResponse>> {
    let mut req = client.create_queue().queue_name(name);
    if let Some(dlq) = dlq_arn {
        let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq}","maxReceiveCount":1}}"#);
        req = req.attributes(QueueAttributeName::RedrivePolicy, redrive);
    }
    req.send()
        .await
        .map(|out| out.queue_url.unwrap_or_default())
}

async fn send_as(client: &Client, url: &str, body: &str) -> Result<(), String> {
    client
        .send_message()
        .queue_url(url)
        .message_body(body)
        .send()
        .await
        .map(|_| ())
        .map_err(|e| code(&e))
}

/// AddPermission writes the document SQS writes [aws-recorded]: Version 2008-10-17 and the
/// queue's `/SQSDefaultPolicy` Id.
#[tokio::test]
async fn add_permission_writes_sqs_default_policy() {
    let s = signed_server().await;
    let url = s.create_queue("granted").await;
    s.client
        .add_permission()
        .queue_url(&url)
        .label("send")
        .aws_account_ids(OTHER)
        .actions("SendMessage")
        .send()
        .await
        .unwrap();
    let policy: serde_json::Value =
        serde_json::from_str(&s.attribute(&url, "Policy").await).unwrap();
    assert_eq!(policy["Version"], "2008-10-17");
    assert_eq!(
        policy["Id"],
        format!("{}/SQSDefaultPolicy", arn(OWNER, "granted"))
    );
    send_as(&other(&s), &url, "granted").await.unwrap();
}

/// SQS refuses a document it cannot use [aws-recorded message]; sqslite used to store any
/// string, so a typo silently granted or dropped everything.
#[tokio::test]
async fn invalid_policies_are_refused() {
    let s = signed_server().await;
    let url = s.create_queue("strict-policy").await;
    let invalid = "InvalidAttributeValue: Invalid value for the parameter Policy.";
    let statement = |extra: &str| {
        doc(&format!(
            r#"{{"Effect":"Deny","Principal":"*","Resource":"*"{extra}}}"#
        ))
    };
    let many = vec![r#"{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage"}"#; 21];
    let big = doc(&format!(
        r#"{{"Sid":"{}","Effect":"Allow","Principal":"*","Action":"sqs:SendMessage"}}"#,
        "x".repeat(8200)
    ));
    for bad in [
        "not json".to_owned(),
        r#"{"Version":"2012-10-17"}"#.to_owned(),
        statement(r#","Actions":"sqs:SendMessage""#),
        statement(""),
        statement(r#","Action":"sqs:SendMessage","Effect2":"Deny""#),
        doc(r#"{"Effect":"Maybe","Principal":"*","Action":"sqs:*"}"#),
        statement(r#","Action":"sqs:*","Condition":"aws:SecureTransport""#),
        doc(&many.join(",")),
        big,
    ] {
        assert_eq!(
            set_policy(&s.client, &url, &bad).await,
            Err(invalid.to_owned()),
            "{bad}"
        );
    }
    assert!(s.attribute(&url, "Policy").await.is_empty());
    let fine = statement(r#","Action":"sqs:PurgeQueue""#);
    set_policy(&s.client, &url, &fine).await.unwrap();
    expect_code(
        s.client.purge_queue().queue_url(&url).send().await,
        "AccessDenied",
    );
}

/// A Deny with a Condition used to be skipped; plain HTTP is not secure transport.
#[tokio::test]
async fn a_conditional_deny_applies() {
    let s = signed_server().await;
    let url = s.create_queue("tls-only").await;
    let deny = doc(
        r#"{"Effect":"Deny","Principal":"*","Action":"sqs:SendMessage","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}"#,
    );
    set_policy(&s.client, &url, &deny).await.unwrap();
    assert_eq!(
        send_as(&s.client, &url, "in the clear").await,
        Err("AccessDenied".into())
    );
    s.receive(&url).await;
}

/// Conditions, each with whether the Allow it guards lets the other account send.
const CONDITIONS: [(&str, bool); 14] = [
    (r#"{"IpAddress":{"aws:SourceIp":"127.0.0.0/8"}}"#, true),
    (r#"{"IpAddress":{"aws:SourceIp":["10.0.0.0/8"]}}"#, false),
    (r#"{"NotIpAddress":{"aws:SourceIp":"10.0.0.0/8"}}"#, true),
    (
        r#"{"StringEquals":{"aws:PrincipalAccount":"111111111111"}}"#,
        true,
    ),
    (
        r#"{"StringEquals":{"aws:principalaccount":"999999999999"}}"#,
        false,
    ),
    (
        r#"{"ArnLike":{"aws:PrincipalArn":"arn:aws:iam::111111111111:*"}}"#,
        true,
    ),
    (
        r#"{"DateLessThan":{"aws:CurrentTime":"2099-01-01T00:00:00Z"}}"#,
        true,
    ),
    (
        r#"{"DateGreaterThan":{"aws:CurrentTime":"2099-01-01T00:00:00Z"}}"#,
        false,
    ),
    (
        r#"{"ArnEquals":{"aws:SourceArn":"arn:aws:sns:us-east-1:1:t"}}"#,
        false,
    ),
    (
        r#"{"ArnEqualsIfExists":{"aws:SourceArn":"arn:aws:sns:us-east-1:1:t"}}"#,
        true,
    ),
    (r#"{"Null":{"aws:SourceArn":"true"}}"#, true),
    (
        r#"{"ForAnyValue:StringLike":{"aws:PrincipalArn":["x","*:root"]}}"#,
        true,
    ),
    (r#"{"StringEquals":{"aws:UnheardOf":"x"}}"#, false),
    (
        r#"{"StringSoundsLike":{"aws:PrincipalAccount":"111111111111"}}"#,
        false,
    ),
];

/// Allows with conditions apply where the condition holds, and only there; a key sqslite does
/// not evaluate fails closed: its Allow never applies, its Deny always does.
#[tokio::test]
async fn conditions_decide_whether_a_statement_applies() {
    let s = signed_server().await;
    let url = s.create_queue("conditional").await;
    let client = other(&s);
    let allow_if = |condition: &str| {
        doc(&format!(
            r#"{{"Effect":"Allow","Principal":{{"AWS":"{OTHER}"}},"Action":"sqs:SendMessage","Resource":"*","Condition":{condition}}}"#
        ))
    };
    for (condition, allowed) in CONDITIONS {
        set_policy(&s.client, &url, &allow_if(condition))
            .await
            .unwrap();
        let sent = send_as(&client, &url, condition).await;
        assert_eq!(sent.is_ok(), allowed, "{condition}: {sent:?}");
    }
    let deny_unknown = doc(
        r#"{"Effect":"Deny","Principal":"*","Action":"sqs:SendMessage","Condition":{"StringEquals":{"aws:UnheardOf":"x"}}}"#,
    );
    set_policy(&s.client, &url, &deny_unknown).await.unwrap();
    assert_eq!(
        send_as(&s.client, &url, "owner").await,
        Err("AccessDenied".into())
    );
}

/// A queue may not name another account's (or region's) queue as its dead-letter queue: the
/// SDK guides require the same account and region, and RedriveAllowPolicy's `allowAll` admits
/// only sources "in this AWS account in the same Region". Before, the other account's queue
/// received the messages whatever its Policy said, and listed the attacker's queue as a source.
#[tokio::test]
async fn a_dead_letter_queue_in_another_account_is_refused() {
    let s = signed_server().await;
    let victim = s.create_queue("victim-dlq").await;
    let deny_all =
        doc(r#"{"Effect":"Deny","Principal":"*","Action":"sqs:SendMessage","Resource":"*"}"#);
    set_policy(&s.client, &victim, &deny_all).await.unwrap();
    let attacker = other(&s);
    let victim_arn = arn(OWNER, "victim-dlq");
    let err = expect_code_for(
        create_as(&attacker, "attacker-src", Some(&victim_arn)).await,
        "InvalidParameterValue",
        "a cross-account dead-letter queue",
    );
    assert!(
        message(&err).ends_with(
            "Reason: Dead-letter queue must be in the same account and region as the source."
        ),
        "{}",
        message(&err)
    );
    let src = create_as(&attacker, "attacker-src", None).await.unwrap();
    let redrive = format!(r#"{{"deadLetterTargetArn":"{victim_arn}","maxReceiveCount":1}}"#);
    expect_code(
        attacker
            .set_queue_attributes()
            .queue_url(&src)
            .attributes(QueueAttributeName::RedrivePolicy, &redrive)
            .send()
            .await,
        "InvalidParameterValue",
    );
    let sources = s
        .client
        .list_dead_letter_source_queues()
        .queue_url(&victim)
        .send()
        .await
        .unwrap();
    assert!(sources.queue_urls().is_empty());
    assert_eq!(s.counts(&victim).await, (0, 0, 0));
}

/// The other account's dead-letter queue, with one dead-lettered message in it.
async fn attacker_dlq(attacker: &Client) -> String {
    let dlq = create_as(attacker, "attacker-dlq", None).await.unwrap();
    let dlq_arn = arn(OTHER, "attacker-dlq");
    let src = create_as(attacker, "attacker-src", Some(&dlq_arn))
        .await
        .unwrap();
    send_as(attacker, &src, "poison").await.unwrap();
    for _ in 0..2 {
        attacker
            .receive_message()
            .queue_url(&src)
            .visibility_timeout(0)
            .send()
            .await
            .unwrap();
    }
    dlq
}

/// StartMessageMoveTask needs SendMessage on its destination as well as the move actions on
/// its source (SQS's redrive permissions); another account's destination decides by its Policy,
/// with the source queue as aws:SourceArn.
#[tokio::test]
async fn a_move_task_needs_permission_on_its_destination() {
    let s = signed_server().await;
    let victim = s.create_queue("victim").await;
    let attacker = other(&s);
    attacker_dlq(&attacker).await;
    let start = || {
        attacker
            .start_message_move_task()
            .source_arn(arn(OTHER, "attacker-dlq"))
            .destination_arn(arn(OWNER, "victim"))
            .send()
    };
    let err = expect_code_for(
        start().await,
        "AccessDenied",
        "a move into another account's queue",
    );
    assert!(
        message(&err).contains("sqs:sendmessage"),
        "{}",
        message(&err)
    );
    assert_eq!(s.counts(&victim).await, (0, 0, 0));

    let allow_from_dlq = doc(&format!(
        r#"{{"Effect":"Allow","Principal":{{"AWS":"{OTHER}"}},"Action":"sqs:SendMessage","Resource":"*","Condition":{{"ArnEquals":{{"aws:SourceArn":"{}"}}}}}}"#,
        arn(OTHER, "attacker-dlq")
    ));
    set_policy(&s.client, &victim, &allow_from_dlq)
        .await
        .unwrap();
    // Direct sends are not from the dead-letter queue: still refused.
    assert_eq!(
        send_as(&attacker, &victim, "direct").await,
        Err("AccessDenied".into())
    );
    start().await.unwrap();
    assert_eq!(s.counts(&victim).await, (1, 0, 0));
}

/// Each of a task's sends is judged when it is made: a Deny put on the destination while the
/// task runs stops it (FAILED, AccessDenied), and what was moved before stays moved.
#[tokio::test]
async fn a_deny_on_the_destination_stops_a_running_task() {
    let s = signed_server().await;
    let dlq = create_as(&s.client, "own-dlq", None).await.unwrap();
    let dlq_arn = arn(OWNER, "own-dlq");
    create_as(&s.client, "own-src", Some(&dlq_arn))
        .await
        .unwrap();
    let dest = s.create_queue("own-dest").await;
    for i in 0..3 {
        s.send(&dlq, &format!("parked {i}")).await;
    }
    s.client
        .start_message_move_task()
        .source_arn(&dlq_arn)
        .destination_arn(arn(OWNER, "own-dest"))
        .max_number_of_messages_per_second(1)
        .send()
        .await
        .unwrap();
    assert_eq!(s.counts(&dest).await, (1, 0, 0));
    let deny = doc(&format!(
        r#"{{"Effect":"Deny","Principal":"*","Action":"sqs:SendMessage","Condition":{{"ArnEquals":{{"aws:SourceArn":"{dlq_arn}"}}}}}}"#
    ));
    set_policy(&s.client, &dest, &deny).await.unwrap();
    s.advance(5);
    let tasks = s
        .client
        .list_message_move_tasks()
        .source_arn(&dlq_arn)
        .send()
        .await
        .unwrap();
    let task = &tasks.results()[0];
    assert_eq!(task.status(), Some("FAILED"));
    assert_eq!(task.failure_reason(), Some("AccessDenied"));
    assert_eq!(s.counts(&dest).await, (1, 0, 0));
    assert_eq!(s.counts(&dlq).await, (2, 0, 0));
}
