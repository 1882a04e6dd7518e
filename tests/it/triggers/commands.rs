//! `command` functions end with their invocation: the whole process group is killed on a
//! timeout (and at the end of every invocation), so is a descendant that left the group for a
//! session of its own (`setsid`, as daemons do), and a response past Lambda's 6 MB is a
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

/// A script line that starts `sleep 1000` in a session of its own, out of the invocation's
/// process group as a daemon is, writes its pid to `file` and waits until it is written.
fn escape(file: &std::path::Path) -> String {
    let file = file.display();
    format!(
        "setsid sh -c 'echo $$ > {file}.tmp && mv {file}.tmp {file}; exec sleep 1000' \
         </dev/null >/dev/null 2>&1 & while [ ! -s {file} ]; do sleep 0.01; done"
    )
}

/// Whether `pid` still runs; a zombie has ended, it only waits for its parent's wait.
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

/// Whether `pid` ends within three seconds (SIGKILL is delivered at once; the reaping is
/// the kernel's and its parent's).
async fn ends_soon(pid: &str) -> bool {
    for _ in 0..60 {
        if !alive(pid) {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let _ = std::process::Command::new("kill")
        .args(["-9", pid])
        .status();
    false
}

/// A server whose function starts a daemon, writing its pid to `dir/name`, then runs `rest`;
/// the message that invokes it is sent.
async fn daemon_then(
    dir: &std::path::Path,
    name: &str,
    rest: &str,
    timeout: u64,
) -> (TestServer, std::path::PathBuf) {
    let file = dir.join(name);
    let s = serve_script(
        &format!("cat >/dev/null; {}; {rest}", escape(&file)),
        timeout,
    )
    .await;
    s.send(&s.server.queue_url("orders"), name).await;
    (s, file)
}

/// The pid in `file`, once the script has written it (within five seconds).
async fn pid_in(file: &std::path::Path) -> String {
    for _ in 0..100 {
        let pid = std::fs::read_to_string(file).unwrap_or_default();
        if !pid.is_empty() {
            return pid.trim().to_owned();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the script did not start its daemon");
}

/// Linux only in effect: elsewhere `/proc` is missing, and `alive` says no at once.
#[tokio::test]
async fn a_descendant_in_a_session_of_its_own_ends_with_the_invocation() {
    let dir = std::env::temp_dir().join(format!("sqslite-setsid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Returned: the batch is deleted once the script exits, with the daemon still running.
    let (s, file) = daemon_then(&dir, "returned", "true", 10).await;
    s.wait_counts(&s.server.queue_url("orders"), (0, 0)).await;
    let pid = pid_in(&file).await;
    assert!(ends_soon(&pid).await, "{pid} outlived its invocation");
    // Timed out: the script is still running when the invocation ends.
    let (s, file) = daemon_then(&dir, "timed-out", "sleep 30", 1).await;
    s.wait_counter("sqslite_trigger_errors_total", "orders", 1)
        .await;
    let pid = pid_in(&file).await;
    assert!(ends_soon(&pid).await, "{pid} outlived its timeout");
    // Dropped: the server stops while the script runs.
    let (s, file) = daemon_then(&dir, "stopped", "sleep 30", 20).await;
    let pid = pid_in(&file).await;
    s.server.shutdown().await;
    assert!(ends_soon(&pid).await, "{pid} outlived the server");
    std::fs::remove_dir_all(&dir).unwrap();
}
