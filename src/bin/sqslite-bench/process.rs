//! Servers under test as child processes: start, find their port, read their memory, stop.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
}

impl Server {
    /// Spawns `program args…` and waits for its "listening on http://ADDR" line.
    pub async fn spawn(program: &PathBuf, args: &[&str]) -> std::io::Result<Server> {
        let mut child = Command::new(program)
            .args(args)
            .env("SQSLITE_LOG", "warn,sqslite=info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| std::io::Error::other("no stderr"))?;
        let mut out = BufReader::new(stdout).lines();
        let mut err = BufReader::new(stderr).lines();
        let addr = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let line = tokio::select! {
                    l = out.next_line() => l,
                    l = err.next_line() => l,
                };
                match line {
                    Ok(Some(line)) => {
                        if let Some(addr) = line.split("listening on http://").nth(1) {
                            let addr = addr.split_whitespace().next().unwrap_or_default();
                            return addr.parse::<SocketAddr>().map_err(std::io::Error::other);
                        }
                    }
                    _ => return Err(std::io::Error::other("server exited before listening")),
                }
            }
        })
        .await
        .map_err(|_| std::io::Error::other("server did not start in 10 s"))??;
        // Keep draining its output so it never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = out.next_line().await {} });
        tokio::spawn(async move { while let Ok(Some(_)) = err.next_line().await {} });
        Ok(Server { child, addr })
    }

    /// Resident set size in MiB, from /proc (Linux).
    pub fn rss_mib(&self) -> Option<f64> {
        let pid = self.child.id()?;
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let kb: f64 = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        Some(kb / 1024.0)
    }

    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

/// The sqslite binary beside this one (both are built by `cargo build --release`).
pub fn sibling(name: &str) -> PathBuf {
    let me = std::env::current_exe().unwrap_or_default();
    me.with_file_name(name)
}
