//! Outbound work is bounded (issue 39, M4): POSTs under way to one endpoint and in total,
//! and the bytes waiting for an attempt; past the bytes a delivery is undeliverable and goes
//! to the subscription's dead-letter queue, as SNS sends one it cannot make.

use std::sync::{Arc, Mutex};

use tokio::io::AsyncReadExt;

use crate::common::sns::{start_with, Sns};

/// An endpoint that reads each request and never answers, keeping the connection open.
pub(super) struct Silent {
    pub(super) url: String,
    bodies: Arc<Mutex<Vec<String>>>,
}

impl Silent {
    pub(super) async fn start() -> Silent {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let bodies: Arc<Mutex<Vec<String>>> = Arc::default();
        let kept = bodies.clone();
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((mut stream, _)) = listener.accept().await {
                let kept = kept.clone();
                held.push(tokio::spawn(async move {
                    let body = read_request(&mut stream).await;
                    kept.lock().unwrap().push(body);
                    // Never answer; hold the connection until the test ends.
                    std::future::pending::<()>().await;
                    drop(stream);
                }));
            }
        });
        Silent { url, bodies }
    }

    pub(super) async fn wait_for(&self, n: usize) -> Vec<String> {
        crate::common::lambda::within("the silent endpoint's requests", async {
            loop {
                let got = self.bodies.lock().unwrap().clone();
                if got.len() >= n {
                    return got;
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        })
        .await
    }
}

/// One request's body, read by its Content-Length.
async fn read_request(stream: &mut tokio::net::TcpStream) -> String {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    while let Ok(n) = stream.read(&mut chunk).await {
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                })
                .unwrap_or(0);
            if body.len() >= length {
                return body.to_owned();
            }
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// A confirmed http subscription of `topic` to the silent endpoint.
async fn confirmed(s: &Sns, topic: &str, hook: &Silent, attributes: &[(&str, &str)]) {
    let mut call = s
        .sns
        .subscribe()
        .topic_arn(topic)
        .protocol("http")
        .endpoint(&hook.url);
    for (k, v) in attributes {
        call = call.attributes(*k, *v);
    }
    call.send().await.unwrap();
    let confirmation: serde_json::Value = serde_json::from_str(&hook.wait_for(1).await[0]).unwrap();
    let token = confirmation["Token"].as_str().unwrap();
    s.sns
        .confirm_subscription()
        .topic_arn(topic)
        .token(token)
        .send()
        .await
        .unwrap();
}

async fn outbox(s: &Sns) -> serde_json::Value {
    s.t.raw("GET", "/_sqslite/sns/deliveries", &[], "")
        .await
        .json()
}

#[tokio::test]
async fn posts_under_way_to_one_endpoint_are_capped_and_the_rest_wait() {
    let mut config = sqslite::Config::ephemeral();
    config.sns_limits.http.per_endpoint = 2;
    let s = start_with(config).await;
    let topic = s.topic("busy", &[]).await;
    let hook = Silent::start().await;
    confirmed(&s, &topic, &hook, &[]).await;
    for i in 0..10 {
        s.publish(&topic, &format!("m{i}")).await;
    }
    // The confirmation's POST and one notification are under way; nine wait their turn.
    hook.wait_for(2).await;
    let got = outbox(&s).await;
    assert_eq!(got["http_in_flight"], 2, "{got}");
    assert_eq!(got["http_waiting"], 9, "{got}");
    assert_eq!(hook.bodies.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn past_the_bytes_a_subscription_may_hold_a_delivery_is_dead_lettered() {
    let mut config = sqslite::Config::ephemeral();
    config.sns_limits.http.per_endpoint = 1;
    config.sns_limits.http.subscription_bytes = 5_000;
    let s = start_with(config).await;
    let topic = s.topic("full", &[]).await;
    let dlq = s.t.create_queue("full-dlq").await;
    let dlq_arn = s.t.attribute(&dlq, "QueueArn").await;
    let redrive = serde_json::json!({"deadLetterTargetArn": dlq_arn}).to_string();
    let hook = Silent::start().await;
    confirmed(&s, &topic, &hook, &[("RedrivePolicy", &redrive)]).await;
    // Each raw-less notification is about 1.4 KB of envelope: a few fit, the rest do not.
    let body = "x".repeat(1000);
    for _ in 0..10 {
        s.publish(&topic, &body).await;
    }
    let got = outbox(&s).await;
    assert!(
        got["http_waiting_bytes"].as_u64().unwrap() <= 5_000,
        "{got}"
    );
    let dead: u64 =
        s.t.attribute(&dlq, "ApproximateNumberOfMessages")
            .await
            .parse()
            .unwrap();
    assert!(dead >= 5, "{dead} dead-lettered; {got}");
    assert_eq!(got["http_waiting"].as_u64().unwrap() + dead, 10, "{got}");
}

/// An SNS Query request to the server at `endpoint`, unsigned; its answer's body.
async fn sns_query(endpoint: &str, params: &[(&str, &str)]) -> String {
    let body: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish();
    let form = [("content-type", "application/x-www-form-urlencoded")];
    crate::common::raw(endpoint, "POST", "/", &form, &body)
        .await
        .body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_few_descriptors_a_silent_subscriber_leaves_the_api_answering() {
    // The review's case: `ulimit -n 1024` and a subscriber that never answers held every
    // descriptor. Here 128, and six hundred notifications.
    let dir = crate::common::durable::temp_dir("few-files");
    let mut cmd = std::process::Command::new("sh");
    cmd.args(["-c", "ulimit -n 128 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_sqslite"))
        .args(["--port", "0", "--data-dir"])
        .arg(&dir)
        .args(["--fsync", "never"])
        .env_remove("SQSLITE_CONFIG")
        .stdout(std::process::Stdio::inherit())
        .stderr(std::process::Stdio::piped());
    let p = crate::common::durable::Proc::spawn(cmd);
    let topic = "arn:aws:sns:us-east-1:000000000000:busy";
    sns_query(&p.endpoint, &[("Action", "CreateTopic"), ("Name", "busy")]).await;
    let hook = Silent::start().await;
    let sub = [
        ("Action", "Subscribe"),
        ("TopicArn", topic),
        ("Protocol", "http"),
        ("Endpoint", hook.url.as_str()),
    ];
    sns_query(&p.endpoint, &sub).await;
    let confirmation: serde_json::Value = serde_json::from_str(&hook.wait_for(1).await[0]).unwrap();
    let token = confirmation["Token"].as_str().unwrap();
    let confirm = [
        ("Action", "ConfirmSubscription"),
        ("TopicArn", topic),
        ("Token", token),
    ];
    assert!(sns_query(&p.endpoint, &confirm)
        .await
        .contains("SubscriptionArn"));
    for i in 0..600 {
        let m = format!("m{i}");
        let publish = [
            ("Action", "Publish"),
            ("TopicArn", topic),
            ("Message", m.as_str()),
        ];
        assert!(
            sns_query(&p.endpoint, &publish).await.contains("MessageId"),
            "publish {i}"
        );
    }
    let health = crate::common::raw(&p.endpoint, "GET", "/health", &[], "").await;
    assert_eq!(health.status, 200);
    let listed = sns_query(&p.endpoint, &[("Action", "ListTopics")]).await;
    assert!(listed.contains(topic), "{listed}");
    let got = crate::common::raw(&p.endpoint, "GET", "/_sqslite/sns/deliveries", &[], "")
        .await
        .json();
    // An eighth of 128 descriptors, at least 16; one endpoint takes 16 at most.
    assert!(got["http_in_flight"].as_u64().unwrap() <= 16, "{got}");
    assert!(got["http_waiting"].as_u64().unwrap() >= 584, "{got}");
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}
