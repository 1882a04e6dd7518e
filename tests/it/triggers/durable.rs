//! Durable event source mappings through the real binary and the real `aws-sdk-lambda`
//! client: mappings created, updated (Enabled, BatchSize, FilterCriteria, ScalingConfig,
//! FunctionResponseTypes) and deleted through the Lambda API are there, with their UUIDs,
//! states, settings and LastModified, after a clean restart (SIGTERM), after SIGKILL and
//! from a snapshot plus the log after it; a restored enabled mapping polls again. A declared
//! mapping is declared again at start and keeps its stored UUID.

use std::path::Path;
use std::process::Stdio;

use aws_sdk_lambda::types::{
    EventSourceMappingConfiguration, Filter, FilterCriteria, FunctionResponseType, ScalingConfig,
};

use serde_json::Value;

use crate::common::durable::{command, temp_dir, Proc};
use crate::common::lambda::Handler;

/// `sqslite.toml` declaring `orders` and `audit`, both invoking `handler`, plus `extra`.
fn config(dir: &Path, handler: &Handler, extra: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.with_extension("toml");
    let text = format!(
        "[[functions]]\nname = \"orders\"\nurl = \"{url}\"\n\n\
         [[functions]]\nname = \"audit\"\nurl = \"{url}\"\n\n{extra}",
        url = handler.url
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn start(dir: &Path, config: &Path) -> Proc {
    let mut cmd = command(dir);
    cmd.arg("--config")
        .arg(config)
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped());
    Proc::spawn(cmd)
}

/// Stops the server with SIGTERM, as a clean shutdown.
fn stop(mut p: Proc) {
    let pid = p.child.id().to_string();
    let status = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(p.child.wait().unwrap().success(), "a clean exit");
}

fn lambda(p: &Proc) -> aws_sdk_lambda::Client {
    let config = aws_sdk_lambda::Config::builder()
        .behavior_version(aws_sdk_lambda::config::BehaviorVersion::latest())
        .region(aws_sdk_lambda::config::Region::new("us-east-1"))
        .endpoint_url(&p.endpoint)
        .credentials_provider(aws_sdk_lambda::config::Credentials::new(
            "AKIDEXAMPLE",
            "secret",
            None,
            None,
            "test",
        ))
        .retry_config(aws_sdk_lambda::config::retry::RetryConfig::disabled())
        .build();
    aws_sdk_lambda::Client::from_conf(config)
}

/// Every mapping, once none is in a transitional state.
async fn settled(l: &aws_sdk_lambda::Client) -> Vec<EventSourceMappingConfiguration> {
    for _ in 0..500 {
        let out = l.list_event_source_mappings().send().await.unwrap();
        let all = out.event_source_mappings.unwrap_or_default();
        let done = all
            .iter()
            .all(|m| matches!(m.state.as_deref(), Some("Enabled" | "Disabled")));
        if done {
            return all;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the mappings did not settle");
}

fn create(
    l: &aws_sdk_lambda::Client,
    function: &str,
    arn: &str,
) -> aws_sdk_lambda::operation::create_event_source_mapping::builders::CreateEventSourceMappingFluentBuilder
{
    l.create_event_source_mapping()
        .function_name(function)
        .event_source_arn(arn)
}

/// Three mappings made and changed through the API: `orders` with every setting, `audit`
/// updated (disabled, a new BatchSize, its filter dropped), a third deleted.
async fn write_state(p: &Proc) -> (String, String) {
    let l = lambda(p);
    let (_, orders) = p.queue("orders").await;
    let (_, audit) = p.queue("audit").await;
    let (_, spare) = p.queue("spare").await;
    let pattern = r#"{"body":{"kind":["order"]}}"#;
    let kept = create(&l, "orders", &orders)
        .batch_size(5)
        .filter_criteria(
            FilterCriteria::builder()
                .filters(Filter::builder().pattern(pattern).build())
                .build(),
        )
        .scaling_config(ScalingConfig::builder().maximum_concurrency(3).build())
        .function_response_types(FunctionResponseType::ReportBatchItemFailures)
        .send()
        .await
        .unwrap();
    let changed = create(&l, "audit", &audit)
        .filter_criteria(
            FilterCriteria::builder()
                .filters(Filter::builder().pattern(pattern).build())
                .build(),
        )
        .send()
        .await
        .unwrap();
    let gone = create(&l, "orders", &spare).send().await.unwrap();
    settled(&l).await;
    l.update_event_source_mapping()
        .uuid(changed.uuid.clone().unwrap())
        .enabled(false)
        .batch_size(7)
        .filter_criteria(FilterCriteria::builder().build())
        .send()
        .await
        .unwrap();
    l.delete_event_source_mapping()
        .uuid(gone.uuid.unwrap())
        .send()
        .await
        .unwrap();
    (kept.uuid.unwrap(), changed.uuid.unwrap())
}

/// Sends `body` and waits until the function has been handed it, in the `seen`th event or a
/// later one: delivery is at least once, so a message the poller had taken when the process was
/// killed (its receive not yet in the log) may come again first, alone or beside this one.
async fn delivered(p: &Proc, handler: &Handler, body: &str, seen: usize) {
    let url = format!("{}/000000000000/orders", p.endpoint);
    crate::common::durable::send(&p.client, &url, body).await;
    let mut wanted = seen;
    loop {
        let events = handler.wait_events(wanted).await;
        let bodies: Vec<&Value> = events
            .iter()
            .filter_map(|e| e["Records"].as_array())
            .flatten()
            .map(|r| &r["body"])
            .collect();
        if bodies.iter().any(|b| *b == body) {
            return;
        }
        wanted = events.len() + 1;
    }
}

#[tokio::test]
async fn api_mappings_survive_restarts_kills_and_snapshots() {
    let handler = Handler::start(vec![]).await;
    let dir = temp_dir("triggers-api");
    let config = config(&dir, &handler, "");
    let p = start(&dir, &config);
    let (kept, changed) = write_state(&p).await;
    let before = settled(&lambda(&p)).await;
    assert_eq!(before.len(), 2, "{before:?}");
    let states: Vec<_> = before.iter().map(|m| m.state.clone().unwrap()).collect();
    assert_eq!(states.len(), 2);
    let get = |uuid: &str| {
        before
            .iter()
            .find(|m| m.uuid.as_deref() == Some(uuid))
            .unwrap()
            .clone()
    };
    assert_eq!(get(&kept).state.as_deref(), Some("Enabled"));
    assert_eq!(get(&changed).state.as_deref(), Some("Disabled"));
    assert_eq!(get(&changed).batch_size, Some(7));

    stop(p);
    let p = start(&dir, &config);
    assert_eq!(settled(&lambda(&p)).await, before, "after a clean restart");
    // A restored enabled mapping polls again: its filter lets `order` through.
    delivered(&p, &handler, r#"{"kind":"order","n":1}"#, 1).await;

    p.kill();
    let p = start(&dir, &config);
    assert_eq!(settled(&lambda(&p)).await, before, "after SIGKILL");
    delivered(&p, &handler, r#"{"kind":"order","n":2}"#, 2).await;

    // A snapshot, then a change only the log after it holds, then SIGKILL at once.
    let r = crate::common::raw(&p.endpoint, "POST", "/_sqslite/snapshot", &[], "{}").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let l = lambda(&p);
    l.delete_event_source_mapping()
        .uuid(&changed)
        .send()
        .await
        .unwrap();
    let (_, late) = p.queue("late").await;
    let made = create(&l, "audit", &late).send().await.unwrap();
    p.kill();
    let p = start(&dir, &config);
    let after = settled(&lambda(&p)).await;
    let uuids: Vec<_> = after.iter().map(|m| m.uuid.clone().unwrap()).collect();
    let mut expected = vec![kept.clone(), made.uuid.clone().unwrap()];
    expected.sort();
    assert_eq!(uuids, expected);
    assert_eq!(
        after.iter().find(|m| m.uuid.as_deref() == Some(&kept)),
        Some(&get(&kept))
    );
    let late_one = after.iter().find(|m| m.uuid == made.uuid).unwrap();
    assert_eq!(late_one.state.as_deref(), Some("Enabled"));
    assert_eq!(late_one.last_modified, made.last_modified);
    delivered(&p, &handler, r#"{"kind":"order","n":3}"#, 3).await;
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_declared_mapping_keeps_its_uuid_and_takes_the_declared_settings() {
    let handler = Handler::start(vec![]).await;
    let dir = temp_dir("triggers-declared");
    let declared = "[[queues]]\nname = \"orders\"\n\n\
                    [[event_source_mappings]]\nfunction = \"orders\"\nqueue = \"orders\"\nbatch_size = 5\n";
    let config = config(&dir, &handler, declared);
    let p = start(&dir, &config);
    let l = lambda(&p);
    let first = settled(&l).await;
    assert_eq!(first.len(), 1, "{first:?}");
    let uuid = first[0].uuid.clone().unwrap();
    l.update_event_source_mapping()
        .uuid(&uuid)
        .batch_size(3)
        .send()
        .await
        .unwrap();
    settled(&l).await;
    p.kill();
    let p = start(&dir, &config);
    let again = settled(&lambda(&p)).await;
    assert_eq!(again.len(), 1, "declared once, not twice: {again:?}");
    assert_eq!(again[0].uuid.as_deref(), Some(uuid.as_str()));
    assert_eq!(again[0].batch_size, Some(5), "the declaration wins");
    delivered(&p, &handler, "declared", 1).await;
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn an_admin_reset_forgets_the_stored_mappings() {
    let handler = Handler::start(vec![]).await;
    let dir = temp_dir("triggers-reset");
    let config = config(&dir, &handler, "");
    let p = start(&dir, &config);
    let (_, orders) = p.queue("orders").await;
    create(&lambda(&p), "orders", &orders).send().await.unwrap();
    assert_eq!(settled(&lambda(&p)).await.len(), 1);
    let r = crate::common::raw(&p.endpoint, "POST", "/_sqslite/reset", &[], "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    p.kill();
    let p = start(&dir, &config);
    assert_eq!(settled(&lambda(&p)).await, vec![]);
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}
