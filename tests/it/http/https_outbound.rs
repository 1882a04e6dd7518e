//! https subscribers and functions (issue 39): verified against the operator's CA file
//! (`[outbound] ca_file`, here a CA the test makes), refused without it, and taken without
//! verification only with `insecure`.

use sqslite::config::{Function, Target};
use sqslite::QueueDecl;

use crate::common::tls::HttpsEndpoint;
use crate::triggers::mapping;

#[tokio::test]
async fn an_https_subscriber_gets_its_confirmation_with_the_ca_file() {
    let hook = HttpsEndpoint::start("").await;
    let mut config = sqslite::Config::ephemeral();
    config.outbound.ca_file = Some(hook.ca_file.clone());
    let s = crate::common::sns::start_with(config).await;
    let topic = s.topic("secure", &[]).await;
    let call = s.sns.subscribe().topic_arn(&topic).protocol("https");
    call.endpoint(&hook.url).send().await.unwrap();
    let (_, body) = hook.wait_for(1).await.remove(0);
    let confirmation: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(confirmation["Type"], "SubscriptionConfirmation");
    assert_eq!(confirmation["TopicArn"], topic.as_str());
}

#[tokio::test]
async fn an_https_function_is_invoked_with_the_ca_file() {
    let handler = HttpsEndpoint::start("{}").await;
    let mut config = sqslite::Config::ephemeral().with_queue(QueueDecl::new("orders"));
    config.outbound.ca_file = Some(handler.ca_file.clone());
    let f = Function::new("orders-handler", Target::Url(handler.url.clone()));
    config.triggers.functions.push(f);
    config.triggers.mappings.push(mapping("orders"));
    let s = crate::common::TestServer::start_with(config).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "over tls").await;
    let (_, event) = handler.wait_for(1).await.remove(0);
    let event: serde_json::Value = serde_json::from_str(&event).unwrap();
    assert_eq!(event["Records"][0]["body"], "over tls");
    s.wait_counts(&url, (0, 0)).await;
}

#[tokio::test]
async fn without_the_ca_the_certificate_is_refused_and_insecure_takes_it() {
    let handler = HttpsEndpoint::start("{}").await;
    let serve = |insecure: bool| {
        let mut config = sqslite::Config::ephemeral().with_queue(QueueDecl::new("orders"));
        config.outbound.insecure = insecure;
        let f = Function::new("orders-handler", Target::Url(handler.url.clone()));
        config.triggers.functions.push(f);
        config.triggers.mappings.push(mapping("orders"));
        crate::common::TestServer::start_with(config)
    };
    let s = serve(false).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "unverified").await;
    // The handshake fails: an invocation error, the message stays in flight, nothing arrives.
    s.wait_counter("sqslite_trigger_errors_total", "orders", 1)
        .await;
    assert_eq!(s.counts(&url).await.1, 1);
    drop(s);
    let s = serve(true).await;
    let url = s.server.queue_url("orders");
    s.send(&url, "insecure").await;
    let (_, event) = handler.wait_for(1).await.remove(0);
    assert!(event.contains("insecure"), "{event}");
}
