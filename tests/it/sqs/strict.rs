//! The 60-second guards (QueueDeletedRecently, PurgeQueueInProgress): off by default, on with
//! `strict` (`--strict`, `[server] strict = true`, SQSLITE_STRICT), timed by the server clock.

use crate::common::{code, message, TestServer};
use sqslite::Config;

fn strict() -> Config {
    Config {
        strict: true,
        ..Config::ephemeral()
    }
}

async fn purge(t: &TestServer, url: &str) -> Result<(), String> {
    match t.client.purge_queue().queue_url(url).send().await {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("{}: {}", code(&e), message(&e))),
    }
}

/// By default purges may follow each other at once (as test suites do); `--strict` restores
/// SQS's once-a-minute guard, timed by the server clock.
#[tokio::test]
async fn purge_once_a_minute_only_when_strict() {
    let t = TestServer::start().await;
    let url = t.create_queue("p").await;
    t.send(&url, "a").await;
    purge(&t, &url).await.unwrap();
    t.send(&url, "b").await;
    purge(&t, &url).await.unwrap();
    assert_eq!(t.counts(&url).await, (0, 0, 0));

    let t = TestServer::start_with(strict()).await;
    let url = t.create_queue("p").await;
    t.send(&url, "a").await;
    purge(&t, &url).await.unwrap();
    assert_eq!(t.counts(&url).await, (0, 0, 0));
    let err = t
        .client
        .purge_queue()
        .queue_url(&url)
        .send()
        .await
        .unwrap_err();
    assert!(err.as_service_error().unwrap().is_purge_queue_in_progress());
    assert_eq!(
        message(&err),
        "Only one PurgeQueue operation on p is allowed every 60 seconds."
    );
    t.advance_ms(59_999);
    assert!(purge(&t, &url).await.is_err());
    t.advance_ms(1);
    purge(&t, &url).await.unwrap();
}

async fn delete_queue(t: &TestServer, url: &str) {
    t.client.delete_queue().queue_url(url).send().await.unwrap();
}

#[tokio::test]
async fn recreate_at_once_unless_strict() {
    let t = TestServer::start().await;
    let url = t.create_queue("gone").await;
    t.send(&url, "old").await;
    delete_queue(&t, &url).await;
    let err = t
        .client
        .delete_queue()
        .queue_url(&url)
        .send()
        .await
        .unwrap_err();
    assert!(err.as_service_error().unwrap().is_queue_does_not_exist());
    let again = t.create_queue("gone").await;
    assert_eq!(again, url);
    assert_eq!(t.counts(&again).await, (0, 0, 0), "a new, empty queue");
}

#[tokio::test]
async fn strict_recreate_after_sixty_seconds() {
    let t = TestServer::start_with(strict()).await;
    let url = t.create_queue("gone").await;
    delete_queue(&t, &url).await;
    let err = t.try_create_queue("gone", &[]).await.unwrap_err();
    assert!(err.as_service_error().unwrap().is_queue_deleted_recently());
    assert_eq!(
        message(&err),
        "You must wait 60 seconds after deleting a queue before you can create another with the same name."
    );
    t.advance_ms(59_999);
    assert!(t.try_create_queue("gone", &[]).await.is_err());
    t.advance_ms(1);
    t.create_queue("gone").await;
}
