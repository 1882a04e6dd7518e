//! One Publish is not the size of the server's memory (issue 50, M2): a publish to many
//! subscriptions builds its deliveries a chunk at a time, and the records of what sqslite
//! would have invoked keep at most 8 MiB of payload, so one read of them stays bounded.
//! (The RSS a 250 KB publish to 4,000 subscriptions adds is measured by
//! `scripts/publish-fanout`, written down in BENCHMARKS.md.)

use crate::common::sns::start;

#[tokio::test]
async fn the_records_of_a_wide_publish_are_bounded_in_bytes() {
    let s = start().await;
    let topic = s.topic("wide", &[]).await;
    let subscriptions = 48;
    for i in 0..subscriptions {
        let call = s.sns.subscribe().topic_arn(&topic).protocol("lambda");
        let function = format!("arn:aws:lambda:us-east-1:000000000000:function:f{i}");
        call.endpoint(function).send().await.unwrap();
    }
    let message = format!("{}{}", "x".repeat(250_000), "end");
    s.publish(&topic, &message).await;
    let (status, records) = s.admin_get("/_sqslite/sns/deliveries").await;
    assert_eq!(status, 200);
    let max = records["max_record_bytes"]
        .as_u64()
        .expect("the bound is shown");
    assert_eq!(max, 8 << 20);
    let kept = records["deliveries"].as_array().unwrap();
    let bytes: usize = kept
        .iter()
        .map(|r| r["payload"].as_str().unwrap().len())
        .sum();
    assert!(bytes as u64 <= max, "{bytes} bytes kept");
    assert!(kept.len() < subscriptions, "the oldest records went first");
    // The newest are whole: the last subscription's invocation, the message inside it.
    let last = kept.last().unwrap()["payload"].as_str().unwrap();
    let event: serde_json::Value = serde_json::from_str(last).unwrap();
    let arn = event["Records"][0]["EventSubscriptionArn"]
        .as_str()
        .unwrap();
    assert!(arn.starts_with(&topic), "{arn}");
    let inner = event["Records"][0]["Sns"]["Message"].as_str().unwrap();
    assert!(inner.ends_with("end") && inner.len() == message.len());
}
