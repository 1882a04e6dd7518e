//! Shared test harness: a real sqslite on an ephemeral port, a manual clock, the real SDK.
#![allow(dead_code)]

pub mod cargo;
mod clients;
pub mod endpoint;
pub mod entries;
mod errors;
pub mod lambda;
pub mod lambda_api;
pub mod listener;
pub mod netns;
mod raw;
pub mod s3;
pub mod signing;
pub mod sns;
pub mod tls;
pub mod wire;
pub mod xml;

pub mod accounts;
pub mod durable;

use std::sync::Arc;
use std::time::Duration;

use aws_sdk_sqs::Client;
use sqslite::{Config, ManualClock, Server};

use clients::ClockTime;
pub use clients::{
    client_at, client_for, client_with_token, sns_client_at, sns_client_for, sns_client_with,
    sts_client_with,
};
pub use errors::{code, expect_code, expect_code_for, message};
pub use raw::{raw, RawResponse};

/// Spawns the real binary (`cmd`, its stderr piped here) and returns it with the endpoint
/// its "sqslite listening on" line names; the rest of its log is drained so the server
/// never blocks on a full pipe.
pub fn spawn_listening(cmd: &mut std::process::Command) -> (std::process::Child, String) {
    let (child, endpoint, _) = spawn_listening_logged(cmd);
    (child, endpoint)
}

/// [`spawn_listening`], also returning the log lines written before the listening line.
pub fn spawn_listening_logged(
    cmd: &mut std::process::Command,
) -> (std::process::Child, String, Vec<String>) {
    use std::io::{BufRead, BufReader};
    let mut child = cmd
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut before = Vec::new();
    let endpoint = loop {
        let line = lines.next().expect("a listening line").unwrap();
        if let Some(rest) = line.split("sqslite listening on ").nth(1) {
            break rest.split_whitespace().next().unwrap().to_owned();
        }
        before.push(line);
    };
    std::thread::spawn(move || lines.for_each(drop));
    (child, endpoint, before)
}

/// `orders` (visibility 30 s) dead-lettering into `orders-dlq` after `max_receives`.
pub fn orders_with_dlq(max_receives: u32) -> Config {
    Config::ephemeral()
        .with_queue(sqslite::QueueDecl::new("orders-dlq"))
        .with_queue(
            sqslite::QueueDecl::new("orders")
                .attribute("VisibilityTimeout", 30)
                .dead_letter("orders-dlq", max_receives),
        )
}

/// A fixed start keeps timestamps in assertions readable.
pub const T0: u64 = 1_700_000_000_000;

pub struct TestServer {
    pub server: Server,
    pub client: Client,
    pub clock: ManualClock,
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_with(Config::ephemeral()).await
    }

    pub async fn start_with(config: Config) -> Self {
        Self::try_start_with(config).await.expect("server starts")
    }

    /// Starts from any Config (declared queues included); the error is what startup reports.
    pub async fn try_start_with(config: Config) -> std::io::Result<Self> {
        let clock = ManualClock::new(T0);
        let server = Server::start_with_clock(config, Arc::new(clock.clone())).await?;
        let client = client_at(&server.endpoint(), "AKIDEXAMPLE", "secret", &clock);
        Ok(TestServer {
            server,
            client,
            clock,
        })
    }

    pub fn endpoint(&self) -> String {
        self.server.endpoint()
    }

    pub fn advance(&self, seconds: u64) {
        self.clock.advance(Duration::from_secs(seconds));
    }

    pub fn advance_ms(&self, ms: u64) {
        self.clock.advance(Duration::from_millis(ms));
    }

    pub async fn create_queue(&self, name: &str) -> String {
        self.create_queue_with(name, &[]).await
    }

    pub async fn create_queue_with(&self, name: &str, attributes: &[(&str, &str)]) -> String {
        self.try_create_queue(name, attributes)
            .await
            .expect("create queue")
            .queue_url
            .unwrap()
    }

    /// CreateQueue for the test to unwrap or inspect the error of.
    pub async fn try_create_queue(
        &self,
        name: &str,
        attributes: &[(&str, &str)],
    ) -> Result<
        aws_sdk_sqs::operation::create_queue::CreateQueueOutput,
        aws_sdk_sqs::error::SdkError<
            aws_sdk_sqs::operation::create_queue::CreateQueueError,
            aws_sdk_sqs::config::http::HttpResponse,
        >,
    > {
        let mut req = self.client.create_queue().queue_name(name);
        for (k, v) in attributes {
            req = req.attributes((*k).into(), (*v).to_owned());
        }
        req.send().await
    }

    pub async fn send(&self, url: &str, body: &str) -> String {
        self.client
            .send_message()
            .queue_url(url)
            .message_body(body)
            .send()
            .await
            .expect("send")
            .message_id
            .unwrap()
    }

    /// SendMessage to a FIFO queue, in `group` and deduplicated by `body`, that must succeed.
    pub async fn send_fifo(
        &self,
        url: &str,
        group: &str,
        body: &str,
    ) -> aws_sdk_sqs::operation::send_message::SendMessageOutput {
        self.client
            .send_message()
            .queue_url(url)
            .message_body(body)
            .message_group_id(group)
            .message_deduplication_id(body)
            .send()
            .await
            .expect("FIFO send")
    }

    pub async fn attribute(&self, url: &str, name: &str) -> String {
        let out = self
            .client
            .get_queue_attributes()
            .queue_url(url)
            .attribute_names(name.into())
            .send()
            .await
            .expect("get attributes");
        out.attributes()
            .and_then(|a| a.iter().find(|(k, _)| k.as_str() == name))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    /// GetQueueAttributes `All`.
    pub async fn all_attributes(
        &self,
        url: &str,
    ) -> std::collections::HashMap<aws_sdk_sqs::types::QueueAttributeName, String> {
        self.client
            .get_queue_attributes()
            .queue_url(url)
            .attribute_names(aws_sdk_sqs::types::QueueAttributeName::All)
            .send()
            .await
            .expect("get attributes")
            .attributes
            .unwrap_or_default()
    }

    /// (visible, in flight, delayed)
    pub async fn counts(&self, url: &str) -> (u64, u64, u64) {
        let get =
            |n: &'static str| async move { self.attribute(url, n).await.parse::<u64>().unwrap() };
        (
            get("ApproximateNumberOfMessages").await,
            get("ApproximateNumberOfMessagesNotVisible").await,
            get("ApproximateNumberOfMessagesDelayed").await,
        )
    }

    /// A raw HTTP request, for the Query protocol and malformed input.
    pub async fn raw(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> RawResponse {
        raw(&self.endpoint(), method, path, headers, body).await
    }

    /// A Query-protocol form POST to `/`.
    pub async fn query(&self, params: &[(&str, &str)]) -> RawResponse {
        let body: String = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        self.raw(
            "POST",
            "/",
            &[("content-type", "application/x-www-form-urlencoded")],
            &body,
        )
        .await
    }

    /// An AWS JSON 1.0 request with a hand-written body.
    pub async fn json(&self, action: &str, body: &str) -> RawResponse {
        let target = format!("AmazonSQS.{action}");
        self.raw(
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
}

/// The account of the default client's key, and a second account's, on [`signed_server`].
pub const OWNER: &str = "000000000000";
pub const OTHER: &str = "111111111111";

/// A server that requires signatures: the default client's key (`AKIDEXAMPLE`, account
/// [`OWNER`]) and a second account's (`AKIDOTHER` / `other-secret`, account [`OTHER`]).
pub async fn signed_server() -> TestServer {
    use sqslite::config::Credential;
    TestServer::start_with(
        Config::ephemeral()
            .with_credential(Credential::new("AKIDEXAMPLE", "secret", OWNER))
            .with_credential(Credential::new("AKIDOTHER", "other-secret", OTHER)),
    )
    .await
}

impl TestServer {
    /// DeleteMessage that must succeed.
    pub async fn delete(&self, url: &str, handle: &str) {
        self.client
            .delete_message()
            .queue_url(url)
            .receipt_handle(handle)
            .send()
            .await
            .expect("delete");
    }

    /// ChangeMessageVisibility that must succeed.
    pub async fn set_visibility(&self, url: &str, handle: &str, seconds: i32) {
        self.client
            .change_message_visibility()
            .queue_url(url)
            .receipt_handle(handle)
            .visibility_timeout(seconds)
            .send()
            .await
            .expect("change visibility");
    }
}

impl TestServer {
    /// SetQueueAttributes of one attribute, for the test to unwrap or inspect the error of.
    pub async fn set_attribute(
        &self,
        url: &str,
        name: aws_sdk_sqs::types::QueueAttributeName,
        value: &str,
    ) -> Result<
        aws_sdk_sqs::operation::set_queue_attributes::SetQueueAttributesOutput,
        aws_sdk_sqs::error::SdkError<
            aws_sdk_sqs::operation::set_queue_attributes::SetQueueAttributesError,
            aws_sdk_sqs::config::http::HttpResponse,
        >,
    > {
        self.client
            .set_queue_attributes()
            .queue_url(url)
            .attributes(name, value)
            .send()
            .await
    }

    /// A plain ReceiveMessage (one message, queue defaults) that must succeed.
    pub async fn receive(
        &self,
        url: &str,
    ) -> aws_sdk_sqs::operation::receive_message::ReceiveMessageOutput {
        self.client
            .receive_message()
            .queue_url(url)
            .send()
            .await
            .expect("receive")
    }
}

impl TestServer {
    /// Waits until `n` long polls are parked on queue `name` (the server's
    /// `sqslite_receives_waiting` gauge), so a test acts on a parked receive without sleeping
    /// for a guessed time. Panics after 5 s of wall time.
    pub async fn wait_parked(&self, name: &str, n: usize) {
        let label = format!("queue=\"{name}\"");
        let started = std::time::Instant::now();
        loop {
            let metrics = self.raw("GET", "/metrics", &[], "").await.body;
            let parked = metrics
                .lines()
                .filter(|l| l.starts_with("sqslite_receives_waiting{") && l.contains(&label))
                .find_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok());
            if parked.is_some_and(|p| p >= n as f64) {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{n} receives never parked on {name}"
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
}

/// A spawned server that is killed when the test ends, panicking or not, so a failed
/// assertion never leaves the process behind.
pub struct KillOnDrop(pub std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
