//! Queue policies with `[[credentials]]`: validation as SQS validates them, and conditions.

mod common;

use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client;
use common::{client_at, code, message, signed_server, TestServer, OTHER, OWNER};

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
    let err = s.client.purge_queue().queue_url(&url).send().await;
    assert_eq!(code(&err.unwrap_err()), "AccessDenied");
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
    let cases = [
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
    for (condition, allowed) in cases {
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
