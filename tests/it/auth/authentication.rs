//! Authentication through the real SDK: signatures, clock skew, presigned URLs, credentials
//! from the config file and unforgeable receipt handles (another account's access: `accounts`).

use crate::common::signed_server;
use crate::common::signing::{send_signed, sign_query};
use crate::common::{client_at, expect_code, message, TestServer, T0};
use base64::engine::general_purpose::STANDARD_NO_PAD;
use base64::Engine;
use sqslite::Config;

#[tokio::test]
async fn signed_requests_pass_and_bad_signatures_fail() {
    let s = signed_server().await;
    let url = s.create_queue("signed").await;
    s.send(&url, "hello").await;
    assert_eq!(s.counts(&url).await, (1, 0, 0));

    let wrong_secret = client_at(&s.endpoint(), "AKIDEXAMPLE", "not-the-secret", &s.clock);
    let err = expect_code(
        wrong_secret.list_queues().send().await,
        "SignatureDoesNotMatch",
    );
    assert!(
        message(&err).starts_with("The request signature we calculated does not match"),
        "{}",
        message(&err)
    );
    assert_eq!(err.raw_response().unwrap().status().as_u16(), 403);

    let unknown = client_at(&s.endpoint(), "AKIDUNKNOWN", "secret", &s.clock);
    let err = expect_code(unknown.list_queues().send().await, "InvalidClientTokenId");
    assert_eq!(
        message(&err),
        "The security token included in the request is invalid."
    );

    // The other account's key signs fine and lists its own (empty) account.
    let other = client_at(&s.endpoint(), "AKIDOTHER", "other-secret", &s.clock);
    let listed = other.list_queues().send().await.unwrap();
    assert!(listed.queue_urls().is_empty());
}

#[tokio::test]
async fn unsigned_and_stale_requests_fail() {
    let s = signed_server().await;
    let unsigned = s
        .query(&[("Action", "ListQueues"), ("Version", "2012-11-05")])
        .await;
    assert_eq!(unsigned.status, 403, "{}", unsigned.body);
    assert_eq!(
        unsigned.xml("Code").as_deref(),
        Some("MissingAuthenticationToken")
    );
    let json = s.json("ListQueues", "{}").await;
    assert_eq!(json.status, 403);
    assert_eq!(
        json.header("x-amzn-query-error"),
        Some("MissingAuthenticationToken;Sender")
    );

    // A client whose clock is 16 minutes behind the server's.
    let behind = sqslite::ManualClock::new(T0 - 16 * 60 * 1000);
    let stale = client_at(&s.endpoint(), "AKIDEXAMPLE", "secret", &behind);
    let err = expect_code(stale.list_queues().send().await, "SignatureDoesNotMatch");
    assert_eq!(
        message(&err),
        "Signature expired: 20231114T215720Z is now earlier than 20231114T215820Z (20231114T221320Z - 15 min.)"
    );
    let ahead = sqslite::ManualClock::new(T0 + 16 * 60 * 1000);
    let early = client_at(&s.endpoint(), "AKIDEXAMPLE", "secret", &ahead);
    let err = early.list_queues().send().await.unwrap_err();
    assert!(
        message(&err).starts_with("Signature not yet current: 20231114T222920Z"),
        "{}",
        message(&err)
    );
    // Within the 15 minutes either way, a client is accepted.
    for skew in [T0 - 14 * 60 * 1000, T0 + 14 * 60 * 1000] {
        let near = sqslite::ManualClock::new(skew);
        let client = client_at(&s.endpoint(), "AKIDEXAMPLE", "secret", &near);
        client.list_queues().send().await.unwrap();
    }
}

/// A consumer that knows the handle layout builds another consumer's handle from its own
/// (the message slots are a counter); the MAC makes that worthless and the other consumer's
/// message stays in flight.
#[tokio::test]
async fn forged_receipt_handles_are_rejected() {
    let s = TestServer::start().await;
    let url = s.create_queue("forge").await;
    s.send(&url, "mine").await;
    s.send(&url, "someone else's").await;
    let mine = s.receive(&url).await.messages()[0]
        .receipt_handle()
        .unwrap()
        .to_owned();
    let theirs = s.receive(&url).await.messages()[0]
        .receipt_handle()
        .unwrap()
        .to_owned();
    let bytes = STANDARD_NO_PAD.decode(&mine).unwrap();
    let seq = u64::from_be_bytes(bytes[9..17].try_into().unwrap());
    let mut forgeries: Vec<String> = [seq.wrapping_sub(1), seq + 1]
        .iter()
        .map(|guess| {
            let mut forged = bytes.clone();
            forged[9..17].copy_from_slice(&guess.to_be_bytes());
            STANDARD_NO_PAD.encode(&forged)
        })
        .collect();
    forgeries.push(theirs[..theirs.len() - 2].to_owned());
    for bad in &forgeries {
        let err = expect_code(
            s.client
                .delete_message()
                .queue_url(&url)
                .receipt_handle(bad)
                .send()
                .await,
            "ReceiptHandleIsInvalid",
        );
        assert_eq!(
            message(&err),
            format!("The input receipt handle \"{bad}\" is not a valid receipt handle.")
        );
        expect_code(
            s.client
                .change_message_visibility()
                .queue_url(&url)
                .receipt_handle(bad)
                .visibility_timeout(0)
                .send()
                .await,
            "ReceiptHandleIsInvalid",
        );
    }
    assert_eq!(s.counts(&url).await, (0, 2, 0));
    s.delete(&url, &mine).await;
    s.delete(&url, &theirs).await;
    assert_eq!(s.counts(&url).await, (0, 0, 0));
}

#[tokio::test]
async fn presigned_query_urls_work_until_they_expire() {
    let s = signed_server().await;
    let url = s.create_queue("presigned").await;
    let list = "/?Action=ListQueues&Version=2012-11-05&QueueNamePrefix=pre";
    let (path, headers) = sign_query(&s, "GET", list, "", "secret", Some(60));
    let ok = send_signed(&s, "GET", &path, &headers, "").await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.xml("QueueUrl").as_deref(), Some(url.as_str()));

    // Another parameter under the same signature does not verify.
    let tampered = path.replace("QueueNamePrefix=pre", "QueueNamePrefix=p");
    let bad = send_signed(&s, "GET", &tampered, &headers, "").await;
    assert_eq!(
        bad.xml("Code").as_deref(),
        Some("SignatureDoesNotMatch"),
        "{}",
        bad.body
    );
    assert_eq!(bad.status, 403);

    s.advance(61);
    let expired = send_signed(&s, "GET", &path, &headers, "").await;
    assert_eq!(expired.status, 400, "{}", expired.body);
    assert_eq!(expired.xml("Code").as_deref(), Some("RequestExpired"));
    assert_eq!(
        expired.xml("Message").as_deref(),
        Some("Request has expired.")
    );
}

#[tokio::test]
async fn signed_query_posts_cover_the_body() {
    let s = signed_server().await;
    let url = s.create_queue("posted").await;
    let path = url.trim_start_matches(&s.endpoint()).to_owned();
    let body = "Action=SendMessage&Version=2012-11-05&MessageBody=signed";
    let (path, headers) = sign_query(&s, "POST", &path, body, "secret", None);
    let ok = send_signed(&s, "POST", &path, &headers, body).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    let swapped = body.replace("signed", "swapped");
    let bad = send_signed(&s, "POST", &path, &headers, &swapped).await;
    assert_eq!(
        bad.xml("Code").as_deref(),
        Some("SignatureDoesNotMatch"),
        "{}",
        bad.body
    );
    assert_eq!(s.counts(&url).await, (1, 0, 0));
    let (path, headers) = sign_query(&s, "POST", &path, body, "wrong", None);
    let bad = send_signed(&s, "POST", &path, &headers, body).await;
    assert_eq!(
        bad.xml("Code").as_deref(),
        Some("SignatureDoesNotMatch"),
        "{}",
        bad.body
    );
}

#[test]
fn credentials_come_from_the_config_file() {
    let text = r#"
[[credentials]]
access_key_id = "AKIDEXAMPLE"
secret_access_key = "secret"
account_id = "000000000000"

[[credentials]]
access_key_id = "AKIDALICE"
secret_access_key = "alice-secret"
account_id = "111111111111"
user = "alice"
"#;
    let config = Config::from_text("sqslite.toml", text).unwrap().config;
    assert_eq!(config.credentials.len(), 2);
    assert_eq!(
        config.credentials[1].principal_arn(),
        "arn:aws:iam::111111111111:user/alice"
    );
    assert!(!format!("{:?}", config.credentials[1]).contains("alice-secret"));
    let round_trip = Config::from_text("x.toml", &config.to_toml_with_secrets())
        .unwrap()
        .config;
    assert_eq!(round_trip.credentials, config.credentials);
    assert!(!config.to_toml().contains("alice-secret"));
    for (bad, says) in [
        (
            "access_key_id = \"A\"\nsecret_access_key = \"s\"\naccount_id = \"12\"",
            "12 digits",
        ),
        (
            "access_key_id = \"A\"\naccount_id = \"000000000000\"",
            "secret_access_key",
        ),
        ("access_key = \"A\"", "unknown"),
    ] {
        let err = Config::from_text("x.toml", &format!("[[credentials]]\n{bad}\n")).unwrap_err();
        assert!(err.to_string().contains(says), "{err}");
    }
}
