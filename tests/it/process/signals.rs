//! The real binary under signals and a low open-file limit: SIGTERM answers parked long polls
//! and exits 0; running out of file descriptors neither spins a core nor silences `/health`.

use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

struct Running {
    child: Child,
    endpoint: String,
    log: mpsc::UnboundedReceiver<String>,
}

impl Running {
    /// Starts `sqslite` with `args` under `ulimit -n <nofile>`; waits for its listening line.
    async fn start(nofile: u32, args: &[&str]) -> Running {
        let script = format!("ulimit -n {nofile} && exec \"$0\" \"$@\"");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_sqslite"))
            .args(["--port", "0"])
            .args(args)
            .env_remove("SQSLITE_ADMIN_TOKEN")
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn sqslite");
        let (tx, mut log) = mpsc::unbounded_channel();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                let _ = tx.send(line);
            }
        });
        let endpoint = loop {
            let line = tokio::time::timeout(Duration::from_secs(10), log.recv())
                .await
                .expect("sqslite logs its address")
                .expect("sqslite exited early");
            if let Some(rest) = line.split("listening on ").nth(1) {
                break rest.split_whitespace().next().unwrap().to_owned();
            }
        };
        Running {
            child,
            endpoint,
            log,
        }
    }

    fn addr(&self) -> String {
        self.endpoint.trim_start_matches("http://").to_owned()
    }

    /// Waits for a log line containing `text`.
    async fn logged(&mut self, text: &str) -> String {
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.log.recv())
                .await
                .unwrap_or_else(|_| panic!("no log line with `{text}`"))
                .expect("log ended");
            if line.contains(text) {
                return line;
            }
        }
    }

    /// CPU time (user + system, in clock ticks) the process has used.
    fn cpu_ticks(&self) -> u64 {
        let pid = self.child.id().expect("running");
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
        let fields: Vec<&str> = stat
            .rsplit(')')
            .next()
            .unwrap()
            .split_whitespace()
            .collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    }

    fn signal(&self, name: &str) {
        let pid = self.child.id().expect("running").to_string();
        let status = std::process::Command::new("kill")
            .args([&format!("-{name}"), &pid])
            .status()
            .expect("kill");
        assert!(status.success());
    }

    async fn exit_code(&mut self) -> Option<i32> {
        tokio::time::timeout(Duration::from_secs(15), self.child.wait())
            .await
            .expect("sqslite exits")
            .expect("wait")
            .code()
    }
}

async fn json(endpoint: &str, action: &str, body: &str) -> crate::common::RawResponse {
    let target = format!("AmazonSQS.{action}");
    crate::common::raw(
        endpoint,
        "POST",
        "/",
        &[
            ("x-amz-target", target.as_str()),
            ("content-type", "application/x-amz-json-1.0"),
        ],
        body,
    )
    .await
}

/// One `/health` on a fresh connection: `None` if the connection was refused or reset, else
/// the complete response's status (a cut-off response fails the test).
async fn health(addr: &str) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
    let request = b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    stream.write_all(request).await.ok()?;
    let mut got = Vec::new();
    match stream.read_to_end(&mut got).await {
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset && got.is_empty() => None,
        Err(e) => panic!("health read failed mid-response: {e}"),
        Ok(_) if got.is_empty() => None,
        Ok(_) => {
            let text = String::from_utf8_lossy(&got);
            assert!(
                text.ends_with(r#"{"status":"ok"}"#),
                "cut-off response: {text}"
            );
            text.split(' ').nth(1)?.parse().ok()
        }
    }
}

#[tokio::test]
async fn sigterm_answers_a_parked_long_poll_and_exits_zero() {
    let mut server = Running::start(1024, &[]).await;
    let endpoint = server.endpoint.clone();
    let created = json(&endpoint, "CreateQueue", r#"{"QueueName":"parked"}"#).await;
    let url = created.json()["QueueUrl"].as_str().unwrap().to_owned();
    let body = format!(r#"{{"QueueUrl":"{url}","WaitTimeSeconds":20}}"#);
    let poll = tokio::spawn({
        let endpoint = endpoint.clone();
        async move { json(&endpoint, "ReceiveMessage", &body).await }
    });
    // A slow request in flight when the signal comes must still be answered in full.
    let fault = r#"{"action":"ListQueues","latency_ms":700}"#;
    let r = crate::common::raw(
        &endpoint,
        "POST",
        "/_sqslite/faults",
        &[("content-type", "application/json")],
        fault,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    loop {
        let r = crate::common::raw(&endpoint, "GET", "/_sqslite/waiters", &[], "").await;
        if r.json()["parked"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let slow = tokio::spawn({
        let endpoint = endpoint.clone();
        async move { json(&endpoint, "ListQueues", "{}").await }
    });
    server.logged("fault injected").await;
    let signalled = Instant::now();
    server.signal("TERM");
    let answered = tokio::time::timeout(Duration::from_secs(5), poll)
        .await
        .expect("the long poll is answered promptly")
        .unwrap();
    assert_eq!(answered.status, 200, "{}", answered.body);
    assert!(
        answered.json()["Messages"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{}",
        answered.body
    );
    assert!(
        signalled.elapsed() < Duration::from_secs(3),
        "{:?}",
        signalled.elapsed()
    );
    // Requests arriving in the drain are refused or answered in full, never cut.
    let addr = server.addr();
    while health(&addr).await.is_some() {}
    let slow = slow.await.unwrap();
    assert_eq!(slow.status, 200, "{}", slow.body);
    assert_eq!(server.exit_code().await, Some(0));
}

#[tokio::test]
async fn running_out_of_file_descriptors_backs_off_and_health_comes_back() {
    let mut server =
        Running::start(64, &["--max-connections", "1000", "--header-timeout", "60"]).await;
    let addr = server.addr();
    let mut idle = Vec::new();
    for _ in 0..100 {
        idle.push(std::net::TcpStream::connect(&addr).expect("connect"));
    }
    let warning = server.logged("cannot accept connections").await;
    assert!(warning.contains("--max-connections"), "{warning}");
    let before = server.cpu_ticks();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let used = server.cpu_ticks() - before;
    assert!(
        used < 20,
        "{used} CPU ticks in 1 s while out of file descriptors"
    );
    idle.truncate(20);
    let start = Instant::now();
    let status = tokio::time::timeout(Duration::from_secs(5), health(&addr)).await;
    assert_eq!(status.expect("health answers"), Some(200));
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    drop(idle);
    server.signal("INT");
    assert_eq!(server.exit_code().await, Some(0));
}

#[tokio::test]
async fn the_default_cap_keeps_within_the_file_limit_and_health_answers() {
    let mut server = Running::start(64, &["--header-timeout", "60"]).await;
    let addr = server.addr();
    let idle: Vec<_> = (0..60)
        .map(|_| std::net::TcpStream::connect(&addr).expect("connect"))
        .collect();
    let before = server.cpu_ticks();
    let start = Instant::now();
    let status = tokio::time::timeout(Duration::from_secs(8), health(&addr)).await;
    assert_eq!(status.expect("health answers"), Some(200));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert!(server.cpu_ticks() - before < 50);
    drop(idle);
    server.signal("TERM");
    assert_eq!(server.exit_code().await, Some(0));
    while let Some(line) = server.log.recv().await {
        assert!(!line.contains("cannot accept"), "{line}");
    }
}
