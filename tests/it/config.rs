//! Config files: every fixture's declared queues are found with their attributes through the
//! real SDK, ElasticMQ configs work unchanged, bad files fail naming file, line and problem, and
//! the advisor and alarm thresholds are read and printed back by `--print-config`.

use std::collections::HashMap;

use crate::common::{client_for, expect_code, message, TestServer};
use aws_sdk_sqs::types::QueueAttributeName;
use sqslite::Config;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/config/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The fixture's configuration on an ephemeral loopback port, as a flag would override it.
fn load(name: &str) -> Config {
    let mut config = Config::from_file(fixture(name))
        .expect("fixture parses")
        .config;
    config.host = "127.0.0.1".into();
    config.port = 0;
    config
}

async fn attributes(client: &aws_sdk_sqs::Client, name: &str) -> HashMap<String, String> {
    let url = client
        .get_queue_url()
        .queue_name(name)
        .send()
        .await
        .unwrap_or_else(|e| panic!("queue {name} exists: {e:?}"))
        .queue_url
        .unwrap();
    let out = client
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(QueueAttributeName::All)
        .send()
        .await
        .expect("attributes");
    out.attributes()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.as_str().to_owned(), v.clone()))
        .collect()
}

async fn tags(ts: &TestServer, name: &str) -> HashMap<String, String> {
    let url = ts
        .client
        .get_queue_url()
        .queue_name(name)
        .send()
        .await
        .unwrap();
    let out = ts
        .client
        .list_queue_tags()
        .queue_url(url.queue_url.unwrap())
        .send()
        .await
        .unwrap();
    out.tags().cloned().unwrap_or_default()
}

fn redrive(attrs: &HashMap<String, String>) -> serde_json::Value {
    serde_json::from_str(&attrs["RedrivePolicy"]).expect("RedrivePolicy is JSON")
}

#[tokio::test]
async fn sqslite_toml_declares_every_queue_with_its_attributes() {
    let ts = TestServer::start_with(load("sqslite.toml")).await;
    let orders = attributes(&ts.client, "orders").await;
    assert_eq!(orders["VisibilityTimeout"], "60");
    assert_eq!(orders["DelaySeconds"], "5");
    assert_eq!(orders["ReceiveMessageWaitTimeSeconds"], "20");
    let policy = redrive(&orders);
    assert_eq!(
        policy["deadLetterTargetArn"],
        "arn:aws:sqs:us-east-1:000000000000:orders-dlq"
    );
    assert_eq!(policy["maxReceiveCount"], 3);
    let orders_tags = tags(&ts, "orders").await;
    assert_eq!(orders_tags["team"], "payments");
    assert_eq!(orders_tags["env"], "ci");

    let dlq = attributes(&ts.client, "orders-dlq").await;
    assert_eq!(dlq["MessageRetentionPeriod"], "1209600");
    let dlq_url = ts.server.queue_url("orders-dlq");
    let sources = ts
        .client
        .list_dead_letter_source_queues()
        .queue_url(&dlq_url)
        .send()
        .await
        .unwrap();
    assert_eq!(sources.queue_urls().len(), 1);
    assert!(sources.queue_urls()[0].ends_with("/000000000000/orders"));

    let payments = attributes(&ts.client, "payments.fifo").await;
    assert_eq!(payments["FifoQueue"], "true");
    assert_eq!(payments["ContentBasedDeduplication"], "true");
    assert_eq!(redrive(&payments)["maxReceiveCount"], 5);
    let payments_dlq = attributes(&ts.client, "payments-dlq.fifo").await;
    assert!(payments_dlq["RedriveAllowPolicy"].contains("byQueue"));

    let eu = client_for(&ts.endpoint(), "eu-west-1", "AKIDEXAMPLE");
    let audit = attributes(&eu, "audit").await;
    assert_eq!(audit["MaximumMessageSize"], "2048");
    assert_eq!(
        audit["QueueArn"],
        "arn:aws:sqs:eu-west-1:000000000000:audit"
    );
}

#[tokio::test]
async fn templates_create_matching_queues_on_first_use_only() {
    let ts = TestServer::start_with(load("sqslite.toml")).await;
    let scratch = attributes(&ts.client, "scratch-42").await;
    assert_eq!(scratch["VisibilityTimeout"], "5");
    expect_code(
        ts.client
            .get_queue_url()
            .queue_name("unrelated")
            .send()
            .await,
        "AWS.SimpleQueueService.NonExistentQueue",
    );
}

#[tokio::test]
async fn elasticmq_conf_works_unchanged() {
    let loaded = Config::from_file(fixture("elasticmq.conf")).unwrap();
    assert_eq!(loaded.config.host, "0.0.0.0");
    assert_eq!(loaded.config.port, 9324);
    assert!(loaded.warnings.iter().any(|w| w.contains("rest-stats")));
    assert!(loaded.warnings.iter().any(|w| w.contains("include")));

    let ts = TestServer::start_with(load("elasticmq.conf")).await;
    let q1 = attributes(&ts.client, "queue1").await;
    assert_eq!(q1["VisibilityTimeout"], "10");
    assert_eq!(q1["DelaySeconds"], "5");
    assert_eq!(q1["ReceiveMessageWaitTimeSeconds"], "0");
    assert!(!q1.contains_key("FifoQueue"));
    let policy = redrive(&q1);
    assert_eq!(
        policy["deadLetterTargetArn"],
        "arn:aws:sqs:us-east-1:000000000000:queue1-dead-letters"
    );
    assert_eq!(policy["maxReceiveCount"], 3);
    let q1_tags = tags(&ts, "queue1").await;
    assert_eq!(
        (q1_tags["tag1"].as_str(), q1_tags["tag2"].as_str()),
        ("tagged1", "tagged2")
    );
    attributes(&ts.client, "queue1-dead-letters").await;

    let events = attributes(&ts.client, "events.fifo").await;
    assert_eq!(events["FifoQueue"], "true");
    assert_eq!(events["ContentBasedDeduplication"], "true");
    assert_eq!(events["VisibilityTimeout"], "60");
    let plain = attributes(&ts.client, "plain").await;
    assert_eq!(plain["ReceiveMessageWaitTimeSeconds"], "20");
}

/// nestjs-sqs's CI file starts sqslite unchanged: ElasticMQ names a `fifo = true` queue
/// `<key>.fifo` (`addSuffixWhenFifoQueue` in its server config), so its e2e suite finds
/// `test.fifo` and `test-dead.fifo`, the first dead-lettering into the second.
#[tokio::test]
async fn nestjs_sqs_conf_declares_its_fifo_queues() {
    let loaded = Config::from_file(fixture("nestjs-sqs.conf")).unwrap();
    let names: Vec<&str> = loaded
        .config
        .queues
        .iter()
        .map(|q| q.name.as_str())
        .collect();
    assert_eq!(names, ["test.fifo", "test-dead.fifo"]);
    let ts = TestServer::start_with(load("nestjs-sqs.conf")).await;
    let test = attributes(&ts.client, "test.fifo").await;
    assert_eq!(test["FifoQueue"], "true");
    assert_eq!(test["ContentBasedDeduplication"], "false");
    assert_eq!(test["VisibilityTimeout"], "10");
    let policy = redrive(&test);
    assert_eq!(
        policy["deadLetterTargetArn"],
        "arn:aws:sqs:us-east-1:000000000000:test-dead.fifo"
    );
    assert_eq!(policy["maxReceiveCount"], 1);
    assert_eq!(
        attributes(&ts.client, "test-dead.fifo").await["FifoQueue"],
        "true"
    );

    // A FIFO queue's dead-letter name takes the suffix too; a listening address beyond
    // loopback says at start what locks the dashboard and the admin API.
    let file = r#"
        rest-sqs { bind-hostname = "0.0.0.0" }
        queues {
          orders { fifo = true, deadLettersQueue { name = "orders-dead", maxReceiveCount = 3 } }
          orders-dead { fifo = true }
        }
    "#;
    let loaded = Config::from_text("elasticmq.conf", file).unwrap();
    let orders = &loaded.config.queues[0];
    assert_eq!(orders.name, "orders.fifo");
    assert_eq!(
        orders.dead_letter.as_ref().unwrap().target,
        "orders-dead.fifo"
    );
    assert_eq!(loaded.config.queues[1].name, "orders-dead.fifo");
    let warned: Vec<&String> = loaded
        .warnings
        .iter()
        .filter(|w| w.contains("bind-hostname"))
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", loaded.warnings);
    assert!(warned[0].contains("--admin-token"), "{}", warned[0]);
}

/// What startup reports for a file: a parse error, or the declared queues' creation error.
async fn startup_error(path: &str) -> String {
    match Config::from_file(path) {
        Err(e) => e.to_string(),
        Ok(loaded) => {
            let config = Config {
                port: 0,
                ..loaded.config
            };
            match TestServer::try_start_with(config).await {
                Ok(_) => panic!("{path} should not start"),
                Err(e) => e.to_string(),
            }
        }
    }
}

#[tokio::test]
async fn bad_configs_fail_naming_file_line_and_problem() {
    let dir = fixture("bad");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{} has no `# expect:` line", path.display()));
        let error = startup_error(path.to_str().unwrap()).await;
        assert!(
            error.starts_with(&format!("{dir}/")) && error.contains(expect),
            "{}:\n  got:  {error}\n  want: {expect}",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 10);
}

#[tokio::test]
async fn a_missing_file_is_named() {
    let error = Config::from_file("no/such/sqslite.toml").unwrap_err();
    assert!(error
        .to_string()
        .starts_with("no/such/sqslite.toml: cannot read the file"));
}

#[tokio::test]
async fn declared_queues_exist_when_health_first_answers() {
    let mut config = Config::ephemeral();
    for i in 0..100 {
        config = config.with_queue(sqslite::QueueDecl::new(format!("q{i:03}")));
    }
    let ts = TestServer::start_with(config).await;
    let health = ts.raw("GET", "/health", &[], "").await;
    assert_eq!(health.status, 200);
    let listed = ts.client.list_queues().send().await.unwrap();
    assert_eq!(listed.queue_urls().len(), 100);
}

/// `max_queues` caps how many queues the server holds; CreateQueue past it is OverLimit, an
/// error every SDK models (before, the number of queues was unbounded and the key unknown).
#[tokio::test]
async fn max_queues_caps_create_queue() {
    let text = "[server]\nport = 0\nmax_queues = 2\n";
    let config = Config::from_text("sqslite.toml", text).unwrap().config;
    let ts = TestServer::start_with(config).await;
    ts.create_queue("one").await;
    ts.create_queue("two").await;
    // Creating an existing queue again is no new queue.
    ts.create_queue("two").await;
    let err = expect_code(ts.try_create_queue("three", &[]).await, "OverLimit");
    assert!(message(&err).contains("max_queues"), "{}", message(&err));
    ts.client
        .delete_queue()
        .queue_url(format!("{}/000000000000/one", ts.endpoint()))
        .send()
        .await
        .unwrap();
    ts.create_queue("three").await;
}

#[test]
fn advisor_thresholds_in_sqslite_toml_and_print_config() {
    let dir = std::env::temp_dir().join(format!("sqslite-advisor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("advisor.toml");
    std::fs::write(
        &path,
        "[advisor]\nvisibility_factor = 3\nfifo_stall_seconds = 60\n\n[alarms]\nreceive_count = 2\n",
    )
    .unwrap();
    let config = Config::from_file(path.to_str().unwrap()).unwrap().config;
    assert_eq!(config.advisor.visibility_factor, 3);
    assert_eq!(config.advisor.fifo_stall_seconds, 60);
    assert_eq!(
        config.advisor.min_samples, 10,
        "unset keys keep their defaults"
    );
    assert_eq!(config.admin.alarms.receive_count, Some(2));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sqslite"))
        .args(["--config", path.to_str().unwrap(), "--print-config"])
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(
        printed.contains("[advisor]\n") && printed.contains("visibility_factor = 3\n"),
        "{printed}"
    );
    assert!(printed.contains("receive_count = 2"), "{printed}");
    std::fs::write(&path, "[advisor]\nvisibility_factr = 3\n").unwrap();
    let err = Config::from_file(path.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("visibility_factr"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
