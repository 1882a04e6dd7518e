//! How loud alarm transitions are: at `info` only when sqslite.toml has an `[alarms]` table,
//! else at `debug`, so the alarms an ordinary test run trips (a DLQ filled on purpose, a
//! message received once on a queue with maxReceiveCount 2) keep a CI log quiet.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const QUEUES: &str = "[[queues]]\nname = \"orders-dlq\"\n\n\
    [[queues]]\nname = \"orders\"\ndead_letter_queue = \"orders-dlq\"\nmax_receive_count = 2\n";

/// Runs the binary on `config` with `SQSLITE_LOG=log`, trips the `dlq_depth` and
/// `receive_count` alarms, reads the alarms (which evaluates them) and returns the log.
async fn log_of_a_run(dir: &Path, config: &str, log: &str) -> String {
    let (config_path, log_path) = (dir.join("sqslite.toml"), dir.join("stderr.log"));
    fs::write(&config_path, config).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_sqslite"))
        .args(["--port", "0", "--config", config_path.to_str().unwrap()])
        .env("SQSLITE_LOG", log)
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log_path).unwrap())
        .spawn()
        .unwrap();
    let child = crate::common::KillOnDrop(child);
    let endpoint = listening_on(&log_path);
    let client = crate::common::client_for(&endpoint, "us-east-1", "test");
    let base = format!("{endpoint}/000000000000");
    for (queue, body) in [
        ("orders-dlq", "dead on purpose"),
        ("orders", "received once"),
    ] {
        let sent = client.send_message().queue_url(format!("{base}/{queue}"));
        sent.message_body(body).send().await.unwrap();
    }
    let received = client.receive_message().queue_url(format!("{base}/orders"));
    assert_eq!(received.send().await.unwrap().messages().len(), 1);
    let alarms = crate::common::raw(&endpoint, "GET", "/_sqslite/alarms", &[], "").await;
    let firing: Vec<String> = alarms.json()["alarms"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["state"] == "ALARM")
        .map(|a| a["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(firing, ["dlq_depth", "receive_count"], "{}", alarms.body);
    drop(child); // the whole log is written once the server is gone
    fs::read_to_string(&log_path).unwrap()
}

fn listening_on(log: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let text = fs::read_to_string(log).unwrap_or_default();
        if let Some(rest) = text.split("sqslite listening on ").nth(1) {
            return rest.split_whitespace().next().unwrap().to_owned();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no listening line in {}", log.display());
}

/// A fresh directory for one test's config and log.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("sqslite-alarm-logs-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn fired_lines(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.contains("alarm fired")).collect()
}

#[tokio::test]
async fn alarms_an_ordinary_run_trips_are_logged_at_debug() {
    let dir = temp_dir("default");
    let log = log_of_a_run(&dir, QUEUES, "info").await;
    assert_eq!(fired_lines(&log), Vec::<&str>::new(), "{log}");
    // Still there for whoever asks.
    let log = log_of_a_run(&dir, QUEUES, "info,sqslite::alarms=debug").await;
    let fired = fired_lines(&log);
    assert_eq!(fired.len(), 2, "{log}");
    assert!(fired.iter().all(|l| l.contains("DEBUG")), "{log}");
    fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn configured_alarms_are_logged_at_info() {
    let dir = temp_dir("configured");
    let config = format!("[alarms]\nstall_seconds = 300\n\n{QUEUES}");
    let log = log_of_a_run(&dir, &config, "info").await;
    let fired = fired_lines(&log);
    assert_eq!(fired.len(), 2, "{log}");
    assert!(fired.iter().all(|l| l.contains("INFO")), "{log}");
    assert!(
        log.contains("alarm=dlq_depth:us-east-1/000000000000/orders-dlq"),
        "{log}"
    );
    fs::remove_dir_all(dir).unwrap();
}
