//! What real clients put on the wire, kept as regressions (compat/ runs the clients themselves).
//!
//! `fixtures/compat/<client>/NN-<Action>.http` are requests recorded from real boto3 builds by
//! `compat/python/capture_fixtures.py` (botocore 1.31.80 speaks AWS Query, 1.44.8 AWS JSON 1.0
//! with `x-amzn-query-mode`); each directory is replayed in order on a fresh server. The queue
//! URLs inside name the port of the recording run, so the replay also proves that queues are
//! resolved from the URL path alone. The hand-written cases cover clients that cannot run here.

use std::path::{Path, PathBuf};

use crate::common::{RawResponse, TestServer};
use serde_json::Value;

/// MD5s computed outside sqslite (compat/python/sqsmd5.py, checked against recorded AWS values).
const BODY_MD5: &str = "dff26225035f63eeeb282107bb81a63f";
const ALL_TYPES_MD5: &str = "83dca0b43634782a51f4a0f63d78d354";
const S_B_PREFIX_MD5: &str = "ed583a3e74fd5b5f1e677ff4a8363ab8";
const TRACE_MD5: &str = "a1df90bfbb41d7e351f7be9d68aa7a15";
const NUMBER_MD5: &str = "75f17d1bd011fcf4d18d5d9305002315";

struct Recorded {
    name: String,
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: String,
}

fn recorded(dir: &str) -> Vec<Recorded> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/compat")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "http"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).unwrap();
            let (head, body) = text.split_once("\n\n").expect("blank line before the body");
            let mut lines = head.lines();
            let (method, path) = lines.next().unwrap().split_once(' ').unwrap();
            let headers = lines
                .map(|l| {
                    let (k, v) = l.split_once(": ").unwrap();
                    (k.to_owned(), v.to_owned())
                })
                .collect();
            Recorded {
                name: file.file_name().unwrap().to_string_lossy().into_owned(),
                method: method.to_owned(),
                path: path.to_owned(),
                headers,
                body: body.to_owned(),
            }
        })
        .collect()
}

/// Sends every recorded request of `dir` in order and returns the responses by file name.
async fn replay(t: &TestServer, dir: &str) -> Vec<(String, RawResponse)> {
    let mut out = Vec::new();
    for r in recorded(dir) {
        let headers: Vec<(&str, &str)> = r
            .headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let response = t.raw(&r.method, &r.path, &headers, &r.body).await;
        assert_eq!(response.status, 200, "{}: {}", r.name, response.body);
        out.push((r.name, response));
    }
    out
}

/// The first value named `key` anywhere in a JSON document, as text.
fn find(value: &Value, key: &str) -> Option<String> {
    match value {
        Value::Object(map) => map.get(key).map_or_else(
            || map.values().find_map(|v| find(v, key)),
            |v| Some(v.as_str().map_or_else(|| v.to_string(), str::to_owned)),
        ),
        Value::Array(items) => items.iter().find_map(|v| find(v, key)),
        _ => None,
    }
}

/// A member of a response in either protocol.
fn member(r: &RawResponse, name: &str) -> Option<String> {
    if r.header("content-type") == Some("text/xml") {
        r.xml(name)
    } else {
        find(&r.json(), name)
    }
}

fn check_replay(responses: &[(String, RawResponse)], queue: &str) {
    let get = |n: usize| &responses[n - 1].1;
    assert!(member(get(1), "QueueUrl")
        .unwrap()
        .ends_with(&format!("/000000000000/{queue}")));

    let sent = get(2);
    assert_eq!(member(sent, "MD5OfMessageBody").unwrap(), BODY_MD5);
    assert_eq!(
        member(sent, "MD5OfMessageAttributes").unwrap(),
        ALL_TYPES_MD5
    );
    assert_eq!(
        member(sent, "MD5OfMessageSystemAttributes").unwrap(),
        TRACE_MD5
    );

    // Filter `s` and `b.*`: the digest covers s, b and b.label, nothing else.
    let received = get(3);
    assert_eq!(member(received, "MD5OfBody").unwrap(), BODY_MD5);
    assert_eq!(
        member(received, "MD5OfMessageAttributes").unwrap(),
        S_B_PREFIX_MD5
    );
    assert_eq!(
        member(received, "MessageId").unwrap(),
        member(sent, "MessageId").unwrap()
    );
    assert!(received.body.contains("SenderId"), "SenderId");
    assert!(
        !received.body.contains("AKIDCOMPATFIXTURE"),
        "a SenderId is the principal's id, never its access key"
    );
    assert!(
        !received.body.contains("labelled"),
        "s.label was not asked for"
    );

    let batch = get(4);
    assert_eq!(member(batch, "MD5OfMessageAttributes").unwrap(), NUMBER_MD5);
    assert_eq!(member(batch, "Code").unwrap(), "InvalidParameterValue");
    assert_eq!(member(batch, "SenderFault").unwrap(), "true");

    // CreateQueue's tags travelled as `tags` (JSON, lowercase) or `Tag.1.Key` (Query).
    assert_eq!(
        member(get(5), "Key").or_else(|| find_tag(get(5))),
        Some("t".into())
    );
}

fn find_tag(r: &RawResponse) -> Option<String> {
    let tags = r.json().get("Tags")?.as_object()?.clone();
    (tags.get("t")?.as_str()? == "v").then(|| "t".to_owned())
}

#[tokio::test]
async fn botocore_query_requests_replay() {
    let t = TestServer::start().await;
    let responses = replay(&t, "botocore-1.31.80-query").await;
    check_replay(&responses, "fixture-query");
    // The body's CR must survive XML parsing, or the client's MD5 check fails.
    assert!(responses[2]
        .1
        .body
        .contains("line&#xD;\nbreak &lt;&amp;&gt;"));
}

#[tokio::test]
async fn botocore_json_requests_replay() {
    let t = TestServer::start().await;
    let responses = replay(&t, "botocore-1.44.8-json").await;
    check_replay(&responses, "fixture-json");
}

/// Java v1 and PHP post Query requests to the queue's own path without a QueueUrl; PHP and
/// JS v3 (useQueueUrlAsEndpoint) may send JSON there too. Both must find the queue by path.
#[tokio::test]
async fn requests_to_the_queue_path() {
    let t = TestServer::start().await;
    t.create_queue("by-path").await;
    let form = "Action=SendMessage&Version=2012-11-05&MessageBody=from+java+v1";
    let headers = [("content-type", "application/x-www-form-urlencoded")];
    let r = t.raw("POST", "/000000000000/by-path", &headers, form).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.xml("MD5OfMessageBody").unwrap(),
        sqslite::support::md5_of_body("from java v1")
    );

    let headers = [
        ("x-amz-target", "AmazonSQS.ReceiveMessage"),
        ("content-type", "application/x-amz-json-1.0"),
    ];
    let body = r#"{"QueueUrl":"http://elsewhere:1234/000000000000/by-path"}"#;
    let r = t.raw("POST", "/000000000000/by-path", &headers, body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(find(&r.json(), "Body").as_deref(), Some("from java v1"));
}

/// sqs-consumer deletes a batch using each message's MessageId (a hyphenated UUID) as entry Id.
#[tokio::test]
async fn message_ids_are_valid_batch_entry_ids() {
    let t = TestServer::start().await;
    let url = t.create_queue("consumer").await;
    t.send(&url, "one").await;
    t.send(&url, "two").await;
    let got = t
        .client
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .send()
        .await
        .unwrap();
    let mut delete = t.client.delete_message_batch().queue_url(&url);
    for m in got.messages() {
        let entry = aws_sdk_sqs::types::DeleteMessageBatchRequestEntry::builder()
            .id(m.message_id().unwrap())
            .receipt_handle(m.receipt_handle().unwrap())
            .build()
            .unwrap();
        delete = delete.entries(entry);
    }
    let out = delete.send().await.unwrap();
    assert_eq!(out.successful().len(), 2);
    assert!(out.failed().is_empty());
    assert_eq!(t.counts(&url).await, (0, 0, 0));
}

/// The Python SQS extended client (amazon-sqs-extended-client 1.0.1) wraps a receipt handle in
/// its own markers and takes the original back as the text after the last `-`, which SQS's
/// handles (standard base64) never hold: sqslite's URL-safe ones usually did, and the delete
/// was refused (compat/python/test_sqs_extended.py).
#[tokio::test]
async fn receipt_handles_survive_the_python_extended_client() {
    let t = TestServer::start().await;
    let url = t.create_queue("extended").await;
    for i in 0..30 {
        t.send(&url, &format!("m{i}")).await;
    }
    let mut handles = Vec::new();
    while handles.len() < 30 {
        let received = crate::common::durable::receive(&t.client, &url, 10).await;
        handles.extend(received.into_iter().filter_map(|m| m.receipt_handle));
    }
    for handle in &handles {
        let wrapped =
            format!("-..s3BucketName..-b-..s3BucketName..--..s3Key..-k-..s3Key..-{handle}");
        let original = wrapped.rsplit('-').next().unwrap();
        t.client
            .delete_message()
            .queue_url(&url)
            .receipt_handle(original)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{handle}: {e:?}"));
    }
    assert_eq!(t.counts(&url).await, (0, 0, 0));
}

/// Current SDKs send `x-amzn-query-mode: true`; the modelled 403 of PurgeQueueInProgress and
/// the `x-amzn-query-error` header are what boto3 and JS v3 build their typed error from.
#[tokio::test]
async fn query_mode_header_and_modelled_status() {
    let t = TestServer::start_with(sqslite::Config {
        strict: true,
        ..sqslite::Config::ephemeral()
    })
    .await;
    let url = t.create_queue("purged").await;
    let body = format!(r#"{{"QueueUrl":"{url}"}}"#);
    let headers = [
        ("x-amz-target", "AmazonSQS.PurgeQueue"),
        ("content-type", "application/x-amz-json-1.0"),
        ("x-amzn-query-mode", "true"),
    ];
    assert_eq!(t.raw("POST", "/", &headers, &body).await.status, 200);
    let again = t.raw("POST", "/", &headers, &body).await;
    assert_eq!(again.status, 403);
    assert_eq!(
        again.header("x-amzn-query-error"),
        Some("AWS.SimpleQueueService.PurgeQueueInProgress;Sender")
    );
    assert_eq!(
        find(&again.json(), "__type").as_deref(),
        Some("com.amazonaws.sqs#PurgeQueueInProgress")
    );
}

/// SDK for Java v1's last Query release (1.12.583, run by compat/run.sh java-sdk1-query)
/// flattens TagQueue's map as `Tags.N.Key` (its CreateQueue as `Tag.N.Key`, as botocore does
/// for both); SQS takes either, so sqslite must too.
#[tokio::test]
async fn java_v1_query_tag_queue_plural_prefix() {
    let t = TestServer::start().await;
    let url = t.create_queue("tagged-v1").await;
    let form = "Action=TagQueue&Version=2012-11-05&Tags.1.Key=team&Tags.1.Value=core\
                &Tags.2.Key=empty&Tags.2.Value=";
    let headers = [("content-type", "application/x-www-form-urlencoded")];
    let r = t
        .raw("POST", "/000000000000/tagged-v1", &headers, form)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let tags = t
        .client
        .list_queue_tags()
        .queue_url(&url)
        .send()
        .await
        .unwrap();
    let tags = tags.tags().unwrap();
    assert_eq!(tags.get("team").map(String::as_str), Some("core"));
    assert_eq!(tags.get("empty").map(String::as_str), Some(""));
}

/// SDK v1's Query serializer sends an empty batch with no entry parameter at all; SQS answers
/// EmptyBatchRequest (quoted in localstack#1658 and openzipkin/zipkin-aws#167), as the compat
/// suite's `java-sdk1-query` `validation_fidelity` row expects. Before: MissingParameter
/// "The request must contain the parameter Entries."
#[tokio::test]
async fn java_v1_query_empty_batch_is_an_empty_batch() {
    let t = TestServer::start().await;
    let url = t.create_queue("v1-empty").await;
    for action in [
        "SendMessageBatch",
        "DeleteMessageBatch",
        "ChangeMessageVisibilityBatch",
    ] {
        let r = t
            .query(&[
                ("Action", action),
                ("Version", "2012-11-05"),
                ("QueueUrl", &url),
            ])
            .await;
        assert_eq!(r.status, 400, "{action}: {}", r.body);
        assert_eq!(
            r.xml("Code").as_deref(),
            Some("AWS.SimpleQueueService.EmptyBatchRequest"),
            "{action}: {}",
            r.body
        );
    }
}

/// A declared queue met stored (`--data-dir`) gets its declared tags through TagQueue's own
/// rules: stored and declared tags together stay within the 50-tag cap, and a file that
/// would pass it stops the start with SQS's message (before, the tags were added anyway).
#[tokio::test]
async fn declared_tags_on_a_stored_queue_keep_the_tag_cap() {
    let dir = std::env::temp_dir().join(format!("sqslite-tag-cap-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = |tags: usize| {
        let mut decl = sqslite::QueueDecl::new("tagged");
        for i in 0..tags {
            decl.tags.insert(format!("declared-{i}"), "v".into());
        }
        let mut config = sqslite::Config::ephemeral().with_queue(decl);
        config.data_dir = Some(dir.clone());
        config
    };
    let t = TestServer::start_with(config(0)).await;
    let url = t.server.queue_url("tagged");
    let mut tag = t.client.tag_queue().queue_url(&url);
    for i in 0..45 {
        tag = tag.tags(format!("stored-{i}"), "v");
    }
    tag.send().await.expect("45 tags");
    t.server.shutdown().await;

    // 45 stored and 5 declared: 50, the cap, is fine.
    let t = TestServer::start_with(config(5)).await;
    let url = t.server.queue_url("tagged");
    let tags = t.client.list_queue_tags().queue_url(&url).send().await;
    assert_eq!(tags.unwrap().tags.unwrap_or_default().len(), 50);
    t.server.shutdown().await;

    // 45 stored and 6 declared would be 51.
    let err = TestServer::try_start_with(config(6))
        .await
        .err()
        .expect("refused");
    assert!(
        err.to_string()
            .contains("Too many tags added for queue tagged."),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
