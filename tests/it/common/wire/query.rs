//! The calls over AWS Query: form posts with the member names Query SDKs write (`Attribute.1.Name`,
//! `SendMessageBatchRequestEntry.2.DelaySeconds`, ...), and their XML answers read as those SDKs
//! read them (`common::xml`): a result element, or an `ErrorResponse`'s code and message.

use std::collections::BTreeMap;

use base64::Engine as _;

use super::{Answer, Batch, Failed, Message, Receive, Received, Sent, Value, WireError};
use crate::common::xml::Element;
use crate::common::TestServer;

/// The form parameters of one request, built as a Query SDK serializes its input.
#[derive(Default)]
struct Form(Vec<(String, String)>);

impl Form {
    fn new(action: &str) -> Form {
        let mut form = Form::default();
        form.add("Action", action);
        form.add("Version", "2012-11-05");
        form
    }

    fn add(&mut self, name: impl Into<String>, value: impl Into<String>) -> &mut Form {
        self.0.push((name.into(), value.into()));
        self
    }

    fn some(&mut self, name: &str, value: Option<impl ToString>) -> &mut Form {
        if let Some(v) = value {
            self.add(name, v.to_string());
        }
        self
    }

    /// A message's fields under `prefix` (`""` for SendMessage, `...Entry.N.` in a batch).
    fn message(&mut self, prefix: &str, m: &Message) -> &mut Form {
        self.add(format!("{prefix}MessageBody"), &m.body);
        self.some(&format!("{prefix}DelaySeconds"), m.delay);
        self.some(&format!("{prefix}MessageGroupId"), m.group.as_ref());
        self.some(&format!("{prefix}MessageDeduplicationId"), m.dedup.as_ref());
        for (i, (name, value)) in m.attributes.iter().enumerate() {
            let at = format!("{prefix}MessageAttribute.{}.", i + 1);
            self.add(format!("{at}Name"), name);
            self.add(format!("{at}Value.DataType"), &value.data_type);
            self.some(&format!("{at}Value.StringValue"), value.string.as_ref());
            let binary = value.binary.as_ref();
            let binary = binary.map(|b| base64::engine::general_purpose::STANDARD.encode(b));
            self.some(&format!("{at}Value.BinaryValue"), binary);
        }
        self
    }

    /// Posts the form; the answer's `<{Action}Result>` element, or the error it reports.
    async fn post(&self, t: &TestServer) -> Answer<Element> {
        let params: Vec<(&str, &str)> = self.0.iter().map(|(k, v)| (&**k, &**v)).collect();
        let action = self.0[0].1.clone();
        let r = t.query(&params).await;
        assert_eq!(r.header("content-type"), Some("text/xml"), "{}", r.body);
        let mut root = Element::parse(&r.body);
        if root.name == "ErrorResponse" {
            let error = root.child("Error").expect("an Error element");
            return Err(WireError {
                status: r.status,
                code: error.text_of("Code").unwrap_or_default(),
                message: error.text_of("Message").unwrap_or_default(),
            });
        }
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(root.name, format!("{action}Response"));
        let metadata = root.at(&["ResponseMetadata", "RequestId"]);
        assert!(metadata.is_some_and(|id| !id.text.is_empty()), "{}", r.body);
        let result = root
            .children
            .iter()
            .position(|c| c.name == format!("{action}Result"));
        Ok(result.map_or_else(Element::default, |i| root.children.swap_remove(i)))
    }
}

fn text(e: &Element, name: &str) -> String {
    e.text_of(name).unwrap_or_default()
}

fn sent(e: &Element) -> Sent {
    Sent {
        id: text(e, "Id"),
        message_id: text(e, "MessageId"),
        md5_of_body: text(e, "MD5OfMessageBody"),
        md5_of_attributes: e.text_of("MD5OfMessageAttributes"),
        sequence_number: e.text_of("SequenceNumber"),
    }
}

fn batch<T>(result: &Element, entry: &str, read: impl Fn(&Element) -> T) -> Batch<T> {
    let failed = result.all("BatchResultErrorEntry").map(|f| Failed {
        id: text(f, "Id"),
        code: text(f, "Code"),
        message: text(f, "Message"),
        sender_fault: text(f, "SenderFault") == "true",
    });
    Batch {
        successful: result.all(entry).map(read).collect(),
        failed: failed.collect(),
    }
}

fn attribute_value(e: &Element) -> Value {
    let binary = e.text_of("BinaryValue").map(|b| {
        let decoded = base64::engine::general_purpose::STANDARD.decode(b);
        decoded.expect("BinaryValue is base64")
    });
    Value {
        data_type: text(e, "DataType"),
        string: e.text_of("StringValue"),
        binary,
    }
}

fn received(m: &Element) -> Received {
    let system = m
        .all("Attribute")
        .map(|a| (text(a, "Name"), text(a, "Value")));
    let attributes = m.all("MessageAttribute").map(|a| {
        let value = a.child("Value").expect("a Value");
        (text(a, "Name"), attribute_value(value))
    });
    Received {
        message_id: text(m, "MessageId"),
        receipt_handle: text(m, "ReceiptHandle"),
        body: text(m, "Body"),
        md5_of_body: text(m, "MD5OfBody"),
        md5_of_attributes: m.text_of("MD5OfMessageAttributes"),
        system: system.collect(),
        attributes: attributes.collect(),
    }
}

pub async fn create_queue(t: &TestServer, name: &str, attrs: &[(&str, &str)]) -> Answer<String> {
    let mut form = Form::new("CreateQueue");
    form.add("QueueName", name);
    for (i, (k, v)) in attrs.iter().enumerate() {
        form.add(format!("Attribute.{}.Name", i + 1), *k);
        form.add(format!("Attribute.{}.Value", i + 1), *v);
    }
    Ok(text(&form.post(t).await?, "QueueUrl"))
}

pub async fn get_queue_url(t: &TestServer, name: &str) -> Answer<String> {
    let mut form = Form::new("GetQueueUrl");
    form.add("QueueName", name);
    Ok(text(&form.post(t).await?, "QueueUrl"))
}

pub async fn send(t: &TestServer, url: &str, m: &Message) -> Answer<Sent> {
    let mut form = Form::new("SendMessage");
    form.add("QueueUrl", url).message("", m);
    Ok(sent(&form.post(t).await?))
}

pub async fn send_batch(t: &TestServer, url: &str, entries: &[Message]) -> Answer<Batch<Sent>> {
    let mut form = Form::new("SendMessageBatch");
    form.add("QueueUrl", url);
    for (i, m) in entries.iter().enumerate() {
        let prefix = format!("SendMessageBatchRequestEntry.{}.", i + 1);
        form.add(format!("{prefix}Id"), &m.id).message(&prefix, m);
    }
    let result = form.post(t).await?;
    Ok(batch(&result, "SendMessageBatchResultEntry", sent))
}

pub async fn receive(t: &TestServer, url: &str, r: &Receive) -> Answer<Vec<Received>> {
    let mut form = Form::new("ReceiveMessage");
    form.add("QueueUrl", url)
        .some("MaxNumberOfMessages", r.max)
        .some("WaitTimeSeconds", r.wait)
        .some("VisibilityTimeout", r.visibility)
        .some("ReceiveRequestAttemptId", r.attempt_id.as_ref())
        .add("AttributeName.1", "All")
        .add("MessageAttributeName.1", "All");
    let result = form.post(t).await?;
    Ok(result.all("Message").map(received).collect())
}

pub async fn delete(t: &TestServer, url: &str, handle: &str) -> Answer<()> {
    let mut form = Form::new("DeleteMessage");
    form.add("QueueUrl", url).add("ReceiptHandle", handle);
    form.post(t).await.map(drop)
}

pub async fn delete_batch(
    t: &TestServer,
    url: &str,
    entries: &[(&str, &str)],
) -> Answer<Batch<String>> {
    let mut form = Form::new("DeleteMessageBatch");
    form.add("QueueUrl", url);
    for (i, (id, handle)) in entries.iter().enumerate() {
        let prefix = format!("DeleteMessageBatchRequestEntry.{}.", i + 1);
        form.add(format!("{prefix}Id"), *id);
        form.add(format!("{prefix}ReceiptHandle"), *handle);
    }
    let result = form.post(t).await?;
    Ok(batch(&result, "DeleteMessageBatchResultEntry", |e| {
        text(e, "Id")
    }))
}

pub async fn change_visibility(t: &TestServer, url: &str, handle: &str, secs: i32) -> Answer<()> {
    let mut form = Form::new("ChangeMessageVisibility");
    form.add("QueueUrl", url).add("ReceiptHandle", handle);
    form.add("VisibilityTimeout", secs.to_string());
    form.post(t).await.map(drop)
}

pub async fn change_visibility_batch(
    t: &TestServer,
    url: &str,
    entries: &[(&str, &str, i32)],
) -> Answer<Batch<String>> {
    let mut form = Form::new("ChangeMessageVisibilityBatch");
    form.add("QueueUrl", url);
    for (i, (id, handle, secs)) in entries.iter().enumerate() {
        let prefix = format!("ChangeMessageVisibilityBatchRequestEntry.{}.", i + 1);
        form.add(format!("{prefix}Id"), *id);
        form.add(format!("{prefix}ReceiptHandle"), *handle);
        form.add(format!("{prefix}VisibilityTimeout"), secs.to_string());
    }
    let result = form.post(t).await?;
    let entry = "ChangeMessageVisibilityBatchResultEntry";
    Ok(batch(&result, entry, |e| text(e, "Id")))
}

pub async fn get_attributes(
    t: &TestServer,
    url: &str,
    names: &[&str],
) -> Answer<BTreeMap<String, String>> {
    let mut form = Form::new("GetQueueAttributes");
    form.add("QueueUrl", url);
    for (i, name) in names.iter().enumerate() {
        form.add(format!("AttributeName.{}", i + 1), *name);
    }
    let result = form.post(t).await?;
    let attributes = result.all("Attribute");
    Ok(attributes
        .map(|a| (text(a, "Name"), text(a, "Value")))
        .collect())
}

pub async fn set_attributes(t: &TestServer, url: &str, attrs: &[(&str, &str)]) -> Answer<()> {
    let mut form = Form::new("SetQueueAttributes");
    form.add("QueueUrl", url);
    for (i, (k, v)) in attrs.iter().enumerate() {
        form.add(format!("Attribute.{}.Name", i + 1), *k);
        form.add(format!("Attribute.{}.Value", i + 1), *v);
    }
    form.post(t).await.map(drop)
}

pub async fn purge(t: &TestServer, url: &str) -> Answer<()> {
    let mut form = Form::new("PurgeQueue");
    form.add("QueueUrl", url).post(t).await.map(drop)
}

pub async fn delete_queue(t: &TestServer, url: &str) -> Answer<()> {
    let mut form = Form::new("DeleteQueue");
    form.add("QueueUrl", url).post(t).await.map(drop)
}

pub async fn dead_letter_sources(t: &TestServer, url: &str) -> Answer<Vec<String>> {
    let mut form = Form::new("ListDeadLetterSourceQueues");
    let result = form.add("QueueUrl", url).post(t).await?;
    Ok(result.all("QueueUrl").map(|u| u.text.clone()).collect())
}
