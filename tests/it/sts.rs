//! STS on the shared port, driven by the real aws-sdk-sts: who each kind of caller is, roles
//! assumed within and across accounts, and the temporary keys every service then accepts
//! (and refuses once expired or forged).

use aws_sdk_sqs::types::MessageSystemAttributeName;
use serde_json::json;
use sqslite::config::{Credential, Role};
use sqslite::Config;

use crate::common::{
    client_with_token, expect_code, message, sts_client_with, TestServer, OTHER, OWNER, T0,
};

/// OWNER's key (`AKIDEXAMPLE`, the default client's) as IAM user `dev`, OTHER's
/// (`AKIDOTHER`) as its root; the given roles.
async fn server(roles: Vec<Role>) -> TestServer {
    let mut dev = Credential::new("AKIDEXAMPLE", "secret", OWNER);
    dev.user = Some("dev".into());
    let mut config = Config::ephemeral()
        .with_credential(dev)
        .with_credential(Credential::new("AKIDOTHER", "other-secret", OTHER));
    config.roles = roles;
    TestServer::start_with(config).await
}

/// An STS client signing with a long-term key.
fn sts(t: &TestServer, key: &str, secret: &str) -> aws_sdk_sts::Client {
    sts_client_with(&t.endpoint(), (key, secret, None), &t.clock)
}

/// The keys of an STS answer.
struct Keys {
    id: String,
    secret: String,
    token: String,
    expires: i64,
}

impl Keys {
    fn of(c: &aws_sdk_sts::types::Credentials) -> Self {
        Keys {
            id: c.access_key_id().to_owned(),
            secret: c.secret_access_key().to_owned(),
            token: c.session_token().to_owned(),
            expires: c.expiration().secs(),
        }
    }

    fn sqs(&self, t: &TestServer) -> aws_sdk_sqs::Client {
        client_with_token(
            &t.endpoint(),
            (&self.id, &self.secret, &self.token),
            &t.clock,
        )
    }

    fn sts(&self, t: &TestServer) -> aws_sdk_sts::Client {
        let keys = (
            self.id.as_str(),
            self.secret.as_str(),
            Some(self.token.as_str()),
        );
        sts_client_with(&t.endpoint(), keys, &t.clock)
    }
}

/// `role` of `account` assumed by the caller of `client` for `seconds` (the default hour
/// when `None`).
async fn assume(
    client: &aws_sdk_sts::Client,
    (account, role): (&str, &str),
    seconds: Option<i32>,
) -> Result<
    aws_sdk_sts::operation::assume_role::AssumeRoleOutput,
    aws_sdk_sts::error::SdkError<aws_sdk_sts::operation::assume_role::AssumeRoleError>,
> {
    let call = client
        .assume_role()
        .role_arn(format!("arn:aws:iam::{account}:role/{role}"));
    call.role_session_name("run-1")
        .set_duration_seconds(seconds)
        .send()
        .await
}

#[tokio::test]
async fn get_caller_identity_reads_each_kind_of_caller() {
    let t = server(vec![]).await;
    let me = sts(&t, "AKIDEXAMPLE", "secret")
        .get_caller_identity()
        .send()
        .await
        .unwrap();
    assert_eq!(me.account(), Some(OWNER));
    assert_eq!(me.arn(), Some("arn:aws:iam::000000000000:user/dev"));
    let user_id = me.user_id().unwrap();
    assert!(
        user_id.starts_with("AIDA") && user_id.len() == 21,
        "{user_id}"
    );
    // The one reading of the caller: its messages say the same.
    let url = t.create_queue("mine").await;
    t.send(&url, "hi").await;
    let got = t.client.receive_message().queue_url(&url);
    let got = got.message_system_attribute_names(MessageSystemAttributeName::SenderId);
    let messages = got.send().await.unwrap().messages.unwrap();
    let attributes = messages[0].attributes().unwrap();
    assert_eq!(attributes[&MessageSystemAttributeName::SenderId], user_id);
    let root = sts(&t, "AKIDOTHER", "other-secret")
        .get_caller_identity()
        .send();
    let root = root.await.unwrap();
    assert_eq!(root.arn(), Some("arn:aws:iam::111111111111:root"));
    assert_eq!(root.user_id(), Some(OTHER));
    let unknown = sts(&t, "AKIDNOBODY", "x")
        .get_caller_identity()
        .send()
        .await;
    expect_code(unknown, "InvalidClientTokenId");
    let unsigned = t
        .query(&[("Action", "GetCallerIdentity"), ("Version", "2011-06-15")])
        .await;
    assert_eq!(unsigned.status, 403);
    assert_eq!(
        unsigned.xml("Code").as_deref(),
        Some("MissingAuthenticationToken")
    );
    assert!(unsigned
        .body
        .contains("https://sts.amazonaws.com/doc/2011-06-15/"));
}

#[tokio::test]
async fn without_credentials_a_key_is_a_user_of_its_account() {
    let t = TestServer::start().await;
    let me = sts(&t, "AKIDEXAMPLE", "secret")
        .get_caller_identity()
        .send()
        .await
        .unwrap();
    assert_eq!(me.arn(), Some("arn:aws:iam::000000000000:user/AKIDEXAMPLE"));
    assert_eq!(me.account(), Some(OWNER));
    assert!(me.user_id().unwrap().starts_with("AIDA"));
    let numbered = sts(&t, "222222222222", "x")
        .get_caller_identity()
        .send()
        .await;
    assert_eq!(numbered.unwrap().account(), Some("222222222222"));
    // Without credentials nothing is verified: any well-formed role may be assumed.
    let client = sts(&t, "AKIDEXAMPLE", "secret");
    let out = assume(&client, ("333333333333", "any"), Some(43_200))
        .await
        .unwrap();
    let user = out.assumed_role_user().unwrap();
    assert_eq!(
        user.arn(),
        "arn:aws:sts::333333333333:assumed-role/any/run-1"
    );
    // Unverified, its keys still act in the role's account.
    let sqs = Keys::of(out.credentials().unwrap()).sqs(&t);
    let url = sqs.create_queue().queue_name("roles").send().await.unwrap();
    assert!(url.queue_url.unwrap().ends_with("/333333333333/roles"));
}

#[tokio::test]
async fn an_assumed_roles_keys_act_in_its_account() {
    let t = server(vec![Role::new("worker", OTHER)]).await;
    let client = sts(&t, "AKIDOTHER", "other-secret");
    let out = assume(&client, (OTHER, "worker"), None).await.unwrap();
    let user = out.assumed_role_user().unwrap();
    assert_eq!(
        user.arn(),
        "arn:aws:sts::111111111111:assumed-role/worker/run-1"
    );
    let role_id = user.assumed_role_id();
    assert!(
        role_id.starts_with("AROA") && role_id.ends_with(":run-1"),
        "{role_id}"
    );
    let keys = Keys::of(out.credentials().unwrap());
    assert!(
        keys.id.starts_with("ASIA") && keys.id.len() == 20,
        "{}",
        keys.id
    );
    assert_eq!(keys.expires, (T0 / 1000 + 3600) as i64);
    let who = keys.sts(&t).get_caller_identity().send().await.unwrap();
    assert_eq!(who.arn(), Some(user.arn()));
    assert_eq!((who.account(), who.user_id()), (Some(OTHER), Some(role_id)));
    let sqs = keys.sqs(&t);
    let url = sqs.create_queue().queue_name("jobs").send().await.unwrap();
    let url = url.queue_url.unwrap();
    assert!(url.ends_with("/111111111111/jobs"), "{url}");
    sqs.send_message()
        .queue_url(&url)
        .message_body("from the role")
        .send()
        .await
        .unwrap();
    let got = sqs.receive_message().queue_url(&url);
    let got = got.message_system_attribute_names(MessageSystemAttributeName::SenderId);
    let messages = got.send().await.unwrap().messages.unwrap();
    assert_eq!(messages[0].body(), Some("from the role"));
    assert_eq!(
        messages[0].attributes().unwrap()[&MessageSystemAttributeName::SenderId],
        role_id
    );
}

#[tokio::test]
async fn a_queue_policy_naming_the_role_admits_its_sessions() {
    let t = server(vec![Role::new("reader", OTHER)]).await;
    let url = t.create_queue("shared").await;
    let arn = t.attribute(&url, "QueueArn").await;
    let out = assume(
        &sts(&t, "AKIDOTHER", "other-secret"),
        (OTHER, "reader"),
        None,
    )
    .await;
    let sqs = Keys::of(out.unwrap().credentials().unwrap()).sqs(&t);
    let send = || sqs.send_message().queue_url(&url).message_body("x").send();
    expect_code(send().await, "AccessDenied");
    let policy = json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Principal": {"AWS": format!("arn:aws:iam::{OTHER}:role/reader")},
        "Action": "sqs:SendMessage", "Resource": arn}]});
    let policy_name = aws_sdk_sqs::types::QueueAttributeName::Policy;
    let set = t
        .set_attribute(&url, policy_name, &policy.to_string())
        .await;
    set.unwrap();
    send().await.unwrap();
    // The role's account's other principals are not the role.
    let root = crate::common::client_at(&t.endpoint(), "AKIDOTHER", "other-secret", &t.clock);
    let by_root = root
        .send_message()
        .queue_url(&url)
        .message_body("x")
        .send()
        .await;
    expect_code(by_root, "AccessDenied");
}

#[tokio::test]
async fn keys_expire_on_the_servers_clock_and_forged_tokens_are_refused() {
    let t = server(vec![Role::new("worker", OTHER)]).await;
    let out = assume(
        &sts(&t, "AKIDOTHER", "other-secret"),
        (OTHER, "worker"),
        Some(900),
    )
    .await;
    let keys = Keys::of(out.unwrap().credentials().unwrap());
    assert_eq!(keys.expires, (T0 / 1000 + 900) as i64);
    keys.sqs(&t).list_queues().send().await.unwrap();
    let forged = Keys {
        id: keys.id.clone(),
        secret: keys.secret.clone(),
        token: "forged".into(),
        expires: keys.expires,
    };
    expect_code(
        forged.sqs(&t).list_queues().send().await,
        "InvalidClientTokenId",
    );
    t.advance(900);
    let err = expect_code(keys.sqs(&t).list_queues().send().await, "ExpiredToken");
    assert_eq!(
        message(&err),
        "The security token included in the request is expired"
    );
    assert_eq!(err.raw_response().map(|r| r.status().as_u16()), Some(403));
    expect_code(
        keys.sts(&t).get_caller_identity().send().await,
        "ExpiredToken",
    );
    // A client whose own clock stayed at the issuance (a real SDK beside a manual server
    // clock moved on) is told the token expired, not that its signature's date is stale.
    let lagging = sqslite::ManualClock::new(T0);
    let keys_then = (keys.id.as_str(), keys.secret.as_str(), keys.token.as_str());
    let client = crate::common::client_with_token(&t.endpoint(), keys_then, &lagging);
    t.advance(1000);
    expect_code(client.list_queues().send().await, "ExpiredToken");
}

#[tokio::test]
async fn another_account_assumes_a_role_only_as_its_trust_policy_allows() {
    let trust = json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Principal": {"AWS": format!("arn:aws:iam::{OTHER}:root")},
        "Action": "sts:AssumeRole"}]});
    let roles = vec![
        Role::new("closed", OWNER),
        Role::new("open", OWNER).trusting(&trust.to_string()),
    ];
    let t = server(roles).await;
    let other = sts(&t, "AKIDOTHER", "other-secret");
    let err = expect_code(
        assume(&other, (OWNER, "closed"), None).await,
        "AccessDenied",
    );
    assert_eq!(
        message(&err),
        "User: arn:aws:iam::111111111111:root is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::000000000000:role/closed"
    );
    expect_code(
        assume(&other, (OWNER, "undeclared"), None).await,
        "AccessDenied",
    );
    let out = assume(&other, (OWNER, "open"), None).await.unwrap();
    let sqs = Keys::of(out.credentials().unwrap()).sqs(&t);
    let url = sqs
        .create_queue()
        .queue_name("theirs")
        .send()
        .await
        .unwrap()
        .queue_url;
    assert!(url.unwrap().ends_with("/000000000000/theirs"));
    // Its own account's role needs no trust policy.
    let owner = sts(&t, "AKIDEXAMPLE", "secret");
    assume(&owner, (OWNER, "closed"), None).await.unwrap();
    let too_long = assume(&owner, (OWNER, "closed"), Some(7200)).await;
    let err = expect_code(too_long, "ValidationError");
    assert_eq!(
        message(&err),
        "The requested DurationSeconds exceeds the MaxSessionDuration set for this role."
    );
    let bad_name = owner
        .assume_role()
        .role_arn("arn:aws:iam::000000000000:role/closed");
    let bad_name = bad_name.role_session_name("a/b").send().await;
    let err = expect_code(bad_name, "ValidationError");
    assert!(message(&err).contains("at 'roleSessionName' failed to satisfy constraint"));
}

#[tokio::test]
async fn get_session_token_keys_act_as_their_caller() {
    let t = server(vec![]).await;
    let out = sts(&t, "AKIDEXAMPLE", "secret")
        .get_session_token()
        .send()
        .await
        .unwrap();
    let keys = Keys::of(out.credentials().unwrap());
    assert_eq!(keys.expires, (T0 / 1000 + 43_200) as i64);
    let who = keys.sts(&t).get_caller_identity().send().await.unwrap();
    assert_eq!(who.arn(), Some("arn:aws:iam::000000000000:user/dev"));
    let url = keys
        .sqs(&t)
        .create_queue()
        .queue_name("own")
        .send()
        .await
        .unwrap();
    assert!(url.queue_url.unwrap().ends_with("/000000000000/own"));
    let again = keys.sts(&t).get_session_token().send().await;
    let err = expect_code(again, "AccessDenied");
    assert_eq!(
        message(&err),
        "Cannot call GetSessionToken with session credentials"
    );
    let root = sts(&t, "AKIDOTHER", "other-secret").get_session_token();
    let root = root.duration_seconds(7200).send().await.unwrap();
    assert_eq!(
        root.credentials().unwrap().expiration().secs(),
        (T0 / 1000 + 3600) as i64
    );
}
