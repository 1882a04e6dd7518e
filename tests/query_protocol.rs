//! AWS Query (XML) wire fixtures: each `fixtures/query/NN-*.req` is sent in order to one fresh
//! server and its response compared with `NN-*.xml`, ids and timestamps normalised.
//! `SQSLITE_BLESS=1 cargo test --test query_protocol` rewrites the expected files.

mod common;

use std::path::Path;

use common::TestServer;
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
    // `{handle}` in a request stands for the receipt handle last received: handles are
    // sealed with a random per-server key, so no fixture can spell one.
    let mut handle = String::new();
    for req in requests {
        let text = std::fs::read_to_string(&req).unwrap();
        let mut lines = text.lines();
        let (method, path) = lines.next().unwrap().split_once(' ').unwrap();
        let body = lines
            .next()
            .unwrap_or_default()
            .replace("{handle}", &handle);
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
