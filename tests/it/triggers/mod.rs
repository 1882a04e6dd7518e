//! Lambda-style triggers (src/triggers): event source mappings delivering a queue's messages
//! to a function, their Lambda API, commands, faults, durability and admin routes; this file
//! holds the servers and mappings the tests share.

mod api;
mod api_errors;
mod api_live;
mod commands;
mod durable;
mod events;
mod faults;
mod kinds;
mod limits;
mod mappings_admin;

use aws_sdk_sqs::types::SendMessageBatchRequestEntry;
use sqslite::config::{Function, MappingDecl, Target};
use sqslite::{Config, QueueDecl};

use crate::common::lambda::{Handler, Reply};
use crate::common::TestServer;

/// A server with queue `orders` (visibility 30 s, plus `extra` queues) mapped to `handler`.
pub async fn serve(handler: &Handler, orders: QueueDecl, mapping: MappingDecl) -> TestServer {
    serve_with(Target::Url(handler.url.clone()), orders, mapping).await
}

pub async fn serve_with(target: Target, orders: QueueDecl, mapping: MappingDecl) -> TestServer {
    let mut config = Config::ephemeral()
        .with_queue(QueueDecl::new("orders-dlq"))
        .with_queue(QueueDecl::new("orders-dlq.fifo").attribute("FifoQueue", "true"))
        .with_queue(orders.attribute("VisibilityTimeout", 30));
    let mut function = Function::new("orders-handler", target);
    function.timeout = std::time::Duration::from_secs(10);
    config.triggers.functions.push(function);
    config.triggers.mappings.push(mapping);
    TestServer::start_with(config).await
}

pub fn mapping(queue: &str) -> MappingDecl {
    MappingDecl::new("orders-handler", queue)
}

/// Sends the bodies in one SendMessageBatch, so one receive can take them all.
pub async fn send_all(s: &TestServer, url: &str, bodies: &[&str]) {
    let fifo = url
        .rsplit('/')
        .next()
        .is_some_and(|name| name.contains(".fifo"));
    let entries = bodies.iter().enumerate().map(|(i, b)| {
        let mut e = SendMessageBatchRequestEntry::builder()
            .id(format!("m{i}"))
            .message_body(*b);
        if fifo {
            let group = b.split('-').next().unwrap();
            e = e.message_group_id(group).message_deduplication_id(*b);
        }
        e.build().unwrap()
    });
    let out = s
        .client
        .send_message_batch()
        .queue_url(url)
        .set_entries(Some(entries.collect()))
        .send()
        .await
        .expect("send batch");
    assert!(out.failed.is_empty(), "{:?}", out.failed);
}

pub fn bodies(event: &serde_json::Value) -> Vec<String> {
    event["Records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["body"].as_str().unwrap().to_owned())
        .collect()
}

/// A partial batch response naming every record whose body starts with "bad".
pub fn fail_bad(event: &serde_json::Value) -> Reply {
    let failures: Vec<_> = event["Records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["body"].as_str().unwrap().starts_with("bad"))
        .map(|r| serde_json::json!({"itemIdentifier": r["messageId"]}))
        .collect();
    Reply::ok(&serde_json::json!({ "batchItemFailures": failures }).to_string())
}

pub fn reporting(queue: &str) -> MappingDecl {
    let mut m = mapping(queue);
    m.function_response_types = vec!["ReportBatchItemFailures".into()];
    m
}
