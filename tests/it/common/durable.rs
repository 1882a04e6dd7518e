//! The durable tests' harness: the real binary on a data directory, killed with SIGKILL,
//! and the files it leaves to inspect or damage.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use aws_sdk_sqs::types::MessageSystemAttributeName;
use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client;

/// A running `sqslite --data-dir`, killed with SIGKILL when dropped.
pub struct Proc {
    pub child: Child,
    pub client: Client,
    pub endpoint: String,
    /// What it logged before it listened (recovery, repair and permission lines).
    pub log: Vec<String>,
}

pub fn command(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sqslite"));
    cmd.args(["--port", "0", "--data-dir"])
        .arg(dir)
        .args(["--fsync", "never"])
        .env_remove("SQSLITE_CONFIG")
        .env_remove("SQSLITE_PORT")
        .env_remove("SQSLITE_DATA_DIR")
        .env_remove("SQSLITE_FSYNC");
    cmd
}

impl Proc {
    pub fn start(dir: &Path) -> Proc {
        let mut cmd = command(dir);
        cmd.stdout(Stdio::inherit()).stderr(Stdio::piped());
        Proc::spawn(cmd)
    }

    pub fn spawn(mut cmd: Command) -> Proc {
        let (child, endpoint, log) = super::spawn_listening_logged(&mut cmd);
        let client = super::client_for(&endpoint, "us-east-1", "test");
        Proc {
            child,
            client,
            endpoint,
            log,
        }
    }

    /// A server on the manual clock, advanced through the admin API.
    pub fn start_manual(dir: &Path) -> Proc {
        let mut cmd = command(dir);
        cmd.args(["--clock", "manual"])
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped());
        Proc::spawn(cmd)
    }

    pub async fn advance(&self, seconds: u64) {
        let body = format!("{{\"seconds\":{seconds}}}");
        let r = super::raw(
            &self.endpoint,
            "POST",
            "/_sqslite/clock/advance",
            &[("content-type", "application/json")],
            &body,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }

    /// CreateQueue (a FIFO queue when `name` ends in `.fifo`); returns its URL and ARN.
    pub async fn queue(&self, name: &str) -> (String, String) {
        let fifo = name.strip_suffix(".fifo").is_some().then(|| {
            std::collections::HashMap::from([(QueueAttributeName::FifoQueue, "true".to_owned())])
        });
        let created = self
            .client
            .create_queue()
            .queue_name(name)
            .set_attributes(fifo);
        let url = created.send().await.unwrap().queue_url.unwrap();
        let arn = attribute(&self.client, &url, QueueAttributeName::QueueArn).await;
        (url, arn)
    }

    /// `POST /_sqslite/snapshot`, which must succeed.
    pub async fn snapshot(&self) {
        let json = [("content-type", "application/json")];
        let r = super::raw(&self.endpoint, "POST", "/_sqslite/snapshot", &json, "{}").await;
        assert_eq!(r.status, 200, "{}", r.body);
    }

    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sqslite-durable-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub async fn send(c: &Client, url: &str, body: &str) {
    let sent = c
        .send_message()
        .queue_url(url)
        .message_body(body)
        .send()
        .await;
    sent.unwrap();
}

/// Every queue URL ListQueues returns (one page), which must succeed.
pub async fn queue_urls(c: &Client) -> Vec<String> {
    let listed = c.list_queues().send().await.expect("list queues");
    listed.queue_urls.unwrap_or_default()
}

pub async fn attribute(c: &Client, url: &str, name: QueueAttributeName) -> String {
    c.get_queue_attributes()
        .queue_url(url)
        .attribute_names(name.clone())
        .send()
        .await
        .unwrap()
        .attributes()
        .and_then(|a| a.get(&name).cloned())
        .unwrap_or_default()
}

pub async fn receive(c: &Client, url: &str, max: i32) -> Vec<aws_sdk_sqs::types::Message> {
    c.receive_message()
        .queue_url(url)
        .max_number_of_messages(max)
        .message_attribute_names("All")
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .send()
        .await
        .unwrap()
        .messages
        .unwrap_or_default()
}

pub fn log_file(dir: &Path) -> PathBuf {
    let mut logs: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with("log-"))
        .collect();
    logs.sort();
    logs.pop().unwrap()
}

/// `chattr <flag>` on each path; false where the flag cannot be set (not root, or a file
/// system without it, such as tmpfs).
pub fn chattr(flag: &str, paths: &[&Path]) -> bool {
    Command::new("chattr")
        .arg(flag)
        .args(paths)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
