//! AWS Query (XML) wire fixtures: each `fixtures/query/NN-*.req` is sent in order to one fresh
//! server and its response compared with `NN-*.xml`, ids and timestamps normalised.
//! `SQSLITE_BLESS=1 cargo test --test it sqs::query_protocol` rewrites the expected files.

use std::path::Path;

use crate::common::TestServer;
use regex::Regex;

fn normalise(text: &str) -> String {
    let uuid = Regex::new(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}").unwrap();
    let millis = Regex::new(r">1[0-9]{12}<").unwrap();
    let seconds = Regex::new(r">1[0-9]{9}<").unwrap();
    // Receipt handles are sealed with a random per-server key.
    let handle = Regex::new(r"<ReceiptHandle>[^<]*</ReceiptHandle>").unwrap();
    let text = handle.replace_all(text, "<ReceiptHandle>{handle}</ReceiptHandle>");
    let text = uuid.replace_all(&text, "{uuid}");
    let text = millis.replace_all(&text, ">{millis}<");
    seconds.replace_all(&text, ">{seconds}<").into_owned()
}

#[tokio::test]
async fn query_fixtures() {
    let t = TestServer::start().await;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/query");
    let mut requests: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "req"))
        .collect();
    requests.sort();
    assert!(requests.len() >= 15);
    let bless = std::env::var_os("SQSLITE_BLESS").is_some();
    // `{handle}` in a request stands for the receipt handle last received, form-encoded as a
    // client sends it (a handle's base64 may hold `+` and `/`): handles are sealed with a
    // random per-server key, so no fixture can spell one.
    let mut handle = String::new();
    for req in requests {
        let text = std::fs::read_to_string(&req).unwrap();
        let mut lines = text.lines();
        let (method, path) = lines.next().unwrap().split_once(' ').unwrap();
        let body = lines.next().unwrap_or_default().replace(
            "{handle}",
            &form_urlencoded::byte_serialize(handle.as_bytes()).collect::<String>(),
        );
        let body = body.as_str();
        let headers = [
            ("host", "localhost:9324"),
            ("content-type", "application/x-www-form-urlencoded"),
        ];
        let r = t.raw(method, path, &headers, body).await;
        assert_eq!(
            r.header("content-type"),
            Some("text/xml"),
            "{}",
            req.display()
        );
        assert!(r.header("x-amzn-requestid").is_some());
        if let Some(h) = r.xml("ReceiptHandle") {
            handle = h;
        }
        let got = format!("{}\n{}\n", r.status, normalise(&r.body));
        let expected_path = req.with_extension("xml");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("missing {}", expected_path.display()));
        assert_eq!(got, expected, "{}", req.display());
    }
}

/// Query clients send an empty list as the member's own name with an empty value.
#[tokio::test]
async fn empty_lists_are_empty() {
    let t = TestServer::start().await;
    let url = t.create_queue("empty-lists").await;
    let r = t
        .query(&[
            ("Action", "SendMessageBatch"),
            ("QueueUrl", &url),
            ("Entries", ""),
        ])
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(
        r.xml("Code").as_deref(),
        Some("AWS.SimpleQueueService.EmptyBatchRequest")
    );
    t.send(&url, "m").await;
    let r = t
        .query(&[
            ("Action", "ReceiveMessage"),
            ("QueueUrl", &url),
            ("AttributeNames", ""),
            ("MessageAttributeNames", ""),
        ])
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("<Body>m</Body>"), "{}", r.body);
    assert!(
        !r.body.contains("<Attribute>"),
        "none requested: {}",
        r.body
    );
    let r = t
        .query(&[
            ("Action", "GetQueueAttributes"),
            ("QueueUrl", &url),
            ("AttributeNames", ""),
        ])
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.body.contains("<Attribute>"), "{}", r.body);
}

/// `Accept: application/json` on a Query request (GET or POST) gets the Query shape as JSON.
#[tokio::test]
async fn accept_json_gets_the_query_shape_as_json() {
    let t = TestServer::start().await;
    let url = t.create_queue("negotiated").await;
    let json = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("accept", "application/json"),
    ];
    let r = t.raw("POST", "/", &json, "Action=ListQueues").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let v = r.json();
    let list = &v["ListQueuesResponse"];
    assert_eq!(list["ListQueuesResult"]["QueueUrls"][0], url.as_str());
    assert!(list["ResponseMetadata"]["RequestId"].is_string());

    let attributes = t
        .raw(
            "POST",
            "/",
            &json,
            &format!(
                "Action=GetQueueAttributes&QueueUrl={}&AttributeName.1=All",
                encode(&url)
            ),
        )
        .await
        .json();
    let list = &attributes["GetQueueAttributesResponse"]["GetQueueAttributesResult"]["Attributes"];
    let arn = list
        .as_array()
        .expect("a list of Name/Value objects, as recorded")
        .iter()
        .find(|a| a["Name"] == "QueueArn")
        .expect("QueueArn listed");
    assert_eq!(
        arn["Value"],
        "arn:aws:sqs:us-east-1:000000000000:negotiated"
    );

    receive_and_send_as_json(&t, &url, &json).await;
    let r = t
        .raw("POST", "/", &json, "Action=GetQueueUrl&QueueName=none")
        .await;
    assert_eq!(r.status, 400);
    let v = r.json();
    assert_eq!(
        v["Error"]["Code"],
        "AWS.SimpleQueueService.NonExistentQueue"
    );
    assert_eq!(v["Error"]["Type"], "Sender");
    assert!(v["RequestId"].is_string());

    let r = t.raw("POST", "/", &json[..1], "Action=ListQueues").await;
    assert_eq!(r.header("content-type"), Some("text/xml"), "XML without it");
}

/// ReceiveMessage by GET (empty, then one message) and SendMessage, both as JSON.
async fn receive_and_send_as_json(t: &TestServer, url: &str, json: &[(&str, &str)]) {
    let path = "/?Action=ReceiveMessage&QueueUrl=".to_owned() + &encode(url);
    let r = t
        .raw("GET", &path, &[("accept", "application/json")], "")
        .await;
    assert_eq!(
        r.json()["ReceiveMessageResponse"]["ReceiveMessageResult"],
        serde_json::json!({"messages": null})
    );
    let sent = t
        .raw(
            "POST",
            "/",
            json,
            &format!("Action=SendMessage&QueueUrl={}&MessageBody=hi", encode(url)),
        )
        .await
        .json();
    let result = &sent["SendMessageResponse"]["SendMessageResult"];
    assert_eq!(
        result["MD5OfMessageBody"],
        "49f68a5c8493ec2c0bf489821c21fc3b"
    );
    assert!(result["SequenceNumber"].is_null() && result["MD5OfMessageAttributes"].is_null());
    let r = t
        .raw("GET", &path, &[("accept", "application/json")], "")
        .await;
    let messages = &r.json()["ReceiveMessageResponse"]["ReceiveMessageResult"]["messages"];
    assert_eq!(messages[0]["Body"], "hi");
    assert!(messages[0]["MessageAttributes"].is_null());
}

/// At a queue URL: queue-less actions are refused, no action is a bare 404, and an empty
/// result is one self-closing element.
#[tokio::test]
async fn requests_at_a_queue_url() {
    let t = TestServer::start().await;
    t.create_queue("at-path").await;
    let form = [("content-type", "application/x-www-form-urlencoded")];
    for action in ["CreateQueue", "ListQueues"] {
        let body = format!("Action={action}&QueueName=other");
        let r = t.raw("POST", "/000000000000/at-path", &form, &body).await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert_eq!(r.xml("Code").as_deref(), Some("InvalidAction"));
        assert_eq!(
            r.xml("Message"),
            Some(format!(
                "The action {action} is not valid for this endpoint."
            ))
        );
    }
    for accept in ["text/xml", "application/json"] {
        let r = t
            .raw("GET", "/000000000000/at-path", &[("accept", accept)], "")
            .await;
        assert_eq!(
            (r.status, r.body.as_str()),
            (404, "<UnknownOperationException/>")
        );
    }
    let r = t
        .raw(
            "POST",
            "/000000000000/at-path",
            &form,
            "Action=ReceiveMessage",
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("<ReceiveMessageResult/>"), "{}", r.body);
}

fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
