//! One SQS client over either wire protocol, for scenarios that must mean the same over both:
//! [`Protocol::Json`] is the real `aws-sdk-sqs` (AWS JSON 1.0), [`Protocol::Query`] form posts
//! read back from their XML as a Query client's parser reads them (`json`, `query`). Each call
//! answers in the same plain types, so a scenario asserts once and runs twice.

mod json;
mod query;

use std::collections::BTreeMap;
use std::ops::Deref;

use sqslite::Config;

use super::TestServer;

/// Which of SQS's two wire protocols a [`Wire`] speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// AWS JSON 1.0 (`X-Amz-Target`), through the real Rust SDK.
    Json,
    /// AWS Query (`Action=` form posts, XML answers).
    Query,
}

/// A test server and the protocol its calls speak; it derefs to the [`TestServer`] for the
/// clock, the counts and the raw requests.
pub struct Wire {
    pub t: TestServer,
    pub protocol: Protocol,
}

impl Deref for Wire {
    type Target = TestServer;
    fn deref(&self) -> &TestServer {
        &self.t
    }
}

/// A failed call as either protocol's client reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    pub status: u16,
    /// The error code, Query's (`AWS.SimpleQueueService.NonExistentQueue`), as the SDK also
    /// reports it from `x-amzn-query-error`.
    pub code: String,
    pub message: String,
}

/// What a call answers: its result or the error its client reports.
pub type Answer<T> = Result<T, WireError>;

/// A message attribute's value: `String`/`Number` types carry text, `Binary` bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    pub data_type: String,
    pub string: Option<String>,
    pub binary: Option<Vec<u8>>,
}

impl Value {
    pub fn string(data_type: &str, text: &str) -> Value {
        Value {
            data_type: data_type.to_owned(),
            string: Some(text.to_owned()),
            binary: None,
        }
    }

    pub fn binary(bytes: &[u8]) -> Value {
        Value {
            data_type: "Binary".to_owned(),
            string: None,
            binary: Some(bytes.to_vec()),
        }
    }
}

/// A message to send, alone or as a batch entry (`id`, ignored by SendMessage).
#[derive(Debug, Clone, Default)]
pub struct Message {
    pub id: String,
    pub body: String,
    pub delay: Option<i32>,
    pub group: Option<String>,
    pub dedup: Option<String>,
    pub attributes: Vec<(String, Value)>,
}

impl Message {
    pub fn new(body: &str) -> Message {
        Message {
            id: body.to_owned(),
            body: body.to_owned(),
            ..Message::default()
        }
    }

    /// With this batch entry id.
    pub fn id(mut self, id: &str) -> Message {
        id.clone_into(&mut self.id);
        self
    }

    pub fn delay(mut self, seconds: i32) -> Message {
        self.delay = Some(seconds);
        self
    }

    pub fn group(mut self, group: &str) -> Message {
        self.group = Some(group.to_owned());
        self
    }

    pub fn dedup(mut self, id: &str) -> Message {
        self.dedup = Some(id.to_owned());
        self
    }

    pub fn attribute(mut self, name: &str, value: Value) -> Message {
        self.attributes.push((name.to_owned(), value));
        self
    }
}

/// What SendMessage (or a batch's successful entry) answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The batch entry's id; empty for SendMessage.
    pub id: String,
    pub message_id: String,
    pub md5_of_body: String,
    pub md5_of_attributes: Option<String>,
    pub sequence_number: Option<String>,
}

/// A batch entry that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed {
    pub id: String,
    pub code: String,
    pub message: String,
    pub sender_fault: bool,
}

/// A batch's answer: the entries that succeeded (their ids, with what a send reports) and
/// those that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch<T> {
    pub successful: Vec<T>,
    pub failed: Vec<Failed>,
}

/// ReceiveMessage's parameters; `None` leaves each to the queue.
#[derive(Debug, Clone, Default)]
pub struct Receive {
    pub max: Option<i32>,
    pub wait: Option<i32>,
    pub visibility: Option<i32>,
    pub attempt_id: Option<String>,
}

impl Receive {
    pub fn max(max: i32) -> Receive {
        Receive {
            max: Some(max),
            ..Receive::default()
        }
    }

    pub fn wait(mut self, seconds: i32) -> Receive {
        self.wait = Some(seconds);
        self
    }

    pub fn visibility(mut self, seconds: i32) -> Receive {
        self.visibility = Some(seconds);
        self
    }

    pub fn attempt(mut self, id: &str) -> Receive {
        self.attempt_id = Some(id.to_owned());
        self
    }
}

/// A received message, with every system and message attribute (the calls ask for `All`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    pub message_id: String,
    pub receipt_handle: String,
    pub body: String,
    pub md5_of_body: String,
    pub md5_of_attributes: Option<String>,
    pub system: BTreeMap<String, String>,
    pub attributes: BTreeMap<String, Value>,
}

impl Received {
    /// A system attribute (`ApproximateReceiveCount`, `SentTimestamp`, ...), or "" if absent.
    pub fn system(&self, name: &str) -> &str {
        self.system.get(name).map_or("", String::as_str)
    }
}

impl Wire {
    pub async fn start(protocol: Protocol) -> Wire {
        Wire::start_with(protocol, Config::ephemeral()).await
    }

    pub async fn start_with(protocol: Protocol, config: Config) -> Wire {
        let t = TestServer::start_with(config).await;
        Wire { t, protocol }
    }

    /// `json` over AWS JSON 1.0, `query` over AWS Query: for the few answers AWS itself words
    /// differently per protocol.
    pub fn either<'a>(&self, json: &'a str, query: &'a str) -> &'a str {
        match self.protocol {
            Protocol::Json => json,
            Protocol::Query => query,
        }
    }

    /// The bodies of received messages, in order.
    pub fn bodies(messages: &[Received]) -> Vec<&str> {
        messages.iter().map(|m| m.body.as_str()).collect()
    }
}

/// The calls, each once per protocol; `json` and `query` hold the two halves.
impl Wire {
    pub async fn create_queue(&self, name: &str, attributes: &[(&str, &str)]) -> Answer<String> {
        match self.protocol {
            Protocol::Json => json::create_queue(&self.t, name, attributes).await,
            Protocol::Query => query::create_queue(&self.t, name, attributes).await,
        }
    }

    pub async fn get_queue_url(&self, name: &str) -> Answer<String> {
        match self.protocol {
            Protocol::Json => json::get_queue_url(&self.t, name).await,
            Protocol::Query => query::get_queue_url(&self.t, name).await,
        }
    }

    pub async fn send(&self, url: &str, message: &Message) -> Answer<Sent> {
        match self.protocol {
            Protocol::Json => json::send(&self.t, url, message).await,
            Protocol::Query => query::send(&self.t, url, message).await,
        }
    }

    pub async fn send_batch(&self, url: &str, entries: &[Message]) -> Answer<Batch<Sent>> {
        match self.protocol {
            Protocol::Json => json::send_batch(&self.t, url, entries).await,
            Protocol::Query => query::send_batch(&self.t, url, entries).await,
        }
    }

    pub async fn receive(&self, url: &str, receive: &Receive) -> Answer<Vec<Received>> {
        match self.protocol {
            Protocol::Json => json::receive(&self.t, url, receive).await,
            Protocol::Query => query::receive(&self.t, url, receive).await,
        }
    }

    pub async fn delete(&self, url: &str, handle: &str) -> Answer<()> {
        match self.protocol {
            Protocol::Json => json::delete(&self.t, url, handle).await,
            Protocol::Query => query::delete(&self.t, url, handle).await,
        }
    }

    /// DeleteMessageBatch of `(entry id, receipt handle)`; the successful ids answered.
    pub async fn delete_batch(&self, url: &str, entries: &[(&str, &str)]) -> Answer<Batch<String>> {
        match self.protocol {
            Protocol::Json => json::delete_batch(&self.t, url, entries).await,
            Protocol::Query => query::delete_batch(&self.t, url, entries).await,
        }
    }

    pub async fn change_visibility(&self, url: &str, handle: &str, seconds: i32) -> Answer<()> {
        match self.protocol {
            Protocol::Json => json::change_visibility(&self.t, url, handle, seconds).await,
            Protocol::Query => query::change_visibility(&self.t, url, handle, seconds).await,
        }
    }

    /// ChangeMessageVisibilityBatch of `(entry id, receipt handle, seconds)`.
    pub async fn change_visibility_batch(
        &self,
        url: &str,
        entries: &[(&str, &str, i32)],
    ) -> Answer<Batch<String>> {
        match self.protocol {
            Protocol::Json => json::change_visibility_batch(&self.t, url, entries).await,
            Protocol::Query => query::change_visibility_batch(&self.t, url, entries).await,
        }
    }

    pub async fn get_attributes(
        &self,
        url: &str,
        names: &[&str],
    ) -> Answer<BTreeMap<String, String>> {
        match self.protocol {
            Protocol::Json => json::get_attributes(&self.t, url, names).await,
            Protocol::Query => query::get_attributes(&self.t, url, names).await,
        }
    }

    pub async fn set_attributes(&self, url: &str, attributes: &[(&str, &str)]) -> Answer<()> {
        match self.protocol {
            Protocol::Json => json::set_attributes(&self.t, url, attributes).await,
            Protocol::Query => query::set_attributes(&self.t, url, attributes).await,
        }
    }

    pub async fn purge(&self, url: &str) -> Answer<()> {
        match self.protocol {
            Protocol::Json => json::purge(&self.t, url).await,
            Protocol::Query => query::purge(&self.t, url).await,
        }
    }

    pub async fn delete_queue(&self, url: &str) -> Answer<()> {
        match self.protocol {
            Protocol::Json => json::delete_queue(&self.t, url).await,
            Protocol::Query => query::delete_queue(&self.t, url).await,
        }
    }

    pub async fn dead_letter_sources(&self, url: &str) -> Answer<Vec<String>> {
        match self.protocol {
            Protocol::Json => json::dead_letter_sources(&self.t, url).await,
            Protocol::Query => query::dead_letter_sources(&self.t, url).await,
        }
    }
}
