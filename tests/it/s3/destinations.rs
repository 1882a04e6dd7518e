//! Bucket notifications into SNS topics and declared functions, and S3's refusal of a
//! configuration naming each destination it could not validate (`ArgumentName1`…).

use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{
    Event, LambdaFunctionConfiguration, NotificationConfiguration, TopicConfiguration,
};
use serde_json::Value;
use sqslite::config::{Function, Target};
use sqslite::Config;

use crate::common::lambda::{within, Handler};
use crate::common::{sns, TestServer};

fn topic_rule(arn: &str) -> NotificationConfiguration {
    let rule = TopicConfiguration::builder()
        .id("to-topic")
        .topic_arn(arn)
        .events(Event::from("s3:ObjectCreated:*"))
        .build()
        .unwrap();
    NotificationConfiguration::builder()
        .topic_configurations(rule)
        .build()
}

/// The SNS envelopes in the queue now (deleted).
async fn envelopes(t: &TestServer, url: &str) -> Vec<Value> {
    let got = t.client.receive_message().queue_url(url);
    let got = got.max_number_of_messages(10).send().await.unwrap();
    let mut out = Vec::new();
    for m in got.messages() {
        out.push(serde_json::from_str(m.body().unwrap()).unwrap());
        let delete = t.client.delete_message().queue_url(url);
        let delete = delete.receipt_handle(m.receipt_handle().unwrap());
        delete.send().await.unwrap();
    }
    out
}

#[tokio::test]
async fn a_topic_gets_the_test_event_and_each_event_through_its_subscriptions() {
    let s = sns::start().await;
    let topic = s.topic("uploads", &[]).await;
    let (url, queue) = s.queue("from-topic", &[]).await;
    s.subscribe(&topic, &queue, &[]).await;
    let s3 = s.t.bucket("inbox").await;
    let put = s3.put_bucket_notification_configuration().bucket("inbox");
    put.notification_configuration(topic_rule(&topic))
        .send()
        .await
        .unwrap();
    let test = envelopes(&s.t, &url).await;
    assert_eq!(test.len(), 1, "{test:?}");
    assert_eq!(test[0]["Subject"], "Amazon S3 Notification");
    assert_eq!(test[0]["TopicArn"], topic.as_str());
    let inner: Value = serde_json::from_str(test[0]["Message"].as_str().unwrap()).unwrap();
    assert_eq!(inner["Event"], "s3:TestEvent");

    let body = ByteStream::from_static(b"data");
    let put = s3.put_object().bucket("inbox").key("a b.txt").body(body);
    put.send().await.unwrap();
    let got = envelopes(&s.t, &url).await;
    assert_eq!(got.len(), 1, "{got:?}");
    let inner: Value = serde_json::from_str(got[0]["Message"].as_str().unwrap()).unwrap();
    let record = &inner["Records"][0];
    assert_eq!(record["eventName"], "ObjectCreated:Put");
    assert_eq!(record["s3"]["object"]["key"], "a+b.txt");
    assert_eq!(record["s3"]["configurationId"], "to-topic");

    let metrics = s.t.raw("GET", "/metrics", &[], "").await.body;
    assert!(
        metrics.contains("sqslite_s3_notifications_total{outcome=\"delivered\"} 2"),
        "{metrics}"
    );
}

#[tokio::test]
async fn a_declared_function_is_invoked_with_the_event_and_no_test_event() {
    let handler = Handler::start(vec![]).await;
    let mut config = Config::ephemeral();
    config.triggers.functions = vec![Function::new("on-upload", Target::Url(handler.url.clone()))];
    let t = TestServer::start_with(config).await;
    let s3 = t.bucket("inbox").await;
    let arn = "arn:aws:lambda:us-east-1:000000000000:function:on-upload";
    let rule = LambdaFunctionConfiguration::builder()
        .lambda_function_arn(arn)
        .events(Event::from("s3:ObjectCreated:Put"))
        .build()
        .unwrap();
    let config = NotificationConfiguration::builder()
        .lambda_function_configurations(rule)
        .build();
    let put = s3.put_bucket_notification_configuration().bucket("inbox");
    put.notification_configuration(config).send().await.unwrap();
    let body = ByteStream::from_static(b"12345");
    s3.put_object()
        .bucket("inbox")
        .key("photo.jpg")
        .body(body)
        .send()
        .await
        .unwrap();
    let events = within("the function's invocation", handler.wait_events(1)).await;
    // The first invocation is the upload's: a function gets no s3:TestEvent.
    let record = &events[0]["Records"][0];
    assert_eq!(record["eventName"], "ObjectCreated:Put");
    assert_eq!(record["s3"]["object"]["size"], 5);
    assert_eq!(record["s3"]["bucket"]["name"], "inbox");
}

#[tokio::test]
async fn a_refused_configuration_names_each_destination_and_why() {
    let s = sns::start_with(Config {
        strict: true,
        ..Config::ephemeral()
    })
    .await;
    let topic = s.topic("unguarded", &[]).await;
    s.t.bucket("checked").await;
    let queue = "arn:aws:sqs:us-east-1:000000000000:nowhere";
    let function = "arn:aws:lambda:us-east-1:000000000000:function:undeclared";
    let document = format!(
        "<NotificationConfiguration>\
         <QueueConfiguration><Queue>{queue}</Queue><Event>s3:ObjectCreated:Post</Event></QueueConfiguration>\
         <TopicConfiguration><Topic>{topic}</Topic><Event>s3:ObjectRemoved:*</Event></TopicConfiguration>\
         <CloudFunctionConfiguration><CloudFunction>{function}</CloudFunction><Event>s3:ObjectCreated:Copy</Event></CloudFunctionConfiguration>\
         </NotificationConfiguration>"
    );
    let got =
        s.t.raw("PUT", "/checked?notification", &[], &document)
            .await;
    assert_eq!(got.status, 400, "{}", got.body);
    assert_eq!(got.xml("Code").as_deref(), Some("InvalidArgument"));
    assert_eq!(
        got.xml("Message").as_deref(),
        Some("Unable to validate the following destination configurations")
    );
    assert_eq!(got.xml("ArgumentName1").as_deref(), Some(queue));
    assert_eq!(
        got.xml("ArgumentValue1").as_deref(),
        Some("The destination queue does not exist")
    );
    assert_eq!(got.xml("ArgumentName2").as_deref(), Some(topic.as_str()));
    assert!(got
        .xml("ArgumentValue2")
        .is_some_and(|v| v.starts_with("Permissions on the destination topic")));
    assert_eq!(got.xml("ArgumentName3").as_deref(), Some(function));
    assert!(got.header("x-sqslite-s3-argument").is_none());

    // A Policy that lets S3 publish for this bucket makes the topic a destination.
    let policy = serde_json::json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Principal": {"Service": "s3.amazonaws.com"}, "Action": "sns:Publish", "Resource": topic,
        "Condition": {"ArnLike": {"aws:SourceArn": "arn:aws:s3:::checked"}}}]});
    let set = s.sns.set_topic_attributes().topic_arn(&topic);
    let set = set
        .attribute_name("Policy")
        .attribute_value(policy.to_string());
    set.send().await.unwrap();
    let s3 = s.t.s3();
    let put = s3.put_bucket_notification_configuration().bucket("checked");
    put.notification_configuration(topic_rule(&topic))
        .send()
        .await
        .unwrap();
}
