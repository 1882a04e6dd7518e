//! How many subscriptions exist (issue 50, M2 and M3): `max_subscriptions` bounds the
//! subscriptions of all topics, and on a shared instance each declared account holds at most
//! its share, counted as the subscriber's; a laptop (no declared keys) keeps the whole total.

use aws_sdk_sns::Client;

use crate::common::accounts::two_accounts_from;
use crate::common::sns::failure;

type Subscribed = Result<
    aws_sdk_sns::operation::subscribe::SubscribeOutput,
    aws_sdk_sns::error::SdkError<
        aws_sdk_sns::operation::subscribe::SubscribeError,
        aws_sdk_sns::config::http::HttpResponse,
    >,
>;

/// A configuration with `max_subscriptions = 4`, read as a user writes it.
fn four_subscriptions() -> sqslite::Config {
    let text = "[server]\nport = 0\nmax_subscriptions = 4\n";
    sqslite::Config::from_text("sqslite.toml", text)
        .expect("max_subscriptions is a setting")
        .config
}

async fn topic(sns: &Client, name: &str) -> String {
    let created = sns.create_topic().name(name).send().await.unwrap();
    created.topic_arn.unwrap()
}

/// An email-json subscription of `address` to `topic` (pending, and counted as any other).
async fn subscribe(sns: &Client, topic: &str, address: &str) -> Subscribed {
    let call = sns.subscribe().topic_arn(topic).protocol("email-json");
    call.endpoint(address)
        .return_subscription_arn(true)
        .send()
        .await
}

/// Past the bound, Subscribe is SNS's SubscriptionLimitExceeded in words naming the setting.
async fn refused(sns: &Client, topic: &str, address: &str, words: &str) {
    let (code, message) = failure(subscribe(sns, topic, address).await);
    assert_eq!(code, "SubscriptionLimitExceeded", "{message}");
    assert!(message.contains(words), "{message}");
    assert!(message.contains("raise max_subscriptions"), "{message}");
}

#[tokio::test]
async fn each_account_holds_its_share_of_max_subscriptions() {
    let a = two_accounts_from(four_subscriptions()).await;
    let theirs = topic(&a.other_sns, "theirs").await;
    subscribe(&a.other_sns, &theirs, "b1@example.com")
        .await
        .unwrap();
    subscribe(&a.other_sns, &theirs, "b2@example.com")
        .await
        .unwrap();
    refused(
        &a.other_sns,
        &theirs,
        "b3@example.com",
        "share of 2 subscriptions",
    )
    .await;
    // The other account's half is still there for its owner.
    let ours = topic(&a.sns, "ours").await;
    subscribe(&a.sns, &ours, "a1@example.com").await.unwrap();
    subscribe(&a.sns, &ours, "a2@example.com").await.unwrap();
    refused(&a.sns, &ours, "a3@example.com", "share of 2 subscriptions").await;
}

/// Without declared keys there is one account, whose share is the whole total.
#[tokio::test]
async fn a_laptop_keeps_the_whole_of_max_subscriptions() {
    let s = crate::common::sns::start_with(four_subscriptions()).await;
    let one = s.topic("one", &[]).await;
    let two = s.topic("two", &[]).await;
    for (topic, address) in [(&one, "1"), (&one, "2"), (&two, "3"), (&two, "4")] {
        subscribe(&s.sns, topic, &format!("{address}@example.com"))
            .await
            .unwrap();
    }
    refused(&s.sns, &two, "5@example.com", "maximum of 4 subscriptions").await;
}
