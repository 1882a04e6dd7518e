//! The calls over AWS JSON 1.0, through the real `aws-sdk-sqs`: what a Rust (or any JSON SDK)
//! user's code is handed.

use std::collections::BTreeMap;

use aws_sdk_sqs::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_sqs::primitives::Blob;
use aws_sdk_sqs::types::{
    BatchResultErrorEntry, MessageAttributeValue, MessageSystemAttributeName, QueueAttributeName,
    SendMessageBatchRequestEntry,
};

use super::{Answer, Batch, Failed, Message, Receive, Received, Sent, Value, WireError};
use crate::common::entries::{change_entry, delete_entry};
use crate::common::TestServer;

type HttpResponse = aws_sdk_sqs::config::http::HttpResponse;

fn error<E: ProvideErrorMetadata>(err: &SdkError<E, HttpResponse>) -> WireError {
    let status = err.raw_response().map_or(0, |r| r.status().as_u16());
    let service = err.as_service_error();
    WireError {
        status,
        code: service
            .and_then(|e| e.code())
            .unwrap_or_default()
            .to_owned(),
        message: service
            .and_then(|e| e.message())
            .unwrap_or_default()
            .to_owned(),
    }
}

fn attribute_value(value: &Value) -> MessageAttributeValue {
    let mut v = MessageAttributeValue::builder().data_type(&value.data_type);
    if let Some(text) = &value.string {
        v = v.string_value(text);
    }
    if let Some(bytes) = &value.binary {
        v = v.binary_value(Blob::new(bytes.clone()));
    }
    v.build().expect("a data type")
}

fn failed(entries: &[BatchResultErrorEntry]) -> Vec<Failed> {
    let failed = entries.iter().map(|f| Failed {
        id: f.id().to_owned(),
        code: f.code().to_owned(),
        message: f.message().unwrap_or_default().to_owned(),
        sender_fault: f.sender_fault(),
    });
    failed.collect()
}

pub async fn create_queue(t: &TestServer, name: &str, attrs: &[(&str, &str)]) -> Answer<String> {
    let mut call = t.client.create_queue().queue_name(name);
    for (k, v) in attrs {
        call = call.attributes(QueueAttributeName::from(*k), *v);
    }
    let out = call.send().await.map_err(|e| error(&e))?;
    Ok(out.queue_url.unwrap_or_default())
}

pub async fn get_queue_url(t: &TestServer, name: &str) -> Answer<String> {
    let out = t.client.get_queue_url().queue_name(name).send().await;
    Ok(out.map_err(|e| error(&e))?.queue_url.unwrap_or_default())
}

pub async fn send(t: &TestServer, url: &str, m: &Message) -> Answer<Sent> {
    let mut call = t.client.send_message().queue_url(url).message_body(&m.body);
    call = call
        .set_delay_seconds(m.delay)
        .set_message_group_id(m.group.clone())
        .set_message_deduplication_id(m.dedup.clone());
    for (name, value) in &m.attributes {
        call = call.message_attributes(name, attribute_value(value));
    }
    let out = call.send().await.map_err(|e| error(&e))?;
    Ok(Sent {
        id: String::new(),
        message_id: out.message_id.unwrap_or_default(),
        md5_of_body: out.md5_of_message_body.unwrap_or_default(),
        md5_of_attributes: out.md5_of_message_attributes,
        sequence_number: out.sequence_number,
    })
}

pub async fn send_batch(t: &TestServer, url: &str, entries: &[Message]) -> Answer<Batch<Sent>> {
    let entries = entries.iter().map(|m| {
        let mut e = SendMessageBatchRequestEntry::builder()
            .id(&m.id)
            .message_body(&m.body)
            .set_delay_seconds(m.delay)
            .set_message_group_id(m.group.clone())
            .set_message_deduplication_id(m.dedup.clone());
        for (name, value) in &m.attributes {
            e = e.message_attributes(name, attribute_value(value));
        }
        e.build().expect("an id and a body")
    });
    let call = t.client.send_message_batch().queue_url(url);
    let out = call.set_entries(Some(entries.collect())).send().await;
    let out = out.map_err(|e| error(&e))?;
    let successful = out.successful.iter().map(|s| Sent {
        id: s.id.clone(),
        message_id: s.message_id.clone(),
        md5_of_body: s.md5_of_message_body.clone(),
        md5_of_attributes: s.md5_of_message_attributes.clone(),
        sequence_number: s.sequence_number.clone(),
    });
    Ok(Batch {
        successful: successful.collect(),
        failed: failed(&out.failed),
    })
}

pub async fn receive(t: &TestServer, url: &str, r: &Receive) -> Answer<Vec<Received>> {
    let call = t
        .client
        .receive_message()
        .queue_url(url)
        .set_max_number_of_messages(r.max)
        .set_wait_time_seconds(r.wait)
        .set_visibility_timeout(r.visibility)
        .set_receive_request_attempt_id(r.attempt_id.clone())
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .message_attribute_names("All");
    let out = call.send().await.map_err(|e| error(&e))?;
    let messages = out.messages.unwrap_or_default().into_iter().map(|m| {
        let system = m.attributes.unwrap_or_default().into_iter();
        let attributes = m.message_attributes.unwrap_or_default().into_iter();
        let attributes = attributes.map(|(name, v)| {
            let value = Value {
                data_type: v.data_type,
                string: v.string_value,
                binary: v.binary_value.map(Blob::into_inner),
            };
            (name, value)
        });
        Received {
            message_id: m.message_id.unwrap_or_default(),
            receipt_handle: m.receipt_handle.unwrap_or_default(),
            body: m.body.unwrap_or_default(),
            md5_of_body: m.md5_of_body.unwrap_or_default(),
            md5_of_attributes: m.md5_of_message_attributes,
            system: system.map(|(k, v)| (k.as_str().to_owned(), v)).collect(),
            attributes: attributes.collect(),
        }
    });
    Ok(messages.collect())
}

pub async fn delete(t: &TestServer, url: &str, handle: &str) -> Answer<()> {
    let call = t
        .client
        .delete_message()
        .queue_url(url)
        .receipt_handle(handle);
    call.send().await.map(drop).map_err(|e| error(&e))
}

pub async fn delete_batch(
    t: &TestServer,
    url: &str,
    entries: &[(&str, &str)],
) -> Answer<Batch<String>> {
    let entries = entries.iter().map(|(id, h)| delete_entry(id, h)).collect();
    let call = t.client.delete_message_batch().queue_url(url);
    let out = call
        .set_entries(Some(entries))
        .send()
        .await
        .map_err(|e| error(&e))?;
    Ok(Batch {
        successful: out.successful.into_iter().map(|s| s.id).collect(),
        failed: failed(&out.failed),
    })
}

pub async fn change_visibility(t: &TestServer, url: &str, handle: &str, secs: i32) -> Answer<()> {
    let call = t.client.change_message_visibility().queue_url(url);
    let call = call.receipt_handle(handle).visibility_timeout(secs);
    call.send().await.map(drop).map_err(|e| error(&e))
}

pub async fn change_visibility_batch(
    t: &TestServer,
    url: &str,
    entries: &[(&str, &str, i32)],
) -> Answer<Batch<String>> {
    let entries = entries.iter().map(|(id, h, s)| change_entry(id, h, *s));
    let call = t.client.change_message_visibility_batch().queue_url(url);
    let out = call.set_entries(Some(entries.collect())).send().await;
    let out = out.map_err(|e| error(&e))?;
    Ok(Batch {
        successful: out.successful.into_iter().map(|s| s.id).collect(),
        failed: failed(&out.failed),
    })
}

pub async fn get_attributes(
    t: &TestServer,
    url: &str,
    names: &[&str],
) -> Answer<BTreeMap<String, String>> {
    let mut call = t.client.get_queue_attributes().queue_url(url);
    for name in names {
        call = call.attribute_names(QueueAttributeName::from(*name));
    }
    let out = call.send().await.map_err(|e| error(&e))?;
    let attributes = out.attributes.unwrap_or_default().into_iter();
    Ok(attributes
        .map(|(k, v)| (k.as_str().to_owned(), v))
        .collect())
}

pub async fn set_attributes(t: &TestServer, url: &str, attrs: &[(&str, &str)]) -> Answer<()> {
    let mut call = t.client.set_queue_attributes().queue_url(url);
    for (k, v) in attrs {
        call = call.attributes(QueueAttributeName::from(*k), *v);
    }
    call.send().await.map(drop).map_err(|e| error(&e))
}

pub async fn purge(t: &TestServer, url: &str) -> Answer<()> {
    let call = t.client.purge_queue().queue_url(url);
    call.send().await.map(drop).map_err(|e| error(&e))
}

pub async fn delete_queue(t: &TestServer, url: &str) -> Answer<()> {
    let call = t.client.delete_queue().queue_url(url);
    call.send().await.map(drop).map_err(|e| error(&e))
}

pub async fn dead_letter_sources(t: &TestServer, url: &str) -> Answer<Vec<String>> {
    let call = t.client.list_dead_letter_source_queues().queue_url(url);
    Ok(call.send().await.map_err(|e| error(&e))?.queue_urls)
}
