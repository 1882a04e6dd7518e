//! Durable data as evidence, through the real binary: a damaged log stops the start and
//! `--repair` keeps what it can; admin actions are acknowledged only once stored; the data
//! directory and its files are private to the server's user.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::common::durable::{attribute, chattr, command, log_file, receive, send, temp_dir, Proc};
use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client;

async fn create(c: &Client, name: &str) -> String {
    let made = c.create_queue().queue_name(name).send().await.unwrap();
    made.queue_url().unwrap().to_owned()
}

async fn visible(c: &Client, url: &str) -> usize {
    let n = attribute(c, url, QueueAttributeName::ApproximateNumberOfMessages).await;
    n.parse().unwrap()
}

/// Runs `cmd`, which must refuse to start: its output once it exits. A server that starts
/// instead (it would run forever) is killed and fails the test.
fn refused(mut cmd: std::process::Command) -> std::process::Output {
    use std::process::Stdio;
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..300 {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    panic!(
        "the server started instead of refusing: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The files of `dir` whose names contain `part`.
fn named(dir: &Path, part: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(part))
        .collect()
}

/// The files directly in `dir` (its folders, such as S3's, left out).
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut all = named(dir, "");
    all.retain(|p| p.is_file());
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flipped_bit_in_the_log_stops_the_start_and_a_repair_keeps_the_rest() {
    let dir = temp_dir("flipped");
    let p = Proc::start(&dir);
    let url = create(&p.client, "q").await;
    for i in 0..200 {
        send(&p.client, &url, &format!("message-{i:03}")).await;
    }
    p.kill();
    let log = log_file(&dir);
    let mut bytes = std::fs::read(&log).unwrap();
    let at = bytes.len() / 10;
    bytes[at] ^= 0x04;
    std::fs::write(&log, &bytes).unwrap();

    let out = refused(command(&dir));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    let name = log.file_name().unwrap().to_string_lossy();
    assert!(stderr.contains(&*name), "{stderr}");
    assert!(stderr.contains("at byte "), "{stderr}");
    assert!(stderr.contains("--repair"), "{stderr}");
    assert!(stderr.contains("drop 1 record(s)"), "{stderr}");
    assert_eq!(std::fs::read(&log).unwrap(), bytes, "nothing was cut");

    let mut cmd = command(&dir);
    cmd.arg("--repair");
    let p = Proc::spawn(cmd);
    assert_eq!(visible(&p.client, &url).await, 199, "{:?}", p.log);
    let report = p.log.join("\n");
    assert!(report.contains("could_not_recover=1"), "{report}");
    let aside = named(&dir, ".damaged");
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::read(&aside[0]).unwrap(), bytes, "kept as it was");
    send(&p.client, &url, "after the repair").await;
    p.kill();

    let p = Proc::start(&dir);
    assert_eq!(visible(&p.client, &url).await, 200);
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Undoes `chattr +i` however the test ends, so the directory can be removed.
struct Immutable(Vec<PathBuf>);

impl Drop for Immutable {
    fn drop(&mut self) {
        let paths: Vec<&Path> = self.0.iter().map(PathBuf::as_path).collect();
        chattr("-i", &paths);
    }
}

async fn admin(p: &Proc, path: &str, body: &str) -> crate::common::RawResponse {
    let json = [("content-type", "application/json")];
    crate::common::raw(&p.endpoint, "POST", path, &json, body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_actions_are_acknowledged_only_once_stored() {
    let dir = temp_dir("admin");
    let p = Proc::start(&dir);
    let c = &p.client;
    let url = create(c, "q").await;
    let dlq = create(c, "q-dlq").await;
    let dlq_arn = attribute(c, &dlq, QueueAttributeName::QueueArn).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":"1"}}"#);
    c.set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::RedrivePolicy, redrive)
        .send()
        .await
        .unwrap();
    send(c, &dlq, "dead").await;
    let sent = format!(r#"{{"QueueUrl":"{url}","MessageBody":"from the dashboard"}}"#);
    let r = admin(&p, "/_sqslite/sqs/SendMessage", &sent).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let log = log_file(&dir);
    let undo = Immutable(vec![log.clone(), dir.clone()]);
    if !chattr("+i", &[&log, &dir]) {
        eprintln!("skipped: chattr +i is not available here (needs root on ext4/xfs/btrfs)");
        return;
    }
    let refused = format!(r#"{{"QueueUrl":"{url}","MessageBody":"refused"}}"#);
    let purge = format!(r#"{{"QueueUrl":"{url}"}}"#);
    let move_task = format!(r#"{{"SourceArn":"{dlq_arn}"}}"#);
    for (path, body) in [
        ("/_sqslite/sqs/SendMessage", refused.as_str()),
        ("/_sqslite/sqs/PurgeQueue", purge.as_str()),
        ("/_sqslite/sqs/StartMessageMoveTask", move_task.as_str()),
        ("/_sqslite/reset", ""),
    ] {
        let r = admin(&p, path, body).await;
        assert_eq!(r.status, 500, "{path}: {}", r.body);
        assert!(r.body.contains("InternalError"), "{path}: {}", r.body);
        assert!(r.body.contains("could not be stored"), "{path}: {}", r.body);
    }
    p.kill();
    drop(undo);

    // Only what was acknowledged is there: the dashboard's first message and the dead one.
    let p = Proc::start(&dir);
    let bodies: Vec<_> = receive(&p.client, &url, 10)
        .await
        .iter()
        .map(|m| m.body().unwrap().to_owned())
        .collect();
    assert_eq!(bodies, ["from the dashboard"]);
    assert_eq!(visible(&p.client, &dlq).await, 1);
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_data_directory_and_its_files_are_private() {
    let dir = temp_dir("private");
    let p = Proc::start(&dir);
    let url = create(&p.client, "q").await;
    send(&p.client, &url, "a body only the server's user may read").await;
    let backup = dir.with_extension("backup");
    let _ = std::fs::remove_dir_all(&backup);
    let body = format!(r#"{{"backup_to":"{}"}}"#, backup.display());
    let r = admin(&p, "/_sqslite/snapshot", &body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    p.kill();
    for d in [&dir, &backup] {
        assert_eq!(mode(d), 0o700, "{}", d.display());
        for file in files(d) {
            assert_eq!(mode(&file), 0o600, "{}", file.display());
        }
    }
    // S3's object files go in folders of their own, as private.
    for sub in ["s3", "s3/objects", "s3/tmp"] {
        assert_eq!(mode(&dir.join(sub)), 0o700, "{sub}");
    }

    // A directory made by hand (or by an older release) with looser modes: the server's own
    // files are tightened, the directory itself is named in a warning and left as it is.
    set_mode(&dir, 0o755);
    for file in files(&dir) {
        set_mode(&file, 0o644);
    }
    let p = Proc::start(&dir);
    let log = p.log.join("\n");
    assert!(log.contains("chmod 700"), "{log}");
    assert_eq!(mode(&dir), 0o755);
    for file in files(&dir) {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&backup);
}

/// An SNS Query request to the server at `p`, unsigned; its answer's body.
async fn sns(p: &Proc, params: &[(&str, &str)]) -> String {
    let body: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish();
    let form = [("content-type", "application/x-www-form-urlencoded")];
    crate::common::raw(&p.endpoint, "POST", "/", &form, &body)
        .await
        .body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repair_counts_the_subscriptions_of_a_topic_it_lost() {
    let dir = temp_dir("lost-topic");
    let p = Proc::start(&dir);
    let topic = "arn:aws:sns:us-east-1:000000000000:orders";
    let made = sns(&p, &[("Action", "CreateTopic"), ("Name", "orders")]).await;
    assert!(made.contains(topic), "{made}");
    for q in ["a", "b"] {
        let url = create(&p.client, q).await;
        let arn = attribute(&p.client, &url, QueueAttributeName::QueueArn).await;
        let sub = [
            ("Action", "Subscribe"),
            ("TopicArn", topic),
            ("Protocol", "sqs"),
            ("Endpoint", arn.as_str()),
        ];
        assert!(sns(&p, &sub).await.contains("SubscriptionArn"));
    }
    p.kill();
    // Damage the topic's own record: the first place its ARN is written.
    let log = log_file(&dir);
    let mut bytes = std::fs::read(&log).unwrap();
    let at = bytes
        .windows(topic.len())
        .position(|w| w == topic.as_bytes())
        .expect("the topic's record");
    bytes[at + topic.len() - 1] ^= 0x01;
    std::fs::write(&log, &bytes).unwrap();

    let mut cmd = command(&dir);
    cmd.arg("--repair");
    let p = Proc::spawn(cmd);
    let report = p.log.join("\n");
    assert!(report.contains("could_not_recover=1"), "{report}");
    assert!(
        report.contains("subscriptions=2") && report.contains("topic's record was lost"),
        "{report}"
    );
    let listed = sns(&p, &[("Action", "ListSubscriptions")]).await;
    assert!(!listed.contains(topic), "{listed}");
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}
