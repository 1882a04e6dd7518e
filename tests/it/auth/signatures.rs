//! Signatures that must not be bent (issue 22, item 4): one reading of the Authorization header
//! and of a presigned query for authentication, region, account and SenderId; the headers that
//! decide what a request does are signed; `UNSIGNED-PAYLOAD` only in presigned URLs.

use crate::common::signing::Signer;
use crate::common::{client_at, TestServer};
use crate::common::{signed_server, OTHER, OWNER};
use sqslite::config::Credential;
use sqslite::Config;

const JSON: (&str, &str) = ("content-type", "application/x-amz-json-1.0");

fn target(op: &str) -> String {
    format!("AmazonSQS.{op}")
}

/// A JSON request signed by `signer` over host, x-amz-date, content-type and x-amz-target.
fn json_request(
    s: &TestServer,
    signer: Signer<'_>,
    op: &str,
    body: &str,
) -> crate::common::signing::Signed {
    let t = target(op);
    signer.sign(s, "POST", "/", &[JSON, ("x-amz-target", t.as_str())], body)
}

#[tokio::test]
async fn a_second_credential_part_is_refused_and_never_read() {
    let s = signed_server().await;
    let other = Signer {
        key: "AKIDOTHER",
        secret: "other-secret",
        ..Signer::default()
    };
    // Signed by the other key for us-east-1; a part naming the owner's key in eu-west-1 first.
    let mut req = json_request(&s, other, "CreateQueue", r#"{"QueueName":"smuggled"}"#);
    let auth = req.header("authorization").unwrap().to_owned();
    let smuggled = auth.replacen(
        "AWS4-HMAC-SHA256 ",
        "AWS4-HMAC-SHA256 X=Credential=AKIDEXAMPLE/20231114/eu-west-1/sqs/aws4_request, ",
        1,
    );
    req.set("authorization", &smuggled);
    let r = req.send(&s, "POST", r#"{"QueueName":"smuggled"}"#).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["__type"], "com.amazonaws.sqs#IncompleteSignature");
    assert!(
        r.json()["message"].as_str().unwrap().contains("'X'"),
        "{}",
        r.body
    );

    // Twice the same part: refused too.
    let mut req = json_request(&s, other, "ListQueues", "{}");
    let auth = req.header("authorization").unwrap().to_owned();
    let sig = auth.rsplit("Signature=").next().unwrap().to_owned();
    req.set("authorization", &format!("{auth}, Signature={sig}"));
    let r = req.send(&s, "POST", "{}").await;
    assert_eq!(r.status, 400, "{}", r.body);

    // The untouched request creates the queue in the signed region and account.
    let req = json_request(&s, other, "CreateQueue", r#"{"QueueName":"plain"}"#);
    let r = req.send(&s, "POST", r#"{"QueueName":"plain"}"#).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let url = r.json()["QueueUrl"].as_str().unwrap().to_owned();
    let owner_view = client_at(&s.endpoint(), "AKIDOTHER", "other-secret", &s.clock);
    let arn = owner_view
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(aws_sdk_sqs::types::QueueAttributeName::QueueArn)
        .send()
        .await
        .unwrap();
    assert_eq!(
        arn.attributes().unwrap()[&aws_sdk_sqs::types::QueueAttributeName::QueueArn],
        format!("arn:aws:sqs:us-east-1:{OTHER}:plain")
    );
}

#[tokio::test]
async fn a_presigned_query_means_one_thing_to_the_signature_and_the_action() {
    let s = signed_server().await;
    let url = s.create_queue("plus").await;
    let queue = form_urlencoded::byte_serialize(url.as_bytes()).collect::<String>();
    let presigned = Signer {
        presign: Some(300),
        ..Signer::default()
    };
    // Signed with `a%2Bb` (a plus); sent with `a+b`, which the form decoder reads as a space.
    let path = format!("/?Action=SendMessage&QueueUrl={queue}&MessageBody=a%2Bb");
    let req = presigned.sign(&s, "GET", &path, &[], "");
    let bent = crate::common::signing::Signed {
        path: req.path.replace("MessageBody=a%2Bb", "MessageBody=a+b"),
        headers: req.headers.clone(),
    };
    let r = bent.send(&s, "GET", "").await;
    assert_eq!(
        r.xml("Code").as_deref(),
        Some("SignatureDoesNotMatch"),
        "{}",
        r.body
    );
    assert_eq!(s.counts(&url).await.0, 0, "nothing was sent");
    let r = req.send(&s, "GET", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let got = s.receive(&url).await;
    assert_eq!(got.messages()[0].body(), Some("a+b"));

    // A parameter given twice is refused, signed or not.
    let path = format!("/?Action=SendMessage&QueueUrl={queue}&MessageBody=one&MessageBody=two");
    let r = presigned
        .sign(&s, "GET", &path, &[], "")
        .send(&s, "GET", "")
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("MessageBody"), "{}", r.body);
    assert_eq!(s.counts(&url).await, (0, 1, 0), "nothing more was sent");
}

#[tokio::test]
async fn the_headers_that_choose_the_operation_must_be_signed() {
    let s = signed_server().await;
    let url = s.create_queue("replayed").await;
    s.send(&url, "kept").await;
    let body = format!(r#"{{"QueueUrl":"{url}","AttributeNames":["All"]}}"#);
    // Signed over host and x-amz-date only; the target and type are added unsigned.
    let mut req = Signer::default().sign(&s, "POST", "/", &[], &body);
    req.set("content-type", JSON.1);
    req.set("x-amz-target", &target("PurgeQueue"));
    let r = req.send(&s, "POST", &body).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(
        r.json()["message"],
        "'X-Amz-Target' must be a 'SignedHeader' in the AWS Authorization."
    );
    assert_eq!(s.counts(&url).await, (1, 0, 0), "the queue was not purged");

    // Any other x-amz-* header sent must be signed as well.
    let mut req = json_request(&s, Signer::default(), "ListQueues", "{}");
    req.set("x-amz-security-token", "unsigned");
    let r = req.send(&s, "POST", "{}").await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(
        r.json()["message"],
        "'x-amz-security-token' must be a 'SignedHeader' in the AWS Authorization."
    );
}

#[tokio::test]
async fn unsigned_payloads_only_in_presigned_urls() {
    let s = signed_server().await;
    s.create_queue("pre").await;
    // As Query-era SDKs presign: host signed, payload UNSIGNED-PAYLOAD.
    let presigned = Signer {
        presign: Some(604_800),
        unsigned_payload: true,
        ..Signer::default()
    };
    let list = "/?Action=ListQueues&Version=2012-11-05";
    let r = presigned
        .sign(&s, "GET", list, &[], "")
        .send(&s, "GET", "")
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("/pre<"), "{}", r.body);
    // Not with a body the signature does not cover.
    let body = "Action=CreateQueue&QueueName=sneaked";
    let form = [("content-type", "application/x-www-form-urlencoded")];
    let r = presigned
        .sign(&s, "POST", list, &form, "")
        .send(&s, "POST", body)
        .await;
    assert_eq!(r.status, 403, "{}", r.body);

    // A week at most.
    let too_long = Signer {
        presign: Some(604_801),
        ..presigned
    };
    let r = too_long
        .sign(&s, "GET", list, &[], "")
        .send(&s, "GET", "")
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.xml("Code").as_deref(), Some("IncompleteSignature"));
    assert!(r.body.contains("604800"), "{}", r.body);

    // Header-signed with UNSIGNED-PAYLOAD: the body would be anyone's.
    let header_signed = Signer {
        unsigned_payload: true,
        ..Signer::default()
    };
    let t = target("ListQueues");
    let headers = [
        JSON,
        ("x-amz-target", t.as_str()),
        ("x-amz-content-sha256", "UNSIGNED-PAYLOAD"),
    ];
    let req = header_signed.sign(&s, "POST", "/", &headers, "{}");
    let r = req.send(&s, "POST", "{}").await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(
        r.json()["__type"],
        "com.amazonaws.sqs#SignatureDoesNotMatch"
    );
}

#[tokio::test]
async fn the_scope_names_a_region_and_the_service() {
    let s = signed_server().await;
    for region in ["moon", "US-EAST-1", ""] {
        let signer = Signer {
            region,
            ..Signer::default()
        };
        let r = json_request(&s, signer, "ListQueues", "{}")
            .send(&s, "POST", "{}")
            .await;
        assert_eq!(r.status, 403, "{region}: {}", r.body);
        assert_eq!(
            r.json()["message"],
            format!("Credential should be scoped to a valid region, not '{region}'. "),
        );
    }
    // A Host naming a region must agree with the scope.
    let mut req = json_request(&s, Signer::default(), "ListQueues", "{}");
    let host = req.header("host").unwrap().to_owned();
    req.set("host", &format!("sqs.eu-west-1.{host}"));
    let r = req.send(&s, "POST", "{}").await;
    assert_eq!(r.status, 403, "{}", r.body);
    // A wrong content hash in a presigned URL is named as the parameter it came in.
    let presigned = Signer {
        presign: Some(60),
        ..Signer::default()
    };
    let list = "/?Action=ListQueues&X-Amz-Content-Sha256=abc";
    let r = presigned
        .sign(&s, "GET", list, &[], "")
        .send(&s, "GET", "")
        .await;
    assert!(
        r.body.contains("'X-Amz-Content-Sha256' parameter"),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn sender_ids_are_principal_ids_never_access_keys() {
    let s = TestServer::start_with(
        Config::ephemeral()
            .with_credential(Credential::new("AKIDEXAMPLE", "secret", OWNER))
            .with_credential(Credential {
                user: Some("alice".into()),
                ..Credential::new("AKIDALICE", "alice-secret", OWNER)
            }),
    )
    .await;
    let url = s.create_queue("senders").await;
    s.send(&url, "from root").await;
    let alice = client_at(&s.endpoint(), "AKIDALICE", "alice-secret", &s.clock);
    alice
        .send_message()
        .queue_url(&url)
        .message_body("from alice")
        .send()
        .await
        .unwrap();
    let ids = sender_ids(&s, &url, &["from root", "from alice"]).await;
    assert_eq!(ids[0], OWNER, "the root user's SenderId is its account id");
    assert!(
        ids[1].starts_with("AIDA") && ids[1].len() == 21,
        "{}",
        ids[1]
    );
    assert!(ids[1][4..]
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()));
    assert!(!ids[1].contains("AKIDALICE"));
    // Stable: the same principal, the same id, on another server too.
    assert_eq!(alices_sender_id_on_another_server().await, ids[1]);
}

/// The SenderId alice's send gets on a second server, under another access key.
async fn alices_sender_id_on_another_server() -> String {
    let again = TestServer::start_with(Config::ephemeral().with_credential(Credential {
        user: Some("alice".into()),
        ..Credential::new("AKIDALICE2", "x", OWNER)
    }))
    .await;
    let url2 = {
        let c = client_at(&again.endpoint(), "AKIDALICE2", "x", &again.clock);
        let url = c
            .create_queue()
            .queue_name("q")
            .send()
            .await
            .unwrap()
            .queue_url
            .unwrap();
        c.send_message()
            .queue_url(&url)
            .message_body("b")
            .send()
            .await
            .unwrap();
        url
    };
    let c = client_at(&again.endpoint(), "AKIDALICE2", "x", &again.clock);
    let got = c
        .receive_message()
        .queue_url(&url2)
        .message_system_attribute_names(aws_sdk_sqs::types::MessageSystemAttributeName::SenderId)
        .send()
        .await
        .unwrap();
    got.messages()[0].attributes().unwrap()
        [&aws_sdk_sqs::types::MessageSystemAttributeName::SenderId]
        .clone()
}

#[tokio::test]
async fn without_credentials_sender_ids_are_aws_shaped_and_hide_the_key() {
    let s = TestServer::start().await;
    let url = s.create_queue("open").await;
    s.send(&url, "one").await;
    let test_key = crate::common::client_for(&s.endpoint(), "us-east-1", "test");
    test_key
        .send_message()
        .queue_url(&url)
        .message_body("two")
        .send()
        .await
        .unwrap();
    let ids = sender_ids(&s, &url, &["one", "two"]).await;
    for id in &ids {
        assert!(id.starts_with("AIDA") && id.len() == 21, "{id}");
        assert!(!id.contains("AKIDEXAMPLE") && id != "test", "{id}");
    }
    assert_ne!(ids[0], ids[1], "two keys, two senders");
}

/// The SenderId of the messages with these bodies, in that order.
async fn sender_ids(s: &TestServer, url: &str, bodies: &[&str]) -> Vec<String> {
    use aws_sdk_sqs::types::MessageSystemAttributeName as Name;
    let got = s
        .client
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(10)
        .message_system_attribute_names(Name::All)
        .send()
        .await
        .unwrap();
    let messages = got.messages();
    bodies
        .iter()
        .map(|b| {
            let m = messages.iter().find(|m| m.body() == Some(b)).unwrap();
            m.attributes().unwrap()[&Name::SenderId].clone()
        })
        .collect()
}
