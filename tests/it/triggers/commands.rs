//! `command` functions end with their invocation: the whole process group is killed on a
//! timeout (and at the end of every invocation), and a response past Lambda's 6 MB is a
//! function error, read no further.

use sqslite::config::{Function, Target};
use sqslite::{Config, QueueDecl};

use crate::common::TestServer;
use crate::triggers::mapping;

/// A server whose `orders-handler` runs `sh -c script`, timing out after `timeout` seconds.
async fn serve_script(script: &str, timeout: u64) -> TestServer {
    let mut config = Config::ephemeral().with_queue(QueueDecl::new("orders"));
    let argv = vec!["sh".into(), "-c".into(), script.into()];
    let mut f = Function::new("orders-handler", Target::Command(argv));
    f.timeout = std::time::Duration::from_secs(timeout);
    config.triggers.functions.push(f);
    config.triggers.mappings.push(mapping("orders"));
    TestServer::start_with(config).await
}

/// Processes whose command line has `marker`.
fn running(marker: &str) -> usize {
    let out = std::process::Command::new("pgrep")
        .args(["-f", marker])
        .output()
        .expect("pgrep runs");
    String::from_utf8_lossy(&out.stdout).lines().count()
}

#[tokio::test]
async fn a_timed_out_command_leaves_no_process_behind() {
    // A sleep of a length no other test uses, so pgrep finds this test's processes only.
    let marker = format!("sleep 3017.{}", std::process::id() % 1000);
    let script = format!("cat >/dev/null; ({marker} &); {marker}");
    let s = serve_script(&script, 1).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "slow").await;
    s.wait_counter("sqslite_trigger_errors_total", "orders", 1)
        .await;
    // SIGKILL is delivered at once, but the kernel reaps asynchronously: a short wait.
    let mut left = running(&marker);
    for _ in 0..40 {
        if left == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        left = running(&marker);
    }
    let _ = std::process::Command::new("pkill")
        .args(["-f", &marker])
        .status();
    assert_eq!(
        left, 0,
        "the command's background child outlived its timeout"
    );
    assert_eq!(s.counts(&url).await.1, 1, "the batch stays in flight");
}

#[tokio::test]
async fn a_response_past_six_megabytes_is_a_function_error() {
    let s = serve_script("cat >/dev/null; head -c 7000000 /dev/zero", 10).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "big answer").await;
    s.wait_counter("sqslite_trigger_errors_total", "orders", 1)
        .await;
    assert_eq!(s.counts(&url).await.1, 1, "the batch stays in flight");
    // Under the limit, the same command returns.
    let s = serve_script("cat >/dev/null; head -c 6000000 /dev/zero | tr '\\0' x", 10).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "small answer").await;
    s.wait_counts(&url, (0, 0)).await;
}

#[tokio::test]
async fn a_flood_on_stderr_is_read_and_dropped() {
    let script = "cat >/dev/null; head -c 20000000 /dev/zero >&2; exit 3";
    let s = serve_script(script, 10).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "noisy").await;
    s.wait_counter("sqslite_trigger_errors_total", "orders", 1)
        .await;
    assert_eq!(s.counts(&url).await.1, 1);
}
